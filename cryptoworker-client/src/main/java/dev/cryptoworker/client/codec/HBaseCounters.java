package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.IdentifierSource;
import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The counters a connection keeps in the counter table ({@link HBaseIdentifierSource#TABLE}):
 * identifier leases, and shared counts that every writer reads with one Get and advances with one
 * HBase Increment on one row, atomic across threads, processes and machines.
 */
public final class HBaseCounters implements ColumnBoxContext.CounterSources {
  private final Connection connection;
  private final int blockSize;

  /** @param blockSize how many identifiers one lease takes */
  public HBaseCounters(Connection connection, int blockSize) {
    this.connection = connection;
    this.blockSize = blockSize;
  }

  @Override
  public IdentifierSource forCounterRow(byte[] counterRow) {
    return new HBaseIdentifierSource(connection, counterRow, blockSize);
  }

  @Override
  public SharedCounts sharedCounts(byte[] counterRow, Function<String, byte[]> columnOf) {
    byte[] row = counterRow.clone();
    return (names, deltas) -> {
      byte[][] columns = new byte[names.size()][];
      for (int i = 0; i < columns.length; i++) {
        columns[i] = columnOf.apply(names.get(i));
      }
      Result result;
      try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
        result = Arrays.stream(deltas).allMatch(d -> d == 0) ? counters.get(read(row, columns))
            : counters.increment(increment(row, columns, deltas));
      }
      long[] out = new long[columns.length];
      for (int i = 0; i < columns.length; i++) {
        byte[] value = result.getValue(HBaseIdentifierSource.FAMILY, columns[i]);
        if (value != null && value.length != Long.BYTES) {
          throw new IOException("the counter table returned a shared count of " + value.length + " bytes, not "
              + Long.BYTES + " (" + names.size() + " asked)");
        }
        out[i] = value == null ? 0 : Bytes.toLong(value); // a count never added is not stored: 0
      }
      return out;
    };
  }

  /**
   * A read of counts: a Get, which writes nothing, where an Increment of 0 would take the row's lock
   * and write every count again. It sees what that Increment would, except adds still in flight.
   */
  private static Get read(byte[] row, byte[][] columns) {
    Get get = new Get(row);
    for (byte[] column : columns) {
      get.addColumn(HBaseIdentifierSource.FAMILY, column);
    }
    return get;
  }

  private static Increment increment(byte[] row, byte[][] columns, long[] deltas) {
    Increment increment = new Increment(row);
    for (int i = 0; i < columns.length; i++) {
      increment.addColumn(HBaseIdentifierSource.FAMILY, columns[i], deltas[i]);
    }
    return increment;
  }
}
