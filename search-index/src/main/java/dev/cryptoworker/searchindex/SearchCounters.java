package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.search.PrfOutput;
import dev.cryptoworker.region.CountLogCells;
import dev.cryptoworker.region.CounterTakeRequest;
import dev.cryptoworker.region.LaneCountRequest;
import dev.cryptoworker.region.RegionRequests;
import dev.cryptoworker.searchindex.spi.CounterTable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The per-value entry counters of searchable (SSE) columns, one cell per (column, value, key) in
 * the counter table ({@link CounterTable}, {@code cryptoworker_ids}), named by the value's {@link
 * ValueIndex#counterName()} and stored masked ({@link ValueIndex#initialCounter()} plus the count).
 *
 * <p>A writer takes entry numbers from the counter table's region-side observer, so concurrent
 * writers of one value never share one. The takes of a batch go to all counter regions at once,
 * one {@link CounterTakeRequest} per region, which the region applies in one batch (one
 * write-ahead-log sync) from the counters it keeps in memory, and answers in one packed cell. A
 * counter not known to exist carries its mask, from which the region starts it if the take
 * creates it. A writer that stops between taking a number and writing its row leaves a gap no
 * search can trip on. Numbers are taken for the rows being written, never reserved ahead: a
 * reserved number would be covered by searches made before it is used, and its entry then found
 * by their tokens.
 *
 * <p>Values whose index has {@link ValueIndex#hasWriterLanes writer lanes} (stored format 6) take
 * nothing: this writer numbers their entries in lanes of its own ({@link WriterLanes}), and writes
 * each lane's count as a plain cell (row {@code name || lane id}, masked count, timestamps growing
 * with the count, so the highest count stays whichever write lands last). The cells of a batch are sent
 * while its rows are encoded, and {@link #releaseTaken} waits for them, so a batch's rows reach
 * HBase only after their counts; a bulk load keeps them instead ({@link #takeAheadForBulkLoad}) and
 * loads them as files before its rows, and so does a single put, whose region writes them before
 * its row. A search reads every
 * lane of a value with one scan of its counter name as prefix.
 *
 * <p>Values whose index has {@link ValueIndex#hasCountLogs count logs} (stored format 7) are
 * numbered in lanes the same way, but a batch writes the counts of all its lanes as one cell
 * ({@link CountLogCells}) in a row of its own (a random batch id, with a prefix per writer), instead
 * of a row per lane. The counter regions index their log cells in memory, and a search asks every
 * counter region at once for the lanes of its values ({@link LaneCountRequest}); of a lane logged
 * more than once it takes the count with the highest stamp. Thread-safe.
 */
public class SearchCounters {
  static final byte[] QUALIFIER = Bytes.toBytes("sse");
  private static final int REMEMBERED_COUNTERS = 1 << 16;
  private static final int MAX_TAKERS = 32;

  private final Connection connection;
  private final CounterTable counterTable;
  /** Sends the takes of a batch to its counter regions at once; a caller runs what no idle thread takes. */
  private final ExecutorService takers = new ThreadPoolExecutor(0, MAX_TAKERS, 30, TimeUnit.SECONDS,
      new SynchronousQueue<>(), SearchCounters::daemon, new ThreadPoolExecutor.CallerRunsPolicy());
  /**
   * The highest count seen per counter, which also says which counters exist. Counts only grow: a
   * read lower than a count seen before it began, or a take of {@code a} that leaves a counter
   * below that count plus {@code a}, means the counter table went back (restored from an older
   * copy), and entry numbers would be handed out again.
   */
  private final SeenCounts seen = new SeenCounts(REMEMBERED_COUNTERS);
  private final WriterLanes lanes = new WriterLanes();
  /** Draws the row (batch id) of each count log. */
  private final SecureRandom batchIds = new SecureRandom();
  /**
   * The first {@value #LOG_PREFIX_BYTES} bytes of this writer's count-log rows, drawn once, so that
   * its logs share one counter region (a bulk-load round loads one small file of them, not one per
   * region); the other 12 bytes are drawn per batch, so no two batches share a row.
   */
  private final byte[] logPrefix = new byte[LOG_PREFIX_BYTES];
  private static final int LOG_PREFIX_BYTES = 4;
  /** The most records of one log cell (2.9 MB); a larger batch writes several. */
  private static final int LOG_RECORDS = 1 << 16;
  /**
   * The counter regions' start keys as first seen, which a search's lane count requests split the
   * table by. They stay correct after splits and merges: the ranges still cover the whole table,
   * and a range that now spans two regions is answered by both, one after the other.
   */
  private volatile List<byte[]> counterRegionStarts;
  /** The count cells of this thread's batch, in flight until {@link #releaseTaken}. */
  private final ThreadLocal<List<CompletableFuture<Void>>> countsInFlight = ThreadLocal.withInitial(ArrayList::new);
  /** Whether this thread's batch keeps its count cells for {@link #releaseTakenForBulkLoad} instead of writing them. */
  private final ThreadLocal<Boolean> keepingCounts = ThreadLocal.withInitial(() -> false);
  /** The count cells this thread's batch kept. */
  private final ThreadLocal<List<Put>> keptCounts = ThreadLocal.withInitial(ArrayList::new);
  /** Entry numbers taken ahead for the batch this thread is encoding, by counter name: one lookup per entry. */
  private final ThreadLocal<Map<PrfOutput, Ahead>> takenAhead = ThreadLocal.withInitial(HashMap::new);

  /** Numbers {@code [next, end)} of one value taken ahead, in {@code lane} (formats 6 and 7) or under its own counter (null). */
  private static final class Ahead {
    long next;
    final long end;
    final ValueIndex lane;

    Ahead(long next, long end, ValueIndex lane) {
      this.next = next;
      this.end = end;
      this.lane = lane;
    }
  }
  /** The index of each searchable cell of the batch this thread is encoding, derived once for both steps. */
  private final ThreadLocal<Map<Cell, ValueIndex>> indexedAhead = ThreadLocal.withInitial(IdentityHashMap::new);

  SearchCounters(Connection connection, CounterTable counterTable) {
    this.connection = connection;
    this.counterTable = counterTable;
    batchIds.nextBytes(logPrefix);
  }

  /** The name of the counter table, for messages. */
  TableName counterTableName() {
    return counterTable.table();
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "cryptoworker-counter-take");
    t.setDaemon(true);
    return t;
  }

  /** Counters for codecs that only read and never search (tests, tools): every call fails. */
  static SearchCounters unavailable(String table) {
    return new SearchCounters(null, null) {
      @Override
      public byte[] nextEntryKey(ValueIndex index) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for searchable columns");
      }

      @Override
      public void takeAhead(Map<Cell, ValueIndex> indexes) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for searchable columns");
      }

      @Override
      List<List<byte[]>> searchTokens(List<ValueIndex> indexes) throws IOException {
        throw new IOException("table " + table + ": no counter table configured for searchable columns");
      }
    };
  }

  /**
   * The key of the next entry of {@code index}'s value: one numbered ahead by {@link #takeAhead} on
   * this thread if there is one left; else numbered in this writer's lane, its count cell written
   * before this returns (format 6); else taken from HBase.
   */
  public byte[] nextEntryKey(ValueIndex index) throws IOException {
    Ahead ahead = takenAhead.get().get(index.counterKey());
    if (ahead != null && ahead.next < ahead.end) {
      if (index.hasWriterLanes() != (ahead.lane != null)) {
        throw new IllegalStateException("an entry number taken ahead outside the value's writer lane");
      }
      return (ahead.lane == null ? index : ahead.lane).entryKey(ahead.next++);
    }
    if (index.hasWriterLanes()) {
      WriterLanes.Numbered n = lanes.number(index, 1);
      writeCounts(countCells(List.of(index), List.of(n)));
      return n.lane().entryKey(n.first());
    }
    return index.entryKey(index.entryNumber(take(List.of(index), List.of(1))[0]));
  }

  /**
   * Takes, in one round trip per counter region, one entry number per searchable cell of a batch
   * ({@code indexes}: each cell's value index), for this thread's next {@link #nextEntryKey} calls,
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
    Map<PrfOutput, Ahead> ahead = takenAhead.get();
    long laned = distinct.stream().filter(ValueIndex::hasWriterLanes).count();
    if (laned != 0 && laned != distinct.size()) {
      throw new IllegalArgumentException("one batch mixes indexes with and without writer lanes");
    }
    if (laned != 0) {
      numberInLanes(distinct, amounts, ahead);
      return;
    }
    long[] stored = take(distinct, amounts);
    for (int i = 0; i < distinct.size(); i++) {
      long last = distinct.get(i).entryNumber(stored[i]);
      // The batch's cells of one value share one take, so its numbers are one run.
      ahead.put(distinct.get(i).counterKey(), new Ahead(last - amounts.get(i) + 1, last + 1, null));
    }
  }

  /**
   * As {@link #takeAhead}, for a bulk load that stores the batch's count cells itself, before its
   * rows: they are kept for {@link #releaseTakenForBulkLoad} instead of written.
   */
  public void takeAheadForBulkLoad(Map<Cell, ValueIndex> indexes) throws IOException {
    keepingCounts.set(true);
    try {
      takeAhead(indexes);
    } finally {
      keepingCounts.set(false);
    }
  }

  /**
   * Ends a batch begun with {@link #takeAheadForBulkLoad}: drops what {@link #releaseTaken} drops
   * and returns the batch's count cells (rows of the counter table, empty for indexes without
   * writer lanes, whose takes the counter table has already applied).
   */
  public List<Put> releaseTakenForBulkLoad() {
    List<Put> kept = new ArrayList<>(keptCounts.get());
    List<CompletableFuture<Void>> inFlight = dropTaken();
    if (!inFlight.isEmpty()) {
      throw new IllegalStateException("count cells of a bulk-load batch were sent, not kept: the batch was not begun"
          + " with takeAheadForBulkLoad");
    }
    return kept;
  }

  /** The counter table, on the connection this writes it with (the caller closes it). */
  Table counterTable() throws IOException {
    return connection.getTable(counterTable.table());
  }

  /** The index {@link #takeAhead} derived for {@code cell} (the same object) on this thread, or null. */
  public ValueIndex indexTakenFor(Cell cell) {
    return indexedAhead.get().get(cell);
  }

  /**
   * Numbers the entries of {@code values} (distinct, with writer lanes) in this writer's lanes and
   * sends their count cells, which {@link #releaseTaken} waits for.
   */
  private void numberInLanes(List<ValueIndex> values, List<Integer> amounts, Map<PrfOutput, Ahead> ahead) {
    List<WriterLanes.Numbered> numbered = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      ValueIndex value = values.get(i);
      WriterLanes.Numbered n = lanes.number(value, amounts.get(i));
      ahead.put(value.counterKey(), new Ahead(n.first(), n.count(), n.lane()));
      numbered.add(n);
    }
    List<Put> cells = countCells(values, numbered);
    if (keepingCounts.get()) {
      keptCounts.get().addAll(cells);
      return;
    }
    countsInFlight.get().add(CompletableFuture.runAsync(() -> {
      try {
        writeCounts(cells);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, takers));
  }

  /**
   * The cells that say how many entries each lane of {@code numbered} (of {@code values}, in order)
   * has: a row per lane of values without count logs, and one log cell for those with.
   */
  private List<Put> countCells(List<ValueIndex> values, List<WriterLanes.Numbered> numbered) {
    List<Put> cells = new ArrayList<>(1);
    List<CountLogCells.LaneCount> logged = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      WriterLanes.Numbered n = numbered.get(i);
      long masked = n.lane().initialCounter() + n.count();
      if (values.get(i).hasCountLogs()) {
        byte[] laneRow = n.lane().counterName();
        logged.add(new CountLogCells.LaneCount(values.get(i).counterName(),
            Arrays.copyOfRange(laneRow, laneRow.length - ValueIndex.LANE_ID_BYTES, laneRow.length), n.stamp(), masked));
      } else {
        cells.add(new Put(n.lane().counterName()).addColumn(counterTable.family(), QUALIFIER, n.stamp(),
            Bytes.toBytes(masked)));
      }
    }
    for (int from = 0; from < logged.size(); from += LOG_RECORDS) {
      byte[] batchId = new byte[CountLogCells.NAME_BYTES];
      batchIds.nextBytes(batchId);
      System.arraycopy(logPrefix, 0, batchId, 0, LOG_PREFIX_BYTES);
      cells.add(new Put(batchId).addColumn(counterTable.family(), CountLogCells.QUALIFIER,
          CountLogCells.encode(logged.subList(from, Math.min(logged.size(), from + LOG_RECORDS)))));
    }
    return cells;
  }

  private void writeCounts(List<Put> cells) throws IOException {
    try (Table counters = connection.getTable(counterTable.table())) {
      counters.put(cells);
    }
  }

  /**
   * Drops this thread's numbers taken ahead and not used, and the indexes derived with them, and
   * waits for the batch's count cells (format 6).
   *
   * @throws IOException if a count cell was not written: the batch's rows, if sent, are not found
   *     by searches until written again
   */
  public void releaseTaken() throws IOException {
    List<CompletableFuture<Void>> waiting = dropTaken();
    if (waiting.isEmpty()) {
      return;
    }
    try {
      awaitAll(waiting, "interrupted while writing search-index entry counts");
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      throw new IOException(countsNotWritten() + ": rows of this batch that were written are not found by searches"
          + " until written again", e);
    }
  }

  private String countsNotWritten() {
    return "search-index entry counts were not written to " + counterTable.table();
  }

  /** Clears this thread's batch and hands over its count cells in flight. */
  private List<CompletableFuture<Void>> dropTaken() {
    takenAhead.get().clear();
    indexedAhead.get().clear();
    keptCounts.get().clear();
    List<CompletableFuture<Void>> inFlight = countsInFlight.get();
    List<CompletableFuture<Void>> waiting = new ArrayList<>(inFlight);
    inFlight.clear();
    return waiting;
  }

  /**
   * Adds {@code amounts} to the counters of {@code indexes} (distinct counters) and returns each
   * counter's stored value after its take. One {@link CounterTakeRequest} per counter region, all
   * regions at once, each applied by its region in one batch; a counter not known to exist carries
   * its initial value (its mask), from which the region starts it if the take creates it.
   */
  private long[] take(List<ValueIndex> indexes, List<Integer> amounts) throws IOException {
    long[] before = new long[indexes.size()];
    for (int i = 0; i < indexes.size(); i++) {
      before[i] = seen(indexes.get(i));
    }
    long[] stored = new long[indexes.size()];
    boolean[] answered = new boolean[indexes.size()];
    List<Future<?>> pending = new ArrayList<>();
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
          new CounterTakeRequest(counterTable.family(), QUALIFIER, takes, true)));
      pending.add(takers.submit(() -> {
        takeIn(scan, group, stored, answered);
        return null;
      }));
    }
    // Every region is waited for even after one fails, so which numbers a failed batch took does
    // not depend on the order of its regions.
    awaitAll(pending, "interrupted while taking search-index entries");
    for (int i = 0; i < indexes.size(); i++) {
      if (!answered[i]) {
        throw new IOException("the counter table " + counterTable.table() + " did not answer a search-index"
            + " entry take: its regions need the observer " + counterTable.regionObserver());
      }
    }
    for (int i = 0; i < indexes.size(); i++) {
      observed(indexes.get(i), stored[i], before[i] == SeenCounts.UNSEEN ? before[i] : before[i] + amounts.get(i));
    }
    return stored;
  }

  /**
   * Waits for every one of {@code pending}, even after one fails, then throws the first failure (an
   * IOException as it is, anything else wrapped in one).
   */
  private static void awaitAll(List<? extends Future<?>> pending, String interrupted) throws IOException {
    IOException failed = null;
    for (Future<?> f : pending) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed = failed == null ? new InterruptedIOException(interrupted) : failed;
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
        failed = failed == null ? (cause instanceof IOException io ? io : new IOException(cause)) : failed;
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /** Sends one region's takes ({@code scan}) and records the answers of the takes at {@code group}'s positions. */
  private void takeIn(Scan scan, List<Integer> group, long[] stored, boolean[] answered) throws IOException {
    try (Table counters = connection.getTable(counterTable.table());
        ResultScanner answers = counters.getScanner(scan)) {
      for (Result r = answers.next(); r != null; r = answers.next()) {
        for (Cell c : r.rawCells()) {
          if (!CounterTakeRequest.isAnswer(CellUtil.cloneQualifier(c))) {
            throw notAnswered("entry take", "no take of it", c);
          }
          try {
            CounterTakeRequest.unpackAnswer(CellUtil.cloneValue(c), group.size(), (position, value) -> {
              int i = group.get(position);
              if (answered[i]) {
                throw new IllegalArgumentException("take " + position + " answered twice");
              }
              answered[i] = true;
              stored[i] = value;
            });
          } catch (IllegalArgumentException e) {
            throw new IOException("the counter table " + counterTable.table() + " answered a search-index entry"
                + " take with a malformed answer: " + e.getMessage());
          }
        }
      }
    }
  }

  /** The failure of a {@code request} to the counter table answered with {@code c}, a cell that answers {@code none}. */
  private IOException notAnswered(String request, String none, Cell c) {
    return new IOException("the counter table " + counterTable.table() + " answered a search-index " + request
        + " with a cell that answers " + none + " (row " + Bytes.toStringBinary(CellUtil.cloneRow(c))
        + "): its regions need the observer " + counterTable.regionObserver());
  }

  /** The positions of {@code indexes}, grouped by the counter region that holds each counter. */
  private Collection<List<Integer>> byRegion(List<ValueIndex> indexes) throws IOException {
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    try (RegionLocator locator = connection.getRegionLocator(counterTable.table())) {
      for (int i = 0; i < indexes.size(); i++) {
        String region = locator.getRegionLocation(indexes.get(i).counterName()).getRegion().getEncodedName();
        groups.computeIfAbsent(region, k -> new ArrayList<>()).add(i);
      }
    }
    return groups.values();
  }

  /**
   * The search tokens of each of {@code indexes}: those that reach every entry its value has been
   * given so far, in every writer lane where it has them (format 6).
   */
  List<List<byte[]>> searchTokens(List<ValueIndex> indexes) throws IOException {
    List<ValueIndex> shared = new ArrayList<>();
    List<ValueIndex> laned = new ArrayList<>();
    for (ValueIndex index : indexes) {
      (index.hasWriterLanes() ? laned : shared).add(index);
    }
    List<Long> sharedCounts = shared.isEmpty() ? List.of() : counts(shared);
    Map<ValueIndex, List<byte[]>> laneTokens = laned.isEmpty() ? Map.of() : laneTokens(laned);
    List<List<byte[]>> out = new ArrayList<>(indexes.size());
    int at = 0;
    for (ValueIndex index : indexes) {
      out.add(index.hasWriterLanes() ? laneTokens.get(index) : index.encodedSearchTokens(sharedCounts.get(at++)));
    }
    return out;
  }

  /**
   * The tokens of every lane of each of {@code values}: of values without count logs from one scan
   * of their counter names as prefixes, of those with from the counter regions' logs.
   */
  private Map<ValueIndex, List<byte[]>> laneTokens(List<ValueIndex> values) throws IOException {
    Map<ValueIndex, List<byte[]>> out = new IdentityHashMap<>();
    Map<PrfOutput, List<ValueIndex>> byName = new LinkedHashMap<>();
    for (ValueIndex value : values) {
      out.put(value, new ArrayList<>());
      byName.computeIfAbsent(value.counterKey(), name -> new ArrayList<>()).add(value);
    }
    Map<PrfOutput, Integer> lanesFound = new HashMap<>();
    BiConsumer<byte[], Long> found = (row, stored) -> {
      List<ValueIndex> same = row.length <= ValueIndex.LANE_ID_BYTES ? null
          : byName.get(PrfOutput.copyOf(Arrays.copyOf(row, row.length - ValueIndex.LANE_ID_BYTES)));
      ValueIndex lane = same == null ? null : same.get(0).laneOfCounter(row).orElse(null);
      if (lane == null) {
        return; // a counter whose name only starts with the value's: another value's, or no lane
      }
      List<byte[]> tokens = lane.encodedSearchTokens(lane.count(observed(lane, stored, seen(lane))));
      for (ValueIndex value : same) {
        out.get(value).addAll(tokens);
      }
      lanesFound.merge(same.get(0).counterKey(), 1, Integer::sum);
    };
    List<byte[]> rowNames = new ArrayList<>();
    List<byte[]> loggedNames = new ArrayList<>();
    for (List<ValueIndex> same : byName.values()) {
      (same.get(0).hasCountLogs() ? loggedNames : rowNames).add(same.get(0).counterName());
    }
    if (!rowNames.isEmpty()) {
      laneRows(rowNames, found);
    }
    if (!loggedNames.isEmpty()) {
      loggedLanes(loggedNames, found);
    }
    // A lane gone from the table (restored from before it existed) is missed as silently as a count
    // gone down: each value's number of lanes only grows too.
    for (List<ValueIndex> same : byName.values()) {
      ValueIndex value = same.get(0);
      int lanes = lanesFound.getOrDefault(value.counterKey(), 0);
      long before = seen.highest(value.counterKey());
      if (lanes < before) {
        throw wentBack("at least " + before + " writer lanes", lanes + " writer lanes");
      }
      seen.saw(value.counterKey(), lanes);
    }
    return out;
  }

  /** Hands each lane row under {@code names} (counter names as prefixes) and its stored count to {@code found}. */
  private void laneRows(List<byte[]> names, BiConsumer<byte[], Long> found) throws IOException {
    List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
    for (byte[] prefix : names) {
      ranges.add(new MultiRowRangeFilter.RowRange(prefix, true, afterPrefix(prefix), false));
    }
    ranges.sort((a, b) -> Bytes.compareTo(a.getStartRow(), b.getStartRow()));
    byte[] stop = ranges.get(ranges.size() - 1).getStopRow();
    // Bounded, so the scan opens only the counter regions that can hold the prefixes.
    Scan scan = new Scan().withStartRow(ranges.get(0).getStartRow()).withStopRow(stop, false)
        .addColumn(counterTable.family(), QUALIFIER).setFilter(new MultiRowRangeFilter(ranges))
        .setCacheBlocks(false);
    try (Table counters = connection.getTable(counterTable.table());
        ResultScanner rows = counters.getScanner(scan)) {
      for (Result r = rows.next(); r != null; r = rows.next()) {
        found.accept(r.getRow(), Bytes.toLong(r.getValue(counterTable.family(), QUALIFIER)));
      }
    }
  }

  /**
   * Hands each lane of {@code names} the counter regions have logged, as the row {@code name ||
   * lane id} of format 6, with its highest-stamped count, to {@code found}: one {@link
   * LaneCountRequest} per counter region, all at once.
   */
  private void loggedLanes(List<byte[]> names, BiConsumer<byte[], Long> found) throws IOException {
    byte[] request = RegionRequests.encode(new LaneCountRequest(names));
    List<byte[]> starts = counterRegionStarts();
    List<Future<?>> asked = new ArrayList<>(starts.size());
    List<CountLogCells.LaneCount> answered = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < starts.size(); i++) {
      Scan scan = new Scan().withStartRow(starts.get(i)).setCacheBlocks(false).setAttribute(RegionRequests.ATTRIBUTE, request);
      if (i + 1 < starts.size()) {
        scan.withStopRow(starts.get(i + 1), false);
      }
      asked.add(takers.submit(() -> answered.addAll(laneCountsIn(scan))));
    }
    awaitAll(asked, "interrupted while reading search-index lane counts");
    Map<PrfOutput, CountLogCells.LaneCount> latest = new LinkedHashMap<>();
    for (CountLogCells.LaneCount c : answered) {
      latest.merge(PrfOutput.copyOf(laneRow(c)), c, (a, b) -> b.stamp() > a.stamp() ? b : a);
    }
    latest.forEach((row, c) -> found.accept(row.toByteArray(), c.maskedCount()));
  }

  private static byte[] laneRow(CountLogCells.LaneCount c) {
    byte[] row = Arrays.copyOf(c.name(), c.name().length + c.lane().length);
    System.arraycopy(c.lane(), 0, row, c.name().length, c.lane().length);
    return row;
  }

  private List<byte[]> counterRegionStarts() throws IOException {
    List<byte[]> starts = counterRegionStarts;
    if (starts == null) {
      try (RegionLocator locator = connection.getRegionLocator(counterTable.table())) {
        starts = List.of(locator.getStartKeys());
      }
      counterRegionStarts = starts;
    }
    return starts;
  }

  /** The lane counts the counter regions of {@code scan}'s range answered it with (each region answers once). */
  private List<CountLogCells.LaneCount> laneCountsIn(Scan scan) throws IOException {
    List<CountLogCells.LaneCount> out = new ArrayList<>();
    int answers = 0;
    try (Table counters = connection.getTable(counterTable.table());
        ResultScanner rows = counters.getScanner(scan)) {
      for (Result r = rows.next(); r != null; r = rows.next()) {
        for (Cell c : r.rawCells()) {
          if (!Arrays.equals(CellUtil.cloneQualifier(c), LaneCountRequest.ANSWER_QUALIFIER)) {
            throw notAnswered("lane count request", "none", c);
          }
          try {
            out.addAll(CountLogCells.decode(CellUtil.cloneValue(c)));
          } catch (IllegalArgumentException e) {
            throw new IOException("the counter table " + counterTable.table() + " answered a search-index lane count"
                + " request with a malformed answer: " + e.getMessage());
          }
          answers++;
        }
      }
    }
    if (answers == 0) {
      throw new IOException("the counter table " + counterTable.table() + " did not answer a search-index lane count"
          + " request from rows " + Bytes.toStringBinary(scan.getStartRow()) + " on: its regions need the observer "
          + counterTable.regionObserver());
    }
    return out;
  }

  /** The first row after every row that starts with {@code prefix} (empty: no end). */
  private static byte[] afterPrefix(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xff) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return new byte[0];
  }

  /** How many entries each value has been given so far (0 for a value never written). */
  private List<Long> counts(List<ValueIndex> indexes) throws IOException {
    List<Get> gets = new ArrayList<>(indexes.size());
    for (ValueIndex index : indexes) {
      gets.add(new Get(index.counterName()).addColumn(counterTable.family(), QUALIFIER));
    }
    List<Long> out = new ArrayList<>(indexes.size());
    long[] before = new long[indexes.size()];
    for (int i = 0; i < indexes.size(); i++) {
      before[i] = seen(indexes.get(i));
    }
    try (Table counters = connection.getTable(counterTable.table())) {
      Result[] results = counters.get(gets);
      for (int i = 0; i < results.length; i++) {
        byte[] v = results[i].getValue(counterTable.family(), QUALIFIER);
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

  private IllegalStateException wentBack(ValueIndex index, long least, String now) {
    return wentBack("at least " + least + " entries", now);
  }

  private IllegalStateException wentBack(String should, String now) {
    return new IllegalStateException("a search-index entry counter in " + counterTable.table() + " went back (it should"
        + " hold " + should + ", now " + now + "): the counter table was restored from an older copy. Writes would reuse entry"
        + " keys and earlier rows would drop out of searches; refused. Restore the counter table together with the"
        + " data tables from one snapshot (docs/operations.md: Restoring the counter table)");
  }
}
