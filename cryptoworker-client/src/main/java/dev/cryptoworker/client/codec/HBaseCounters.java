package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.IdentifierSource;
import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import java.io.IOException;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The counters a connection keeps in the counter table ({@link HBaseIdentifierSource#TABLE}):
 * identifier leases, and shared counts that every writer reads and advances with one HBase
 * Increment on one row, atomic across threads, processes and machines.
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
      Increment increment = new Increment(row);
      byte[][] columns = new byte[names.size()][];
      for (int i = 0; i < columns.length; i++) {
        columns[i] = columnOf.apply(names.get(i));
        increment.addColumn(HBaseIdentifierSource.FAMILY, columns[i], deltas[i]);
      }
      Result result;
      try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
        result = counters.increment(increment);
      }
      long[] out = new long[columns.length];
      for (int i = 0; i < columns.length; i++) {
        byte[] value = result.getValue(HBaseIdentifierSource.FAMILY, columns[i]);
        if (value == null || value.length != Long.BYTES) {
          throw new IOException("the counter table returned no count for a shared counter (" + names.size()
              + " asked)");
        }
        out[i] = Bytes.toLong(value);
      }
      return out;
    };
  }
}
