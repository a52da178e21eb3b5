package dev.cryptoworker.client.search;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.search.PrfOutput;
import dev.cryptoworker.region.CounterTakeRequest;
import dev.cryptoworker.region.RegionRequests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The per-value entry counters of searchable (SSE) columns, one cell per (column, value, key) in
 * the counter table ({@link HBaseIdentifierSource#TABLE}), named by the value's {@link
 * ValueIndex#counterName()} and stored masked ({@link ValueIndex#initialCounter()} plus the count).
 *
 * <p>A writer takes entry numbers with atomic increments, so concurrent writers of one value never
 * share one. The takes of a batch go to the region-side observer of the counter table, one {@link
 * CounterTakeRequest} per counter region, which applies them in one batch of HBase Increments (one
 * write-ahead-log sync, where a check-and-put and an Increment per value cost one sync each). A
 * counter not known to exist carries its mask, from which the region starts it if the take creates
 * it, so a value written once costs one operation. A writer that stops between taking a number and
 * writing its row leaves a gap no search can trip on. Numbers are taken for the rows being written,
 * never reserved ahead: a reserved number would be covered by searches made before it is used, and
 * its entry then found by their tokens.
 * Thread-safe.
 */
public class SearchCounters {
  static final byte[] QUALIFIER = Bytes.toBytes("sse");
  private static final int REMEMBERED_COUNTERS = 1 << 16;

  private final Connection connection;
  /**
   * The highest count seen per counter, which also says which counters exist. Counts only grow: a
   * read lower than a count seen before it began, or a take of {@code a} that leaves a counter
   * below that count plus {@code a}, means the counter table went back (restored from an older
   * copy), and entry numbers would be handed out again.
   */
  private final SeenCounts seen = new SeenCounts(REMEMBERED_COUNTERS);
  /** Entry numbers taken ahead for the batch this thread is encoding, by counter name. */
  private final ThreadLocal<Map<PrfOutput, ArrayDeque<Long>>> takenAhead = ThreadLocal.withInitial(HashMap::new);
  /** The index of each searchable cell of the batch this thread is encoding, derived once for both steps. */
  private final ThreadLocal<Map<Cell, ValueIndex>> indexedAhead = ThreadLocal.withInitial(IdentityHashMap::new);

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
      public void takeAhead(Map<Cell, ValueIndex> indexes) throws IOException {
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
    ArrayDeque<Long> ahead = takenAhead.get().get(index.counterKey());
    if (ahead != null && !ahead.isEmpty()) {
      return ahead.poll();
    }
    return index.entryNumber(take(List.of(index), List.of(1))[0]);
  }

  /**
   * Takes, in one round trip per counter region, one entry number per searchable cell of a batch
   * ({@code indexes}: each cell's value index), for this thread's next {@link #nextEntry} calls,
   * and remembers each cell's index for {@link #indexTakenFor}. Numbers left unused when {@link
   * #releaseTaken} runs are gaps, which no search trips on.
   */
  public void takeAhead(Map<Cell, ValueIndex> indexes) throws IOException {
    indexedAhead.get().putAll(indexes);
    Map<PrfOutput, ValueIndex> byCounter = new LinkedHashMap<>();
    Map<PrfOutput, Integer> wanted = new HashMap<>();
    for (ValueIndex index : indexes.values()) {
      PrfOutput key = index.counterKey();
      byCounter.putIfAbsent(key, index);
      wanted.merge(key, 1, Integer::sum);
    }
    List<ValueIndex> distinct = new ArrayList<>(byCounter.values());
    List<Integer> amounts = new ArrayList<>(distinct.size());
    for (PrfOutput key : byCounter.keySet()) {
      amounts.add(wanted.get(key));
    }
    long[] stored = take(distinct, amounts);
    Map<PrfOutput, ArrayDeque<Long>> ahead = takenAhead.get();
    for (int i = 0; i < distinct.size(); i++) {
      long last = distinct.get(i).entryNumber(stored[i]);
      ArrayDeque<Long> numbers = ahead.computeIfAbsent(distinct.get(i).counterKey(), k -> new ArrayDeque<>());
      for (long e = last - amounts.get(i) + 1; e <= last; e++) {
        numbers.add(e);
      }
    }
  }

  /** The index {@link #takeAhead} derived for {@code cell} (the same object) on this thread, or null. */
  public ValueIndex indexTakenFor(Cell cell) {
    return indexedAhead.get().get(cell);
  }

  /** Drops this thread's numbers taken ahead and not used, and the indexes derived with them. */
  public void releaseTaken() {
    takenAhead.get().clear();
    indexedAhead.get().clear();
  }

  /**
   * Adds {@code amounts} to the counters of {@code indexes} (distinct counters) and returns each
   * counter's stored value after its take. One {@link CounterTakeRequest} per counter region, which
   * the region applies in one batch; a counter not known to exist carries its initial value (its
   * mask), from which the region starts it if the take creates it.
   */
  private long[] take(List<ValueIndex> indexes, List<Integer> amounts) throws IOException {
    long[] before = new long[indexes.size()];
    Map<PrfOutput, Integer> position = new HashMap<>();
    for (int i = 0; i < indexes.size(); i++) {
      before[i] = seen(indexes.get(i));
      position.put(indexes.get(i).counterKey(), i);
    }
    long[] stored = new long[indexes.size()];
    boolean[] answered = new boolean[indexes.size()];
    IOException failed = null;
    for (List<Integer> group : byRegion(indexes)) {
      List<CounterTakeRequest.Take> takes = new ArrayList<>(group.size());
      byte[] first = null;
      byte[] last = null;
      for (int i : group) {
        byte[] row = indexes.get(i).counterName();
        boolean known = before[i] != SeenCounts.UNSEEN;
        takes.add(new CounterTakeRequest.Take(row, amounts.get(i), known ? null : indexes.get(i).initialCounter()));
        first = first == null || Bytes.compareTo(row, first) < 0 ? row : first;
        last = last == null || Bytes.compareTo(row, last) > 0 ? row : last;
      }
      Scan scan = new Scan().withStartRow(first).withStopRow(last, true).setCaching(group.size() + 1)
          .setCacheBlocks(false).setMaxResultSize(Long.MAX_VALUE);
      scan.setAttribute(RegionRequests.ATTRIBUTE, RegionRequests.encode(
          new CounterTakeRequest(HBaseIdentifierSource.FAMILY, QUALIFIER, takes)));
      try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE);
          ResultScanner answers = counters.getScanner(scan)) {
        for (Result r : answers) {
          for (Cell c : r.rawCells()) {
            Integer i = position.get(PrfOutput.copyOf(CellUtil.cloneRow(c)));
            if (i == null || answered[i] || !CounterTakeRequest.isAnswer(CellUtil.cloneQualifier(c))
                || c.getValueLength() != Bytes.SIZEOF_LONG) {
              throw new IOException("the counter table " + HBaseIdentifierSource.TABLE + " answered a search-index"
                  + " entry take with a cell that answers no take of it (row " + Bytes.toStringBinary(CellUtil.cloneRow(c))
                  + "): its regions need the observer " + RegionSupport.REGION_OBSERVER);
            }
            answered[i] = true;
            stored[i] = Bytes.toLong(CellUtil.cloneValue(c));
          }
        }
      } catch (UncheckedIOException e) {
        failed = failed == null ? e.getCause() : failed; // how a ResultScanner's iterator reports a failed region
      } catch (IOException e) {
        failed = failed == null ? e : failed;
      }
      // Every region is asked even after one fails, so which numbers a failed batch took does not
      // depend on the order of its regions.
    }
    if (failed != null) {
      throw failed;
    }
    for (int i = 0; i < indexes.size(); i++) {
      if (!answered[i]) {
        throw new IOException("the counter table " + HBaseIdentifierSource.TABLE + " did not answer a search-index"
            + " entry take: its regions need the observer " + RegionSupport.REGION_OBSERVER);
      }
    }
    for (int i = 0; i < indexes.size(); i++) {
      observed(indexes.get(i), stored[i], before[i] == SeenCounts.UNSEEN ? before[i] : before[i] + amounts.get(i));
    }
    return stored;
  }

  /** The positions of {@code indexes}, grouped by the counter region that holds each counter. */
  private Collection<List<Integer>> byRegion(List<ValueIndex> indexes) throws IOException {
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    try (RegionLocator locator = connection.getRegionLocator(HBaseIdentifierSource.TABLE)) {
      for (int i = 0; i < indexes.size(); i++) {
        String region = locator.getRegionLocation(indexes.get(i).counterName()).getRegion().getEncodedName();
        groups.computeIfAbsent(region, k -> new ArrayList<>()).add(i);
      }
    }
    return groups.values();
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
        if (v == null && before[i] != SeenCounts.UNSEEN) {
          throw wentBack(indexes.get(i), before[i], "no counter");
        }
        out.add(v == null ? 0L : indexes.get(i).count(observed(indexes.get(i), Bytes.toLong(v), before[i])));
      }
    }
    return out;
  }

  /** The highest count of {@code index}'s counter seen so far, or {@link SeenCounts#UNSEEN}. */
  private long seen(ValueIndex index) {
    return seen.highest(index.counterKey());
  }

  /**
   * Records the count of {@code stored}, which must be at least {@code least} (the highest count
   * seen before the read, plus the amount taken if it was a take), and returns {@code stored}.
   *
   * @throws IllegalStateException if the count is lower: the counter went back
   */
  private long observed(ValueIndex index, long stored, long least) {
    long count = index.count(stored);
    if (count < least) {
      throw wentBack(index, least, count + " entries");
    }
    seen.saw(index.counterKey(), count);
    return stored;
  }

  private static IllegalStateException wentBack(ValueIndex index, long least, String now) {
    return new IllegalStateException("an SSE entry counter in " + HBaseIdentifierSource.TABLE + " went back (it should"
        + " hold at least " + least + " entries, now " + now + "): the counter table was restored from an older copy. Writes would reuse entry"
        + " keys and earlier rows would drop out of searches; refused. Restore the counter table together with the"
        + " data tables from one snapshot (docs/operations.md: Restoring the counter table)");
  }
}
