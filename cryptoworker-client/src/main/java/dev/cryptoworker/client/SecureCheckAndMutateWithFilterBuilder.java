package dev.cryptoworker.client;

import java.util.Objects;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.io.TimeRange;

/** {@link Table#checkAndMutate(byte[], Filter)} on a SecureTable. */
@SuppressWarnings("deprecation")
final class SecureCheckAndMutateWithFilterBuilder extends CheckAndMutateActions
    implements Table.CheckAndMutateWithFilterBuilder {
  private final byte[] row;
  private final Filter filter;
  private TimeRange timeRange;

  SecureCheckAndMutateWithFilterBuilder(SecureTable table, byte[] row, Filter filter) {
    super(table);
    this.row = Objects.requireNonNull(row, "row");
    this.filter = Objects.requireNonNull(filter, "filter");
  }

  @Override
  public Table.CheckAndMutateWithFilterBuilder timeRange(TimeRange timeRange) {
    this.timeRange = timeRange;
    return this;
  }

  @Override
  CheckAndMutate.Builder condition() {
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(row).ifMatches(filter);
    return timeRange == null ? b : b.timeRange(timeRange);
  }
}
