package dev.cryptoworker.client.search;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.cryptobox.ValueIndex;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The per-value entry counters of searchable (SSE) columns, one cell per (column, value, key) in
 * the counter table ({@link HBaseIdentifierSource#TABLE}), named by the value's {@link
 * ValueIndex#counterName()} and stored masked ({@link ValueIndex#initialCounter()} plus the count).
 *
 * <p>A writer takes entry numbers with HBase's atomic Increment, so concurrent writers of one value
 * never share one; the first write of a value creates its counter (mask plus the entries it takes)
 * with a check-and-put that only the first writer wins, so a value written once costs one operation. A writer that stops between taking a number and writing its row leaves a gap no
 * search can trip on. Numbers are taken one per write, never reserved ahead: a reserved number would
 * be covered by searches made before it is used, and its entry then found by their tokens.
 * Thread-safe.
 */
public class SearchCounters {
  static final byte[] QUALIFIER = Bytes.toBytes("sse");
  private static final int REMEMBERED_COUNTERS = 1 << 16;

  private final Connection connection;
  private final Set<ByteBuffer> initialized = ConcurrentHashMap.newKeySet();
  /**
   * The highest count seen per counter. Counts only grow: one read lower than a count seen before
   * the read began means the counter table went back (restored from an older copy).
   */
  private final Map<ByteBuffer, Long> highest = new ConcurrentHashMap<>();
  /** Entry numbers taken ahead for the batch this thread is encoding, by counter name. */
  private final ThreadLocal<Map<ByteBuffer, ArrayDeque<Long>>> takenAhead = ThreadLocal.withInitial(HashMap::new);

  public SearchCounters(Connection connection) {
    this.connection = connection;
  }

  /** Counters for codecs that only read and never search (tests, tools): every call fails. */
  public static SearchCounters unavailable(String table) {
    return new SearchCounters(null) {
      @Override
      long nextEntry(ValueIndex index) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for SSE columns");
      }

      @Override
      public void takeAhead(List<ValueIndex> indexes) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for SSE columns");
      }

      @Override
      List<Long> counts(List<ValueIndex> indexes) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for SSE columns");
      }
    };
  }

  /**
   * Takes the next entry number of {@code index}'s value: one taken ahead by {@link #takeAhead} on
   * this thread if there is one left, else from HBase.
   */
  long nextEntry(ValueIndex index) throws IOException {
    ArrayDeque<Long> ahead = takenAhead.get().get(ByteBuffer.wrap(index.counterName()));
    if (ahead != null && !ahead.isEmpty()) {
      return ahead.poll();
    }
    try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
      if (createIfAbsent(counters, List.of(index), List.of(1)).get(0)) {
        return 0;
      }
      long before = seen(index);
      long stored = counters.incrementColumnValue(index.counterName(), HBaseIdentifierSource.FAMILY, QUALIFIER, 1);
      return index.entryNumber(observed(index, stored, before));
    }
  }

  /**
   * Takes, in at most two round trips, one entry number per element of {@code indexes} (a batch's
   * searchable values), for this thread's next {@link #nextEntry} calls. Numbers left unused when
   * {@link #releaseTaken} runs are gaps, which no search trips on.
   */
  public void takeAhead(List<ValueIndex> indexes) throws IOException {
    Map<ByteBuffer, ValueIndex> byCounter = new LinkedHashMap<>();
    Map<ByteBuffer, Integer> wanted = new HashMap<>();
    for (ValueIndex index : indexes) {
      ByteBuffer key = ByteBuffer.wrap(index.counterName());
      byCounter.putIfAbsent(key, index);
      wanted.merge(key, 1, Integer::sum);
    }
    List<ValueIndex> distinct = new ArrayList<>(byCounter.values());
    List<Integer> amounts = new ArrayList<>(distinct.size());
    for (ValueIndex index : distinct) {
      amounts.add(wanted.get(ByteBuffer.wrap(index.counterName())));
    }
    Map<ByteBuffer, ArrayDeque<Long>> ahead = takenAhead.get();
    try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
      List<Boolean> created = createIfAbsent(counters, distinct, amounts);
      List<ValueIndex> existing = new ArrayList<>();
      List<Row> increments = new ArrayList<>();
      for (int i = 0; i < distinct.size(); i++) {
        ValueIndex index = distinct.get(i);
        if (created.get(i)) {
          give(ahead, index, 0, amounts.get(i));
        } else {
          existing.add(index);
          increments.add(new Increment(index.counterName()).addColumn(HBaseIdentifierSource.FAMILY, QUALIFIER,
              amounts.get(i)));
        }
      }
      if (increments.isEmpty()) {
        return;
      }
      long[] before = new long[existing.size()];
      for (int i = 0; i < existing.size(); i++) {
        before[i] = seen(existing.get(i));
      }
      Object[] results = new Object[increments.size()];
      counters.batch(increments, results);
      for (int i = 0; i < existing.size(); i++) {
        ValueIndex index = existing.get(i);
        int n = wanted.get(ByteBuffer.wrap(index.counterName()));
        long stored = Bytes.toLong(((Result) results[i]).getValue(HBaseIdentifierSource.FAMILY, QUALIFIER));
        long last = index.entryNumber(observed(index, stored, before[i]));
        give(ahead, index, last - n + 1, n);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while taking search index entry numbers");
    }
  }

  private static void give(Map<ByteBuffer, ArrayDeque<Long>> ahead, ValueIndex index, long first, int n) {
    ArrayDeque<Long> numbers = ahead.computeIfAbsent(ByteBuffer.wrap(index.counterName()), k -> new ArrayDeque<>());
    for (long e = first; e < first + n; e++) {
      numbers.add(e);
    }
  }

  /** Drops this thread's numbers taken ahead and not used. */
  public void releaseTaken() {
    takenAhead.get().clear();
  }

  /**
   * Creates the counters not known to exist yet, each already counting its {@code amounts} entries
   * (so a value's first writer takes numbers 0.. in the same call); only the first writer of a
   * value succeeds. Returns, per index, whether this call created it.
   */
  private List<Boolean> createIfAbsent(Table counters, List<ValueIndex> indexes, List<Integer> amounts)
      throws IOException {
    List<CheckAndMutate> unknown = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    List<Boolean> created = new ArrayList<>(indexes.size());
    for (int i = 0; i < indexes.size(); i++) {
      created.add(false);
      byte[] row = indexes.get(i).counterName();
      if (!initialized.contains(ByteBuffer.wrap(row))) {
        positions.add(i);
        unknown.add(CheckAndMutate.newBuilder(row)
            .ifNotExists(HBaseIdentifierSource.FAMILY, QUALIFIER)
            .build(new Put(row).addColumn(HBaseIdentifierSource.FAMILY, QUALIFIER,
                Bytes.toBytes(indexes.get(i).initialCounter() + amounts.get(i)))));
      }
    }
    if (unknown.isEmpty()) {
      return created;
    }
    // Counts seen before the call: another thread's later increment must not count against it.
    long[] before = new long[unknown.size()];
    for (int i = 0; i < unknown.size(); i++) {
      before[i] = seen(indexes.get(positions.get(i)));
    }
    List<CheckAndMutateResult> results = counters.checkAndMutate(unknown);
    if (initialized.size() + unknown.size() > REMEMBERED_COUNTERS) {
      initialized.clear();
    }
    for (int i = 0; i < unknown.size(); i++) {
      initialized.add(ByteBuffer.wrap(unknown.get(i).getRow()));
      created.set(positions.get(i), results.get(i).isSuccess());
      if (results.get(i).isSuccess()) {
        ValueIndex index = indexes.get(positions.get(i));
        observed(index, index.initialCounter() + amounts.get(positions.get(i)), before[i]);
      }
    }
    return created;
  }

  /** How many entries each value has been given so far (0 for a value never written). */
  List<Long> counts(List<ValueIndex> indexes) throws IOException {
    List<Get> gets = new ArrayList<>(indexes.size());
    for (ValueIndex index : indexes) {
      gets.add(new Get(index.counterName()).addColumn(HBaseIdentifierSource.FAMILY, QUALIFIER));
    }
    List<Long> out = new ArrayList<>(indexes.size());
    long[] before = new long[indexes.size()];
    for (int i = 0; i < indexes.size(); i++) {
      before[i] = seen(indexes.get(i));
    }
    try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
      Result[] results = counters.get(gets);
      for (int i = 0; i < results.length; i++) {
        byte[] v = results[i].getValue(HBaseIdentifierSource.FAMILY, QUALIFIER);
        if (v == null && before[i] >= 0) {
          throw wentBack(indexes.get(i), before[i], "no counter");
        }
        out.add(v == null ? 0L : indexes.get(i).count(observed(indexes.get(i), Bytes.toLong(v), before[i])));
      }
    }
    return out;
  }

  /** The highest count of {@code index}'s counter seen so far, or -1. */
  private long seen(ValueIndex index) {
    return highest.getOrDefault(ByteBuffer.wrap(index.counterName()), -1L);
  }

  /**
   * Records the count of {@code stored}, read after {@code before} was the highest count seen, and
   * returns {@code stored}.
   *
   * @throws IllegalStateException if the count is lower: the counter went back
   */
  private long observed(ValueIndex index, long stored, long before) {
    long count = index.count(stored);
    if (count < before) {
      throw wentBack(index, before, count + " entries");
    }
    if (highest.size() > REMEMBERED_COUNTERS) {
      highest.clear();
    }
    highest.merge(ByteBuffer.wrap(index.counterName()), count, Math::max);
    return stored;
  }

  private static IllegalStateException wentBack(ValueIndex index, long before, String now) {
    return new IllegalStateException("an SSE entry counter in " + HBaseIdentifierSource.TABLE + " went back (it held "
        + before + " entries, now " + now + "): the counter table was restored from an older copy. Writes would reuse entry"
        + " keys and earlier rows would drop out of searches; refused. Restore the counter table together with the"
        + " data tables from one snapshot (docs/operations.md: Restoring the counter table)");
  }
}
