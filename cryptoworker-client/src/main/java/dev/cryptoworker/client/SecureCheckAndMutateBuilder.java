package dev.cryptoworker.client;

import java.util.Objects;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.TimeRange;

/** {@link Table#checkAndMutate(byte[], byte[])} on a SecureTable. */
@SuppressWarnings("deprecation")
final class SecureCheckAndMutateBuilder extends CheckAndMutateActions implements Table.CheckAndMutateBuilder {
  private final byte[] row;
  private final byte[] family;
  private byte[] qualifier;
  private TimeRange timeRange;
  private CompareOperator op;
  private byte[] value;
  private boolean conditionSet;

  SecureCheckAndMutateBuilder(SecureTable table, byte[] row, byte[] family) {
    super(table);
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

  @Override
  CheckAndMutate.Builder condition() {
    if (qualifier == null) {
      throw new IllegalStateException("check-and-mutate needs a qualifier: call qualifier(...)");
    }
    if (!conditionSet) {
      throw new IllegalStateException("check-and-mutate needs a condition: ifNotExists or ifMatches");
    }
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value);
    return timeRange == null ? b : b.timeRange(timeRange);
  }
}
