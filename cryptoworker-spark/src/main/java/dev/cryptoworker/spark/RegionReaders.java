package dev.cryptoworker.spark;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructField;

/**
 * Readers of one region on an executor: decrypted rows through {@link
 * SecureTable#getScanner(org.apache.hadoop.hbase.client.Scan, byte[], byte[])}, or the region's
 * partial aggregate through {@link SecureTable#aggregateRange}.
 */
final class RegionReaders implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final ReadSpec read;

  RegionReaders(ReadSpec read) {
    this.read = read;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    RegionPartition region = (RegionPartition) partition;
    try {
      SecureTable table = TableConnections.table(read.options());
      return read.aggregate() == null ? new Rows(table, region) : new Partials(table, region, read.aggregate());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A reader of one region's table, holding the row it last read. */
  private abstract static class RegionReader implements PartitionReader<InternalRow> {
    final SecureTable table;
    InternalRow current;

    RegionReader(SecureTable table) {
      this.table = table;
    }

    @Override
    public InternalRow get() {
      return current;
    }

    @Override
    public void close() throws IOException {
      table.close();
    }
  }

  /** The region's decrypted rows, as Spark rows of the read schema. */
  private final class Rows extends RegionReader {
    private final SecureResultScanner scanner;
    private final List<SparkColumns.Column> columns = new ArrayList<>();

    Rows(SecureTable table, RegionPartition region) throws IOException {
      super(table);
      ScanConditions conditions = read.conditions();
      this.scanner = region.isWholeTable() ? table.getScanner(conditions.scan())
          : table.getScanner(conditions.scan(), region.start(), region.end());
      for (StructField f : read.readSchema().fields()) {
        columns.add(read.columns().named(f.name()).orElseThrow());
      }
    }

    @Override
    public boolean next() throws IOException {
      Result r = scanner.next();
      if (r == null) {
        return false;
      }
      Object[] values = new Object[columns.size()];
      for (int i = 0; i < values.length; i++) {
        SparkColumns.Column c = columns.get(i);
        byte[] v = c.isRowKey() ? r.getRow() : r.getValue(c.familyBytes(), c.qualifierBytes());
        values[i] = v == null ? null : c.toSpark(v);
      }
      current = new GenericInternalRow(values);
      return true;
    }

    @Override
    public void close() throws IOException {
      try (table) {
        scanner.close();
      }
    }
  }

  /** The region's partial sums and counts, one row per group, from one region-side pass. */
  private final class Partials extends RegionReader {
    private final RegionAggregate aggregate;
    private final Iterator<AggregateGroup> groups;

    Partials(SecureTable table, RegionPartition region, RegionAggregate aggregate) throws IOException {
      super(table);
      this.aggregate = aggregate;
      byte[] start = region.isWholeTable() ? new byte[0] : region.start();
      byte[] end = region.isWholeTable() ? new byte[0] : region.end();
      List<AggregateGroup> partial = table.aggregateRange(read.conditions().scan(), aggregate.query(), start, end);
      if (!aggregate.grouped() && partial.isEmpty()) {
        partial = List.of(aggregate.empty()); // a global aggregate has one row per region
      }
      this.groups = partial.iterator();
    }

    @Override
    public boolean next() {
      if (!groups.hasNext()) {
        return false;
      }
      current = aggregate.row(groups.next());
      return true;
    }
  }
}
