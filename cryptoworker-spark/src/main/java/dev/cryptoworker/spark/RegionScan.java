package dev.cryptoworker.spark;

import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.spi.LayoutCapability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read: one input partition per region of the stored table, preferring the region's
 * server; one for the whole table where the layout cannot scan a stored range, or where an index
 * finds the rows (a search asks every region at once and returns only matches). Its description,
 * which Spark's {@code explain} prints, is the client's {@link dev.cryptoworker.client.QueryPlan}.
 */
final class RegionScan implements Scan, Batch {
  private final ReadSpec read;

  RegionScan(ReadSpec read) {
    this.read = read;
  }

  @Override
  public StructType readSchema() {
    return read.readSchema();
  }

  @Override
  public String description() {
    ScanConditions conditions = read.conditions();
    RegionAggregate aggregate = read.aggregate();
    try (SecureTable table = TableConnections.table(read.options())) {
      return "cryptoworker " + table.getName().getNameAsString() + " ["
          + (aggregate == null ? table.plan(conditions.scan()).describe()
              : aggregate.describe() + ": " + table.plan(conditions.scan(), aggregate.query()).describe())
          + "] columns " + java.util.Arrays.toString(read.readSchema().fieldNames()) + " PushedFilters: "
          + conditions.pushed();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    try (SecureTable table = TableConnections.table(read.options())) {
      if (!table.capabilities().contains(LayoutCapability.STORED_RANGE_SCANS) || readsThroughIndex(table)) {
        return new InputPartition[] {RegionPartition.wholeTable()};
      }
      List<InputPartition> out = new ArrayList<>();
      try (RegionLocator regions = table.getRegionLocator()) {
        for (HRegionLocation region : regions.getAllRegionLocations()) {
          out.add(new RegionPartition(region.getRegion().getStartKey(), region.getRegion().getEndKey(),
              region.getHostname()));
        }
      }
      return out.toArray(InputPartition[]::new);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether the rows are found through an index: one task asks every region at once (the index
   * answers only matching rows), where a task per region would each pay Spark's cost per task to
   * ask one region for a few rows.
   */
  private boolean readsThroughIndex(SecureTable table) throws IOException {
    return read.aggregate() == null && table.plan(read.conditions().scan()).findsRowsByIndex();
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new RegionReaders(read);
  }
}
