package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.IdentifierSource;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * ASHE identifiers leased in blocks from a counter row in HBase ({@link #TABLE}), one row per
 * protected column, named by a keyed PRF of the column ({@link CounterRows}): HBase's atomic
 * Increment makes blocks disjoint across every thread, process and machine, and consecutive
 * identifiers within a block make sums cheap to decrypt.
 *
 * <p>Identifiers of a block that a client never uses (it stops early) are simply skipped: sums
 * only need uniqueness, not density. Thread-safe.
 *
 * <p>Security does not rest on this counter: ASHE binds a random nonce of its own to every
 * identifier (its box draws a new one whenever identifiers go back), so a counter that is
 * restored, lost or lowered by the server costs only shorter runs. Cells written before nonces,
 * under the rows {@code table/family/column} that earlier versions named in clear, are nonce 0 and
 * no new cell shares their PRF input, so those rows are no longer read.
 */
public final class HBaseIdentifierSource implements IdentifierSource {
  /** The counter table, created with the first table that needs it (ASHE, SPLASHE or SSE columns, or a row walk). */
  public static final TableName TABLE = TableName.valueOf("cryptoworker_ids");
  public static final byte[] FAMILY = Bytes.toBytes("c");
  private static final byte[] QUALIFIER = Bytes.toBytes("next");

  private final Connection connection;
  private final byte[] counterRow;
  private final int blockSize;
  private long next;
  private long end; // exclusive

  public HBaseIdentifierSource(Connection connection, byte[] counterRow, int blockSize) {
    this.connection = connection;
    this.counterRow = counterRow.clone();
    this.blockSize = blockSize;
  }

  @Override
  public synchronized long nextId() throws IOException {
    if (next == end) {
      try (Table counters = connection.getTable(TABLE)) {
        long last = counters.incrementColumnValue(counterRow, FAMILY, QUALIFIER, blockSize);
        next = last - blockSize + 1;
        end = last + 1;
      }
    }
    return next++;
  }
}
