package dev.cryptoworker.spark;

import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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

  /** The region's partial sums and counts, one row per group. */
  private final class Partials extends RegionReader {
    private final RegionAggregate aggregate;
    private final ScanConditions conditions;
    private final Iterator<Map.Entry<byte[], AggregateResult>> groups;

    Partials(SecureTable table, RegionPartition region, RegionAggregate aggregate) throws IOException {
      super(table);
      this.aggregate = aggregate;
      this.conditions = read.conditions();
      byte[] start = region.isWholeTable() ? new byte[0] : region.start();
      byte[] end = region.isWholeTable() ? new byte[0] : region.end();
      Map<byte[], AggregateResult> partial = table.aggregateRange(conditions.scan(), aggregate.query(), start, end);
      if (!aggregate.grouped() && partial.isEmpty()) {
        partial = Map.of(new byte[0], new AggregateResult(0, 0)); // a global aggregate has one row per region
      } else if (aggregate.grouped()) {
        partial = withNullGroup(table, partial, start, end);
      }
      this.groups = partial.entrySet().iterator();
    }

    /**
     * {@code grouped} and SQL's null group, which the region servers do not form: the rows without a
     * group value, summed as the whole less the groups, or (sum null, count 0) when only rows
     * without the measure lack it.
     */
    private Map<byte[], AggregateResult> withNullGroup(SecureTable table, Map<byte[], AggregateResult> grouped,
        byte[] start, byte[] end) throws IOException {
      AggregateResult whole = table.aggregateRange(conditions.scan(), aggregate.ungrouped(), start, end).values()
          .stream().reduce(new AggregateResult(0, 0), AggregateResult::plus);
      AggregateResult inGroups = grouped.values().stream().reduce(new AggregateResult(0, 0), AggregateResult::plus);
      AggregateResult rest = new AggregateResult(whole.sum() - inGroups.sum(), whole.count() - inGroups.count());
      if (rest.count() == 0 && !anyRowWithoutGroup(table, start, end)) {
        return grouped;
      }
      Map<byte[], AggregateResult> out = new java.util.LinkedHashMap<>(grouped);
      out.put(null, rest);
      return out;
    }

    private boolean anyRowWithoutGroup(SecureTable table, byte[] start, byte[] end) throws IOException {
      org.apache.hadoop.hbase.client.Scan probe = aggregate.withoutGroupValue(conditions.scan());
      try (SecureResultScanner s = start.length == 0 && end.length == 0 ? table.getScanner(probe)
          : table.getScanner(probe, start, end)) {
        return s.next() != null;
      }
    }

    @Override
    public boolean next() {
      if (!groups.hasNext()) {
        return false;
      }
      Map.Entry<byte[], AggregateResult> e = groups.next();
      current = aggregate.row(e.getKey(), e.getValue());
      return true;
    }
  }
}
