package dev.cryptoworker.client;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.io.TimeRange;

/**
 * The deprecated fluent check-and-mutate of {@link Table}, expressed as a {@link CheckAndMutate}
 * and sent through {@link SecureTable#checkAndMutate(CheckAndMutate)}, so it is encoded the same
 * way.
 */
@SuppressWarnings("deprecation")
final class SecureCheckAndMutateBuilder implements Table.CheckAndMutateBuilder {
  private final SecureTable table;
  private final byte[] row;
  private final byte[] family;
  private byte[] qualifier;
  private TimeRange timeRange;
  private CompareOperator op;
  private byte[] value;
  private boolean conditionSet;

  SecureCheckAndMutateBuilder(SecureTable table, byte[] row, byte[] family) {
    this.table = table;
    this.row = Objects.requireNonNull(row, "row");
    this.family = Objects.requireNonNull(family, "family");
  }

  @Override
  public Table.CheckAndMutateBuilder qualifier(byte[] qualifier) {
    this.qualifier = Objects.requireNonNull(qualifier, "qualifier");
    return this;
  }

  @Override
  public Table.CheckAndMutateBuilder timeRange(TimeRange timeRange) {
    this.timeRange = timeRange;
    return this;
  }

  @Override
  public Table.CheckAndMutateBuilder ifNotExists() {
    this.op = CompareOperator.EQUAL;
    this.value = null;
    this.conditionSet = true;
    return this;
  }

  @Override
  public Table.CheckAndMutateBuilder ifMatches(CompareOperator op, byte[] value) {
    this.op = Objects.requireNonNull(op, "op");
    this.value = Objects.requireNonNull(value, "value");
    this.conditionSet = true;
    return this;
  }

  private CheckAndMutate.Builder condition() {
    if (qualifier == null) {
      throw new IllegalStateException("check-and-mutate needs a qualifier: call qualifier(...)");
    }
    if (!conditionSet) {
      throw new IllegalStateException("check-and-mutate needs a condition: ifNotExists or ifMatches");
    }
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value);
    return timeRange == null ? b : b.timeRange(timeRange);
  }

  @Override
  public boolean thenPut(Put put) throws IOException {
    return table.checkAndMutate(condition().build(put)).isSuccess();
  }

  @Override
  public boolean thenDelete(Delete delete) throws IOException {
    return table.checkAndMutate(condition().build(delete)).isSuccess();
  }

  @Override
  public boolean thenMutate(RowMutations mutation) throws IOException {
    return table.checkAndMutate(condition().build(mutation)).isSuccess();
  }

  /** The filter form. */
  static final class WithFilter implements Table.CheckAndMutateWithFilterBuilder {
    private final SecureTable table;
    private final byte[] row;
    private final Filter filter;
    private TimeRange timeRange;

    WithFilter(SecureTable table, byte[] row, Filter filter) {
      this.table = table;
      this.row = Objects.requireNonNull(row, "row");
      this.filter = Objects.requireNonNull(filter, "filter");
    }

    @Override
    public Table.CheckAndMutateWithFilterBuilder timeRange(TimeRange timeRange) {
      this.timeRange = timeRange;
      return this;
    }

    private CheckAndMutate.Builder condition() {
      CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row).ifMatches(filter);
      return timeRange == null ? b : b.timeRange(timeRange);
    }

    @Override
    public boolean thenPut(Put put) throws IOException {
      return table.checkAndMutate(condition().build(put)).isSuccess();
    }

    @Override
    public boolean thenDelete(Delete delete) throws IOException {
      return table.checkAndMutate(condition().build(delete)).isSuccess();
    }

    @Override
    public boolean thenMutate(RowMutations mutation) throws IOException {
      return table.checkAndMutate(condition().build(mutation)).isSuccess();
    }
  }
}
