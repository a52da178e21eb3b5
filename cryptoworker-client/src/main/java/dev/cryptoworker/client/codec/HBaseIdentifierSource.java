package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.IdentifierSource;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
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
 * <p>Earlier versions named counter rows {@code table/family/column}. On its first lease a source
 * reads that legacy row, and if the new row has not yet passed it, moves the new row beyond it, so
 * no identifier issued under the legacy row is ever issued again.
 */
public final class HBaseIdentifierSource implements IdentifierSource {
  /** The counter table, created with the first table that needs it (ASHE, SPLASHE or SSE columns, or a row walk). */
  public static final TableName TABLE = TableName.valueOf("cryptoworker_ids");
  public static final byte[] FAMILY = Bytes.toBytes("c");
  private static final byte[] QUALIFIER = Bytes.toBytes("next");

  private final Connection connection;
  private final byte[] counterRow;
  private final byte[] legacyRow;
  private final int blockSize;
  private boolean checkedLegacy;
  private long next;
  private long end; // exclusive

  public HBaseIdentifierSource(Connection connection, byte[] counterRow, byte[] legacyRow, int blockSize) {
    this.connection = connection;
    this.counterRow = counterRow.clone();
    this.legacyRow = legacyRow.clone();
    this.blockSize = blockSize;
  }

  @Override
  public synchronized long nextId() throws IOException {
    if (next == end) {
      try (Table counters = connection.getTable(TABLE)) {
        long last = counters.incrementColumnValue(counterRow, FAMILY, QUALIFIER, blockSize);
        if (!checkedLegacy) {
          long legacy = legacyValue(counters);
          if (last - blockSize < legacy) {
            // This block may overlap identifiers issued under the legacy row: skip past all of them.
            last = counters.incrementColumnValue(counterRow, FAMILY, QUALIFIER, legacy + blockSize);
          }
          checkedLegacy = true;
        }
        next = last - blockSize + 1;
        end = last + 1;
      }
    }
    return next++;
  }

  private long legacyValue(Table counters) throws IOException {
    Result r = counters.get(new Get(legacyRow).addColumn(FAMILY, QUALIFIER));
    byte[] v = r.getValue(FAMILY, QUALIFIER);
    return v == null ? 0 : Bytes.toLong(v);
  }
}
