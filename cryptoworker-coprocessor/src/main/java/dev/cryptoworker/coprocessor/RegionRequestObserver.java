package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.AggregationRequest;
import dev.cryptoworker.region.CountLogCells;
import dev.cryptoworker.region.CounterTakeRequest;
import dev.cryptoworker.region.IndexUpkeepRequest;
import dev.cryptoworker.region.LaneCountRequest;
import dev.cryptoworker.region.RegionRequest;
import dev.cryptoworker.region.RegionRequests;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.region.SearchRequest;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.RegionTooBusyException;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFile;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.hadoop.hbase.wal.WALEdit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Process step of CryptoWorker: a region observer that answers a Scan carrying a region
 * request ({@link RegionRequests#ATTRIBUTE}) with the request's result for that region, so one
 * small result per region crosses the network; regions answer in parallel when the client scans
 * them in parallel. Scans without the attribute are untouched.
 *
 * <p>One observer, one handler per {@link RegionRequest.Kind}: ASHE aggregation, and row selection
 * through the encrypted search index ({@link RegionRequests#SEARCH_ATTRIBUTE}), which composes with
 * aggregation. A new kind of region-side work is a new request type and one more case in {@link
 * #open}. Keyless by construction: handlers see only stored bytes and the request; the module holds
 * no key and no code that encrypts or decrypts. Protobuf-free (a scan attribute instead of an
 * endpoint), so the same jar loads whatever protobuf the region server has. A region answers in
 * one RPC: keep regions to sizes HBase scans within its RPC timeout (millions of rows per minute).
 *
 * <p>On the counter table, a {@link CounterTakeRequest} adds to many counters in one batch ({@link
 * CounterTakingRegionScanner}), from the region's counters in memory ({@link RegionCounters}); on
 * a table with the attribute {@link CountLogCells#TABLE_ATTRIBUTE} (the counter table), each region
 * indexes its count logs ({@link RegionCountLogs}) and answers a {@link LaneCountRequest} from them.
 *
 * <p>For tables with the attribute {@link SearchIndexCells#TABLE_ATTRIBUTE}, each region keeps a
 * {@link RegionSearchIndex}: built when the region opens (before it takes writes), extended after
 * every batch of writes.
 *
 * <p>Register it with {@code TableDescriptorBuilder.setCoprocessor(RegionRequestObserver.class
 * .getName())} (CryptoWorker's {@code SecureConnection.createTable} does, for schemas that need
 * region-side work).
 */
public class RegionRequestObserver implements RegionCoprocessor, RegionObserver {
  private static final Logger LOG = LoggerFactory.getLogger(RegionRequestObserver.class);
  private volatile boolean searchable;
  private volatile CountCellsWriter countCellsFirst;
  private volatile RegionSearchIndex searchIndex;
  /** Compacts search indexes after major compactions, one region at a time per region server. */
  private static final ExecutorService INDEX_UPKEEP = backgroundThread("cryptoworker-search-index-upkeep");
  private final AtomicBoolean upkeepScheduled = new AtomicBoolean();
  /** The counters of this region, once it has answered a counter take (only the counter table's regions do). */
  private volatile RegionCounters counters;
  private volatile boolean logsCounts;
  private volatile RegionCountLogs countLogs;
  /** Compacts count logs out of memory ({@link RegionCountLogs#compact}), one region at a time per region server. */
  private static final ExecutorService COUNT_LOG_COMPACTION = backgroundThread("cryptoworker-count-log-compaction");
  private final AtomicBoolean compactionScheduled = new AtomicBoolean();
  /** Lanes a region holds before it compacts its count logs ({@value RegionCountLogs#COMPACT_LANES_KEY}, else the budget's default). */
  private volatile long compactLanes;
  /** The heap share of this region server's count logs, set by the first counter region to start here. */
  private static volatile RegionCountLogs.LaneBudget laneBudget;

  /** One daemon thread that runs background work in order. */
  private static ExecutorService backgroundThread(String name) {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Sets this server's lane budget once, from {@code share} (the configured value, or null for the
   * default); a share that is no number in range is logged and the default taken, rather than fail
   * the region.
   */
  private static synchronized void laneBudget(String share) {
    if (laneBudget != null) {
      return;
    }
    try {
      laneBudget = new RegionCountLogs.LaneBudget(Runtime.getRuntime().maxMemory(),
          share == null ? RegionCountLogs.DEFAULT_HEAP_SHARE : Double.parseDouble(share.trim()));
    } catch (IllegalArgumentException e) {
      LOG.error("{} is a share of the heap above 0 and at most 1, not '{}'; taking the default, {}",
          RegionCountLogs.HEAP_SHARE_KEY, share, RegionCountLogs.DEFAULT_HEAP_SHARE);
      laneBudget = new RegionCountLogs.LaneBudget(Runtime.getRuntime().maxMemory(), RegionCountLogs.DEFAULT_HEAP_SHARE);
    }
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  @SuppressWarnings("rawtypes") // HBase's Coprocessor.start declares the raw type
  public void start(CoprocessorEnvironment env) {
    if (env instanceof RegionCoprocessorEnvironment) {
      RegionCoprocessorEnvironment region = (RegionCoprocessorEnvironment) env;
      countCellsFirst = new CountCellsWriter(region);
      searchable = Boolean.parseBoolean(region.getRegion().getTableDescriptor().getValue(SearchIndexCells.TABLE_ATTRIBUTE));
      logsCounts = Boolean.parseBoolean(region.getRegion().getTableDescriptor().getValue(CountLogCells.TABLE_ATTRIBUTE));
      if (logsCounts) {
        laneBudget(env.getConfiguration().get(RegionCountLogs.HEAP_SHARE_KEY));
        compactLanes = env.getConfiguration().getLong(RegionCountLogs.COMPACT_LANES_KEY, laneBudget.defaultCompactLanes());
      }
    }
  }

  @Override
  public void postOpen(ObserverContext<RegionCoprocessorEnvironment> ctx) {
    if (logsCounts) {
      try {
        RegionCoprocessorEnvironment env = ctx.getEnvironment();
        countLogs = RegionCountLogs.build(env.getRegion(), laneBudget, compactLanes, () -> compactCountLogs(env));
      } catch (IOException | RuntimeException e) {
        // Lane count requests on this region are refused (see countLogs()) rather than answered incompletely.
        LOG.error("Region {}: cannot read its count logs; searches of stored format 7 will be refused",
            ctx.getEnvironment().getRegionInfo().getRegionNameAsString(), e);
        countLogs = null;
      }
    }
    if (searchable) {
      try {
        Region region = ctx.getEnvironment().getRegion();
        Optional<RegionSearchIndex> inherited = ClosedRegionIndexes.SERVER.inherited(region);
        searchIndex = inherited.isPresent() ? inherited.get() : RegionSearchIndex.build(region);
      } catch (IOException e) {
        // Searches on this region are refused (see searchIndex()) rather than answered incompletely.
        LOG.error("Region {}: cannot read its search index cells; searches on it will be refused",
            ctx.getEnvironment().getRegionInfo().getRegionNameAsString(), e);
        searchIndex = null;
      }
    }
  }

  /** Compacts the region's count logs soon, on the compaction thread, unless that is already asked for. */
  private void compactCountLogs(RegionCoprocessorEnvironment env) {
    if (!compactionScheduled.compareAndSet(false, true)) {
      return;
    }
    COUNT_LOG_COMPACTION.execute(() -> {
      compactionScheduled.set(false);
      RegionCountLogs logs = countLogs;
      if (logs == null) {
        return;
      }
      try {
        logs.compact();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Region {}: compacting its count logs failed; their lanes stay in memory until the next compaction",
            env.getRegionInfo().getRegionNameAsString(), e);
      }
    });
  }

  /** Keeps the region's search index for the regions a split or merge makes of it ({@link ClosedRegionIndexes}). */
  @Override
  public void postClose(ObserverContext<RegionCoprocessorEnvironment> ctx, boolean abortRequested) {
    RegionCountLogs logs = countLogs;
    if (logs != null) {
      countLogs = null;
      logs.release();
    }
    RegionSearchIndex index = searchIndex;
    if (index != null && !abortRequested) {
      ClosedRegionIndexes.SERVER.keep(ctx.getEnvironment().getRegion(), index);
    }
  }

  /**
   * Writes the count cells a put carries before its row ({@link CountCellsWriter}); before the row's
   * locks are taken and its families checked, so the carrying family never reaches the region.
   */
  @Override
  public void prePut(ObserverContext<RegionCoprocessorEnvironment> ctx, Put put, WALEdit edit) throws IOException {
    countCellsFirst.writeFirst(put);
  }

  /** Gives the Puts of counter takes their values, under their row locks ({@link RegionCounters#apply}). */
  @Override
  public void preBatchMutate(
      ObserverContext<RegionCoprocessorEnvironment> ctx, MiniBatchOperationInProgress<Mutation> batch)
      throws IOException {
    RegionCounters taken = counters;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.getOperation(i);
      if (logsCounts && m instanceof Put) {
        checkCountLogs(ctx, m, countLogs);
      }
      if (m.getAttribute(RegionCounters.TAKE_ATTRIBUTE) != null) {
        if (taken == null) {
          // Only a take's own batch carries the attribute: never write its placeholder value.
          throw new DoNotRetryIOException("refused write to region " + ctx.getEnvironment().getRegionInfo()
              .getRegionNameAsString() + ": the attribute " + RegionCounters.TAKE_ATTRIBUTE
              + " belongs on the Puts of counter takes, which this region has not answered");
        }
        taken.apply(m);
      }
    }
  }

  /**
   * Refuses a Put with a malformed log cell, so that no region ever fails to index its logs, and
   * one whose lanes would not fit this server's share of heap for them ({@code logs}' budget).
   */
  private static void checkCountLogs(ObserverContext<RegionCoprocessorEnvironment> ctx, Mutation put,
      RegionCountLogs logs) throws IOException {
    for (List<Cell> cells : put.getFamilyCellMap().values()) {
      for (Cell cell : cells) {
        if (RegionCountLogs.isLogCell(cell)) {
          int records;
          try {
            records = RegionCountLogs.check(cell);
          } catch (IllegalArgumentException e) {
            throw new DoNotRetryIOException("refused write to region " + ctx.getEnvironment().getRegionInfo()
                .getRegionNameAsString() + ": a malformed count log: " + e.getMessage());
          }
          if (logs != null && !logs.admits(records) && logs.admitsAfterCompaction(records)) {
            // as a region refuses writes while its memstore flushes: the client backs off and retries
            throw new RegionTooBusyException("count log for region " + ctx.getEnvironment().getRegionInfo()
                .getRegionNameAsString() + " waits: this region server's count logs hold " + laneBudget.held()
                + " lanes, too many to add " + records + " more (" + laneBudget.describe()
                + "), until their compaction frees some");
          }
          if (logs != null && !logs.admits(records)) {
            throw new DoNotRetryIOException("refused count log for region " + ctx.getEnvironment().getRegionInfo()
                .getRegionNameAsString() + ": this region server's count logs hold " + laneBudget.held()
                + " lanes and the cell may add " + records + ", past the most its heap share allows ("
                + laneBudget.describe() + "). Stored format 7 keeps every"
                + " lane in memory: write large SSE tables in stored format 6, or give the region servers more heap or"
                + " a larger " + RegionCountLogs.HEAP_SHARE_KEY);
          }
        }
      }
    }
  }

  @Override
  public void postBatchMutate(
      ObserverContext<RegionCoprocessorEnvironment> ctx, MiniBatchOperationInProgress<Mutation> batch) {
    RegionCounters taken = counters;
    if (taken != null) {
      for (int i = 0; i < batch.size(); i++) {
        taken.written(batch.getOperation(i));
      }
    }
    RegionCountLogs logs = countLogs;
    if (logs != null) {
      for (int i = 0; i < batch.size(); i++) {
        if (batch.getOperation(i) instanceof Put put) {
          put.getFamilyCellMap().values().forEach(cells -> cells.forEach(logs::add));
        }
      }
    }
    RegionSearchIndex index = searchIndex;
    if (index == null) {
      return;
    }
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.getOperation(i);
      if (m instanceof Put) {
        for (List<Cell> cells : m.getFamilyCellMap().values()) {
          cells.forEach(index::add);
        }
      }
    }
  }

  /**
   * Indexes the SSE entries (or, on the counter table, the count logs) of bulk-loaded files. If
   * reading them fails, the region refuses searches or lane count requests (as when its index
   * cannot be built at open) rather than answer without them.
   */
  @Override
  public void postBulkLoadHFile(ObserverContext<RegionCoprocessorEnvironment> ctx,
      List<Pair<byte[], String>> stagingFamilyPaths, Map<byte[], List<Path>> finalPaths) {
    RegionCountLogs logs = countLogs;
    if (logs != null && finalPaths != null) {
      try {
        logs.addLoaded(ctx.getEnvironment().getRegion(), finalPaths);
      } catch (IOException | RuntimeException e) {
        LOG.error("Region {}: cannot read the count logs of bulk-loaded files; lane count requests on it will be refused"
            + " until it reopens", ctx.getEnvironment().getRegionInfo().getRegionNameAsString(), e);
        countLogs = null;
        logs.release();
      }
    }
    RegionSearchIndex index = searchIndex;
    if (index == null || finalPaths == null || finalPaths.isEmpty()) {
      return;
    }
    try {
      index.addLoaded(ctx.getEnvironment().getRegion(), finalPaths);
    } catch (IOException | RuntimeException e) {
      LOG.error("Region {}: cannot read the search index cells of bulk-loaded files; searches on it will be refused"
          + " until it reopens", ctx.getEnvironment().getRegionInfo().getRegionNameAsString(), e);
      searchIndex = null;
    }
  }

  /**
   * After a major compaction (HBase's own, scheduled or asked for with {@code major_compact}),
   * compacts the region's search index too, in the background ({@link RegionSearchIndex#compact}).
   */
  @Override
  public void postCompact(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store, StoreFile resultFile,
      CompactionLifeCycleTracker tracker, CompactionRequest request) {
    RegionSearchIndex index = searchIndex;
    if (index == null || !request.isMajor() || !upkeepScheduled.compareAndSet(false, true)) {
      return;
    }
    Region region = ctx.getEnvironment().getRegion();
    INDEX_UPKEEP.execute(() -> {
      upkeepScheduled.set(false);
      try {
        IndexUpkeepRequest.Answer a = index.compact(region);
        LOG.debug("Region {}: search index compacted from {} to {} entries", region.getRegionInfo().getEncodedName(),
            a.entriesBefore(), a.entriesAfter());
      } catch (IOException | RuntimeException e) {
        LOG.warn("Region {}: compacting its search index failed; it stays as it was",
            region.getRegionInfo().getRegionNameAsString(), e);
      }
    });
  }

  @Override
  public RegionScanner postScannerOpen(
      ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan, RegionScanner scanner) throws IOException {
    byte[] search = scan.getAttribute(RegionRequests.SEARCH_ATTRIBUTE);
    byte[] request = scan.getAttribute(RegionRequests.ATTRIBUTE);
    byte[] legacy = scan.getAttribute(RegionRequests.LEGACY_AGGREGATION_ATTRIBUTE);
    if (search == null && request == null && legacy == null) {
      return scanner;
    }
    RegionScanner rows = scanner;
    try {
      RegionRequest decoded = request == null ? null : RegionRequests.decode(request);
      if (decoded instanceof IndexUpkeepRequest upkeep) {
        Region region = ctx.getEnvironment().getRegion();
        RegionSearchIndex index = searchIndex(region);
        IndexUpkeepRequest.Answer answer = upkeep.compact() ? index.compact(region)
            : new IndexUpkeepRequest.Answer(index.size(), index.size(), 0, 0);
        return AnsweringRegionScanner.answering(scanner, "an index upkeep cannot reseek", region.getRegionInfo(),
            IndexUpkeepRequest.ANSWER_QUALIFIER, answer.toBytes());
      }
      if (decoded instanceof LaneCountRequest lanes) {
        if (search != null) {
          throw new IllegalArgumentException("a lane count request cannot select rows through the search index");
        }
        Region region = ctx.getEnvironment().getRegion();
        return AnsweringRegionScanner.answering(scanner, "a lane count request cannot reseek", region.getRegionInfo(),
            LaneCountRequest.ANSWER_QUALIFIER, countLogs(region).answer(lanes.names()));
      }
      if (decoded instanceof CounterTakeRequest take) {
        if (search != null) {
          throw new IllegalArgumentException("a counter take cannot select rows through the search index");
        }
        Region region = ctx.getEnvironment().getRegion();
        return CounterTakingRegionScanner.open(counters(region), region.getRegionInfo(), scanner, take);
      }
      if (search != null) {
        rows = SearchingRegionScanner.open(ctx.getEnvironment().getRegion(), scanner, scan,
            (SearchRequest) parse(search, RegionRequest.Kind.SEARCH), searchIndex(ctx.getEnvironment().getRegion()));
      }
      if (request == null && legacy == null) {
        return rows;
      }
      return open(rows, decoded != null ? decoded : AggregationRequest.parse(legacy));
    } catch (IllegalArgumentException e) {
      rows.close();
      throw new DoNotRetryIOException("refused region request: " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      rows.close();
      throw e;
    }
  }

  private RegionCounters counters(Region region) {
    RegionCounters c = counters;
    if (c == null) {
      synchronized (this) {
        c = counters;
        if (c == null) {
          c = new RegionCounters(region);
          counters = c;
        }
      }
    }
    return c;
  }

  private RegionCountLogs countLogs(Region region) throws DoNotRetryIOException {
    return held(countLogs, region, "count logs", "log cells", logsCounts, CountLogCells.TABLE_ATTRIBUTE,
        "which CryptoWorker sets on its counter table");
  }

  private static RegionRequest parse(byte[] attribute, RegionRequest.Kind expected) {
    RegionRequest r = RegionRequests.decode(attribute);
    if (r.kind() != expected) {
      throw new IllegalArgumentException("a " + r.kind() + " request in the attribute for " + expected);
    }
    return r;
  }

  private RegionSearchIndex searchIndex(Region region) throws DoNotRetryIOException {
    return held(searchIndex, region, "search index", "index cells", searchable, SearchIndexCells.TABLE_ATTRIBUTE,
        "which CryptoWorker's createTable sets for schemas with SSE columns");
  }

  /**
   * {@code held}, a structure the region builds from its cells when it opens ({@code what}, from
   * its {@code cells}) if the table has {@code attribute}.
   *
   * @throws DoNotRetryIOException if the region has none, saying why
   */
  private static <T> T held(T held, Region region, String what, String cells, boolean enabled, String attribute,
      String whoSets) throws DoNotRetryIOException {
    if (held == null) {
      throw new DoNotRetryIOException("region " + region.getRegionInfo().getRegionNameAsString() + " has no " + what
          + ": " + (enabled
              ? "reading its " + cells + " failed when it opened or after a bulk load (see the region server log;"
                  + " reopen the region)"
              : "the table lacks the attribute " + attribute + "=true, " + whoSets));
    }
    return held;
  }

  /** The scanner that answers {@code request} over the rows {@code scanner} selects. */
  static RegionScanner open(RegionScanner scanner, RegionRequest request) {
    switch (request.kind()) {
      case AGGREGATE:
        return new AggregatingRegionScanner(scanner, new RegionAggregator((AggregationRequest) request));
      default:
        throw new IllegalArgumentException("no handler for region request kind " + request.kind()
            + " in this attribute");
    }
  }
}
