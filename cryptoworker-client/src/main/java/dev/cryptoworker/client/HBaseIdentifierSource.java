package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.ashe.IdentifierSource;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * ASHE identifiers leased in blocks from a counter row in HBase ({@link #TABLE}), one row per
 * protected column: HBase's atomic Increment makes blocks disjoint across every thread, process
 * and machine, and consecutive identifiers within a block make sums cheap to decrypt.
 *
 * <p>Identifiers of a block that a client never uses (it stops early) are simply skipped: sums
 * only need uniqueness, not density. Thread-safe.
 */
final class HBaseIdentifierSource implements IdentifierSource {
  /** The counter table, created with the first table that has ASHE columns. */
  static final TableName TABLE = TableName.valueOf("cryptoworker_ids");
  static final byte[] FAMILY = Bytes.toBytes("c");
  private static final byte[] QUALIFIER = Bytes.toBytes("next");

  private final Connection connection;
  private final byte[] counterRow;
  private final int blockSize;
  private long next;
  private long end; // exclusive

  HBaseIdentifierSource(Connection connection, String counterRow, int blockSize) {
    this.connection = connection;
    this.counterRow = Bytes.toBytes(counterRow);
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
