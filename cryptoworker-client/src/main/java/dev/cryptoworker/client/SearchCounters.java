package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.ValueIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The per-value entry counters of searchable (SSE) columns, one cell per (column, value, key) in
 * the counter table ({@link HBaseIdentifierSource#TABLE}), named by the value's {@link
 * ValueIndex#counterName()} and stored masked ({@link ValueIndex#initialCounter()} plus the count).
 *
 * <p>A writer takes entry numbers with HBase's atomic Increment, so concurrent writers of one value
 * never share one; the first write of a value sets the mask with a check-and-put that only the first
 * writer wins. A writer that stops between taking a number and writing its row leaves a gap no
 * search can trip on. Numbers are taken one per write, never reserved ahead: a reserved number would
 * be covered by searches made before it is used, and its entry then found by their tokens.
 * Thread-safe.
 */
class SearchCounters {
  static final byte[] QUALIFIER = Bytes.toBytes("sse");
  private static final int REMEMBERED_COUNTERS = 1 << 16;

  private final Connection connection;
  private final Set<ByteBuffer> initialized = ConcurrentHashMap.newKeySet();

  SearchCounters(Connection connection) {
    this.connection = connection;
  }

  /** Counters for codecs that only read and never search (tests, tools): every call fails. */
  static SearchCounters unavailable(String table) {
    return new SearchCounters(null) {
      @Override
      long nextEntry(ValueIndex index) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for SSE columns");
      }

      @Override
      List<Long> counts(List<ValueIndex> indexes) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for SSE columns");
      }
    };
  }

  /** Takes the next entry number of {@code index}'s value. */
  long nextEntry(ValueIndex index) throws IOException {
    byte[] row = index.counterName();
    try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
      ByteBuffer key = ByteBuffer.wrap(row);
      if (!initialized.contains(key)) {
        counters.checkAndMutate(CheckAndMutate.newBuilder(row)
            .ifNotExists(HBaseIdentifierSource.FAMILY, QUALIFIER)
            .build(new Put(row).addColumn(HBaseIdentifierSource.FAMILY, QUALIFIER, Bytes.toBytes(index.initialCounter()))));
        if (initialized.size() >= REMEMBERED_COUNTERS) {
          initialized.clear();
        }
        initialized.add(key);
      }
      return index.entryNumber(counters.incrementColumnValue(row, HBaseIdentifierSource.FAMILY, QUALIFIER, 1));
    }
  }

  /** How many entries each value has been given so far (0 for a value never written). */
  List<Long> counts(List<ValueIndex> indexes) throws IOException {
    List<Get> gets = new ArrayList<>(indexes.size());
    for (ValueIndex index : indexes) {
      gets.add(new Get(index.counterName()).addColumn(HBaseIdentifierSource.FAMILY, QUALIFIER));
    }
    List<Long> out = new ArrayList<>(indexes.size());
    try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
      Result[] results = counters.get(gets);
      for (int i = 0; i < results.length; i++) {
        byte[] v = results[i].getValue(HBaseIdentifierSource.FAMILY, QUALIFIER);
        out.add(v == null ? 0L : indexes.get(i).count(Bytes.toLong(v)));
      }
    }
    return out;
  }
}
