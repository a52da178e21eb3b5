package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CountLogCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.security.EncryptionUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One counter-table region's count logs (stored format 7, {@link CountLogCells}), indexed in
 * memory: counter name to the highest-stamped count of each of its lanes the region's log cells
 * hold. Built when the region opens from the log cells it holds (a split's or merge's new regions
 * from their own cells), extended by every write and bulk load.
 *
 * <p>Held in an {@link EntryTable}, no object per lane: a name's lanes are one row of {@value
 * CountLogCells#LANE_RECORD_BYTES}-byte records ({@code lane id || stamp || masked count}), in
 * chunks of {@value #LANES_PER_CHUNK} lanes keyed by the name and the chunk's number. About 80 to
 * 130 bytes of heap per lane.
 *
 * <p><b>Compaction</b> keeps that memory bounded ({@link #compact}): once the region holds {@link
 * #compactLanes} lanes, or its server's count logs fill half their share of the heap ({@link
 * LaneBudget}; {@value #HEAP_SHARE_KEY}, default {@value #DEFAULT_HEAP_SHARE}), the lanes logged so
 * far are moved into this region's {@link CountLogCells#LANE_FAMILY}: a row {@code anchor || name},
 * a cell per lane (qualifier the lane id, the stamp as timestamp, the masked count as value),
 * sorted into a store file that the region bulk loads (no memstore; one write-ahead-log marker per
 * file instead of an edit per lane). Then their
 * log cells are deleted and their memory freed. Until then they are held and answered as before;
 * an answer reads memory first and the compacted rows after, so it finds every lane.
 * Keyless: names, lane ids and masked counts are pseudorandom to the region server.
 */
final class RegionCountLogs {
  private static final Logger LOG = LoggerFactory.getLogger(RegionCountLogs.class);
  /** Lanes per chunk: 57,344 bytes, under the entry table's row limit. */
  static final int LANES_PER_CHUNK = 2048;
  private static final int LANE_ID = 0;
  private static final int STAMP = CountLogCells.LANE_BYTES;

  /** Heap one lane takes, at most (a slot of 36 bytes at 35% use, the record, arena slack). */
  static final long BYTES_PER_LANE = 160;
  /** The configuration key of the share of a region server's heap its count logs may hold. */
  static final String HEAP_SHARE_KEY = "cryptoworker.count-logs.heap-share";
  static final double DEFAULT_HEAP_SHARE = 0.25;
  /** The configuration key of the lanes a region holds before it compacts its logs (default {@link LaneBudget#defaultCompactLanes}). */
  static final String COMPACT_LANES_KEY = "cryptoworker.count-logs.compact-lanes";

  /** This region, or null for logs that never compact (tests). */
  private final Region region;
  /** Anchors of the compacted lanes this region holds (normally one; a merge leaves its parents'). */
  private final List<byte[]> anchors = new CopyOnWriteArrayList<>();
  /** Lanes logged since the last compaction began. */
  private volatile Generation active = new Generation();
  /** Lanes being compacted (or whose compaction failed and is retried), answered until their rows are written. */
  private volatile Generation compacting;
  private final LaneBudget budget;
  private final long compactLanes;
  private final Runnable requestCompaction;
  private boolean compactionRunning;
  private boolean released;

  /** One generation of lanes, with how many it holds. */
  private static final class Generation {
    final EntryTable lanes = new EntryTable();
    final AtomicLong held = new AtomicLong();
  }

  /**
   * @param compactLanes lanes logged since the last compaction at which the region compacts
   * @param requestCompaction asks for {@link #compact} to run soon, on another thread; called
   *     whenever this region should compact (also when its server's budget is half used)
   */
  RegionCountLogs(Region region, LaneBudget budget, long compactLanes, Runnable requestCompaction) {
    this.region = region;
    this.budget = budget;
    this.compactLanes = compactLanes;
    this.requestCompaction = requestCompaction;
    budget.register(this);
  }

  /** Logs that never compact (tests). */
  RegionCountLogs(LaneBudget budget) {
    this(null, budget, Long.MAX_VALUE, () -> {});
  }

  /**
   * Reads every log cell of {@code region} (call before the region takes writes).
   *
   * @throws IOException if the cells cannot be read, or hold more lanes than {@code budget} has left
   *     (then none is held)
   */
  static RegionCountLogs build(Region region, LaneBudget budget, long compactLanes, Runnable requestCompaction)
      throws IOException {
    RegionCountLogs logs = new RegionCountLogs(region, budget, compactLanes, requestCompaction);
    try {
      logs.anchors.addAll(anchorsIn(region));
      RegionCells.forEach(region, logCellsOf(region), cell -> {
        logs.add(cell);
        if (budget.exceeded()) {
          throw new IOException("the count logs hold more lanes than " + budget.describe());
        }
      });
    } catch (IOException | RuntimeException e) {
      logs.release();
      throw e;
    }
    return logs;
  }

  /**
   * The lanes the count logs of all regions of one region server hold, against a share of its heap:
   * format 7 holds lanes in memory until their region compacts, so a server holds back log cells
   * beyond the share (and has its regions compact) rather than run out of heap.
   */
  static final class LaneBudget {
    private final AtomicLong held = new AtomicLong();
    private final long limit;
    private final String share;

    /** The count logs of the server's open regions, which budget pressure asks to compact. */
    private final Set<RegionCountLogs> open = ConcurrentHashMap.newKeySet();

    LaneBudget(long maxHeapBytes, double share) {
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException(HEAP_SHARE_KEY + " is a share of the heap above 0 and at most 1, not " + share);
      }
      this.limit = (long) (maxHeapBytes * share) / BYTES_PER_LANE;
      this.share = HEAP_SHARE_KEY + "=" + share + " of " + (maxHeapBytes >> 20) + " MB of heap, at " + BYTES_PER_LANE
          + " bytes per lane: " + limit + " lanes";
    }

    /** Whether {@code lanes} more fit. */
    boolean admits(long lanes) {
      return held.get() + lanes <= limit;
    }

    boolean exceeded() {
      return held.get() > limit;
    }

    /** Whether the logs hold half the lanes the share allows: then every region holding lanes compacts. */
    boolean halfUsed() {
      return held.get() >= limit / 2;
    }

    /** The lanes one region holds before it compacts, unless configured: a 64th of the budget, at least 1024. */
    long defaultCompactLanes() {
      return Math.max(1024, limit / 64);
    }

    void register(RegionCountLogs logs) {
      open.add(logs);
    }

    void unregister(RegionCountLogs logs) {
      open.remove(logs);
    }

    /** Asks every region of the server that holds lanes to compact; returns whether any can. */
    boolean compactAll() {
      boolean any = false;
      for (RegionCountLogs logs : open) {
        if ((logs.active.held.get() > 0 || logs.compacting != null) && logs.canCompact()) {
          logs.requestCompaction.run();
          any = true;
        }
      }
      return any;
    }

    long held() {
      return held.get();
    }

    String describe() {
      return share;
    }
  }

  /** Whether a log cell of {@code records} records fits this server's budget (each may be a new lane). */
  boolean admits(int records) {
    return budget.admits(records);
  }

  /**
   * Whether a log cell of {@code records} records that does not fit now could fit once the
   * server's count logs are compacted (which this asks for): the cell is then worth sending again.
   */
  boolean admitsAfterCompaction(int records) {
    return records <= budget.limit && budget.compactAll();
  }

  /** Gives this region's lanes back to the server's budget (the region closed, or failed to build). */
  synchronized void release() {
    released = true;
    budget.unregister(this);
    free(active);
    Generation old = compacting;
    if (old != null) {
      free(old);
    }
  }

  private void free(Generation g) {
    budget.held.addAndGet(-g.held.getAndSet(0));
  }

  /**
   * Moves the lanes logged so far out of memory, into rows of {@link CountLogCells#LANE_FAMILY} in
   * this region: a cell of row {@code anchor || name} for every record of every log cell the
   * region holds, then deletes those log cells, then frees the lanes they were indexed from. Lanes
   * logged meanwhile stay in memory for the next compaction. A record written again is harmless: a
   * lane's cell keeps its highest timestamp, which is the stamp. If it fails, the lanes stay held
   * and answered, and the next compaction starts over. Does nothing if the region cannot compact
   * ({@link #canCompact}).
   */
  void compact() throws IOException {
    byte[] anchor = canCompact() ? laneAnchor(region.getRegionInfo().getStartKey(), region.getRegionInfo().getEndKey())
        : null;
    if (anchor == null) {
      return;
    }
    synchronized (this) {
      if (released || compactionRunning) {
        return;
      }
      compactionRunning = true;
      if (compacting == null) {
        compacting = active; // set first: an answer reads active, then compacting
        active = new Generation();
      }
    }
    try {
      addAnchor(anchor); // before any row: an answer that misses a freed generation finds its rows
      // Writes that indexed their cells in the old generation are visible to the scan below.
      ((HRegion) region).getMVCC().await();
      LaneRows rows = new LaneRows(region, anchor);
      RegionCells.forEach(region, logCellsOf(region), rows::add);
      rows.flush();
      synchronized (this) {
        Generation done = compacting;
        compacting = null;
        if (!released) {
          free(done);
        }
      }
      LOG.debug("Region {}: compacted the count logs of {} lanes ({} log cells)", region.getRegionInfo().getEncodedName(),
          rows.records, rows.cells);
    } finally {
      synchronized (this) {
        compactionRunning = false;
      }
    }
  }

  /**
   * Whether this region can move lanes out of memory: its table has {@link
   * CountLogCells#LANE_FAMILY} (CryptoWorker adds it to the counter table) and the region spans a
   * whole anchor (every region but one narrower than 2^-32 of the key space).
   */
  boolean canCompact() {
    return region != null && region.getTableDescriptor().hasColumnFamily(CountLogCells.LANE_FAMILY)
        && laneAnchor(region.getRegionInfo().getStartKey(), region.getRegionInfo().getEndKey()) != null;
  }

  private synchronized void addAnchor(byte[] anchor) {
    for (byte[] a : anchors) {
      if (Arrays.equals(a, anchor)) {
        return;
      }
    }
    anchors.add(anchor);
  }

  /**
   * The anchor of the lanes a region {@code [start, end)} compacts: the first {@value
   * CountLogCells#ANCHOR_BYTES}-byte prefix all of whose rows lie in the region, or null if none
   * does.
   */
  static byte[] laneAnchor(byte[] start, byte[] end) {
    long prefix = 0;
    for (int i = 0; i < CountLogCells.ANCHOR_BYTES; i++) {
      prefix = (prefix << 8) | (i < start.length ? start[i] & 0xff : 0);
    }
    for (int i = CountLogCells.ANCHOR_BYTES; i < start.length; i++) {
      if (start[i] != 0) {
        prefix++; // the start's own prefix has rows before the start
        break;
      }
    }
    long last = (1L << (8 * CountLogCells.ANCHOR_BYTES)) - 1;
    if (prefix > last || end.length != 0 && (prefix == last || Bytes.compareTo(anchorBytes(prefix + 1), end) > 0)) {
      return null;
    }
    return anchorBytes(prefix);
  }

  private static byte[] anchorBytes(long prefix) {
    return Arrays.copyOfRange(Bytes.toBytes(prefix), Long.BYTES - CountLogCells.ANCHOR_BYTES, Long.BYTES);
  }

  /**
   * The anchors of the compacted lanes {@code region} holds: one scanner per anchor, not a read of
   * every lane (a split or merge leaves a region with its parents' anchors).
   */
  private static List<byte[]> anchorsIn(Region region) throws IOException {
    List<byte[]> out = new ArrayList<>();
    if (!region.getTableDescriptor().hasColumnFamily(CountLogCells.LANE_FAMILY)) {
      return out;
    }
    byte[] from = region.getRegionInfo().getStartKey();
    while (true) {
      // a scanner per anchor, from the next anchor's first row on: its first row is enough
      Scan first = new Scan().addFamily(CountLogCells.LANE_FAMILY).withStartRow(from).setFilter(new KeyOnlyFilter())
          .setCacheBlocks(false);
      List<Cell> cells = new ArrayList<>();
      try (RegionScanner scanner = region.getScanner(first)) {
        scanner.nextRaw(cells);
      }
      if (cells.isEmpty()) {
        return out;
      }
      byte[] anchor = Arrays.copyOf(CellUtil.cloneRow(cells.get(0)), CountLogCells.ANCHOR_BYTES);
      // (the first may lie before the region's start: a split through a parent's anchor)
      if (out.stream().anyMatch(a -> Arrays.equals(a, anchor))) {
        throw new IOException("the compacted lanes after " + Bytes.toStringBinary(from) + " start with anchor "
            + Bytes.toStringBinary(anchor) + ", met before");
      }
      out.add(anchor);
      long prefix = Bytes.toInt(anchor) & 0xFFFFFFFFL; // ANCHOR_BYTES is 4
      if (prefix == (1L << (8 * CountLogCells.ANCHOR_BYTES)) - 1) {
        return out;
      }
      from = anchorBytes(prefix + 1);
    }
  }

  /**
   * Lanes of log cells as rows of this region, a file at a time: sorted, written as a store file and
   * bulk loaded into the region (no memstore, one write-ahead-log marker per file), then their log
   * cells deleted.
   */
  private static final class LaneRows {
    private static final int LANES_PER_FILE = 1 << 16;
    private final HRegion region;
    private final byte[] anchor;
    private final List<KeyValue> lanes = new ArrayList<>();
    private final List<Mutation> deletes = new ArrayList<>();
    long records;
    long cells;

    LaneRows(Region region, byte[] anchor) {
      this.region = (HRegion) region;
      this.anchor = anchor;
    }

    void add(Cell cell) throws IOException {
      if (!isLogCell(cell)) {
        return;
      }
      byte[] value = CellUtil.cloneValue(cell);
      int n = CountLogCells.records(value, 0, value.length);
      for (int i = 0, at = CountLogCells.firstRecord(0); i < n; i++, at += CountLogCells.RECORD_BYTES) {
        int nameEnd = at + CountLogCells.NAME_BYTES;
        int laneEnd = nameEnd + CountLogCells.LANE_BYTES;
        byte[] row = Bytes.add(anchor, Arrays.copyOfRange(value, at, nameEnd));
        if (!region.getRegionInfo().containsRow(row)) {
          throw new IOException("the compacted lane row " + Bytes.toStringBinary(row) + " lies outside the region");
        }
        lanes.add(new KeyValue(row, CountLogCells.LANE_FAMILY, Arrays.copyOfRange(value, nameEnd, laneEnd),
            Bytes.toLong(value, laneEnd), Arrays.copyOfRange(value, laneEnd + Long.BYTES, laneEnd + 2 * Long.BYTES)));
      }
      deletes.add(new Delete(CellUtil.cloneRow(cell)).addColumn(CellUtil.cloneFamily(cell), CountLogCells.QUALIFIER,
          cell.getTimestamp()));
      records += n;
      cells++;
      if (lanes.size() >= LANES_PER_FILE) {
        flush();
      }
    }

    void flush() throws IOException {
      if (!lanes.isEmpty()) {
        Path file = region.getRegionFileSystem().createTempName();
        boolean loaded = false;
        try {
          write(file);
          load(file);
          loaded = true;
        } finally {
          if (!loaded) { // written in part, or not taken by the region
            deleteQuietly(file);
          }
        }
      }
      if (!deletes.isEmpty()) { // only after their lanes are loaded
        String failed = RegionCells.firstFailure(region.batchMutate(deletes.toArray(new Mutation[0])));
        if (failed != null) {
          throw new IOException("deleting compacted log cells failed: " + failed);
        }
        deletes.clear();
      }
    }

    /**
     * Writes the lanes, sorted, to {@code file} in the region's temporary directory, with the
     * settings of the family's store (the server's, the table's and the family's: checksums, Bloom
     * filter, encryption).
     */
    private void write(Path file) throws IOException {
      lanes.sort(CellComparator.getInstance());
      ColumnFamilyDescriptor family = region.getTableDescriptor().getColumnFamily(CountLogCells.LANE_FAMILY);
      Configuration conf = region.getStore(CountLogCells.LANE_FAMILY).getReadOnlyConfiguration();
      StoreFileWriter writer = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED,
          region.getRegionFileSystem().getFileSystem())
          .withFilePath(file)
          .withBloomType(family.getBloomFilterType())
          .withMaxKeyCount(lanes.size())
          .withFileContext(new HFileContextBuilder()
              .withCompression(family.getCompressionType())
              .withDataBlockEncoding(family.getDataBlockEncoding())
              .withBlockSize(family.getBlocksize())
              .withChecksumType(StoreUtils.getChecksumType(conf))
              .withBytesPerCheckSum(StoreUtils.getBytesPerChecksum(conf))
              .withEncryptionContext(EncryptionUtil.createEncryptionContext(conf, family))
              .withColumnFamily(CountLogCells.LANE_FAMILY)
              .withTableName(region.getTableDescriptor().getTableName().getName())
              .withCreateTime(System.currentTimeMillis())
              .build())
          .build();
      try {
        for (KeyValue lane : lanes) {
          writer.append(lane);
        }
      } finally {
        writer.close();
      }
      lanes.clear();
    }

    private void load(Path file) throws IOException {
      Map<byte[], List<Path>> loaded = region.bulkLoadHFiles(
          List.of(new Pair<>(CountLogCells.LANE_FAMILY, file.toString())), false, null);
      if (loaded == null || loaded.isEmpty()) {
        throw new IOException("bulk loading compacted lanes into the region failed");
      }
      // Nothing flushes this family, so nothing else would ask HBase to merge its files.
      region.requestCompaction(CountLogCells.LANE_FAMILY, "compacted count logs", Store.NO_PRIORITY, false,
          CompactionLifeCycleTracker.DUMMY);
    }

    private void deleteQuietly(Path file) {
      try {
        region.getRegionFileSystem().getFileSystem().delete(file, false);
      } catch (IOException e) {
        LOG.warn("Region {}: could not delete the unloaded lane file {}", region.getRegionInfo().getEncodedName(), file, e);
      }
    }
  }

  private static Scan logCells() {
    return new Scan().setFilter(new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(CountLogCells.QUALIFIER)))
        .setCacheBlocks(false);
  }

  /** {@link #logCells()} of the families that hold them: not the compacted lanes'. */
  private static Scan logCellsOf(Region r) {
    Scan scan = logCells();
    for (byte[] family : r.getTableDescriptor().getColumnFamilyNames()) {
      if (!Arrays.equals(family, CountLogCells.LANE_FAMILY)) {
        scan.addFamily(family);
      }
    }
    return scan;
  }

  /**
   * Adds the log cells of files just bulk loaded into {@code region} ({@code loaded}: final paths
   * by family), read through the region within the files' time range. A record met again changes
   * nothing.
   *
   * @throws IOException if they cannot be read, or the server's count logs then hold more lanes
   *     than its budget (a bulk load is not refused beforehand: the region then refuses lane count
   *     requests until it reopens)
   */
  void addLoaded(Region region, Map<byte[], List<Path>> loaded) throws IOException {
    RegionCells.forEachLoadedFile(region, loaded,
        (family, file) -> RegionCells.forEach(region, RegionCells.withinTimeRangeOf(logCells(), family, file), this::add));
    if (budget.exceeded()) {
      throw new IOException("the count logs hold more lanes than " + budget.describe());
    }
  }

  /** Whether {@code cell} is a log cell. */
  static boolean isLogCell(Cell cell) {
    return CountLogCells.isLogQualifier(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength());
  }

  /**
   * Refuses a log cell that is not a count log of this version, before it is written.
   *
   * @return how many records it holds
   * @throws IllegalArgumentException naming what is wrong
   */
  static int check(Cell logCell) {
    return CountLogCells.records(logCell.getValueArray(), logCell.getValueOffset(), logCell.getValueLength());
  }

  /** Records the lane counts of {@code cell}, just written, if it is a log cell; asks for a compaction when due. */
  void add(Cell cell) {
    if (!isLogCell(cell)) {
      return;
    }
    byte[] value = cell.getValueArray();
    int records = CountLogCells.records(value, cell.getValueOffset(), cell.getValueLength());
    int at = CountLogCells.firstRecord(cell.getValueOffset());
    Generation into = active;
    for (int i = 0; i < records; i++, at += CountLogCells.RECORD_BYTES) {
      merge(into, value, at);
    }
    if (into.held.get() >= compactLanes) {
      requestCompaction.run();
    } else if (budget.halfUsed()) {
      budget.compactAll();
    }
  }

  /** Merges the record at {@code record} of {@code bytes} into {@code into}: a new lane, or a higher stamp than the lane's. */
  private void merge(Generation into, byte[] bytes, int record) {
    long high = Bytes.toLong(bytes, record);
    long low = Bytes.toLong(bytes, record + Long.BYTES);
    Merge merge = new Merge(bytes, record + CountLogCells.NAME_BYTES);
    for (int chunk = 0; !merge.done; chunk++) {
      into.lanes.update(chunkKey(high, chunk), low, merge);
    }
    if (merge.added) {
      into.held.incrementAndGet();
      budget.held.incrementAndGet();
    }
  }

  /** The high half of the key of a name's {@code chunk}-th chunk (the first: the name's own). */
  private static long chunkKey(long high, int chunk) {
    return high ^ (chunk * 0x9E3779B97F4A7C15L);
  }

  /** Puts one lane record into the first chunk that has its lane or room for it. */
  private static final class Merge implements EntryTable.RowUpdate {
    private final byte[] bytes;
    private final int laneRecord;
    boolean done;
    /** Whether the record was a new lane. */
    boolean added;

    Merge(byte[] bytes, int laneRecord) {
      this.bytes = bytes;
      this.laneRecord = laneRecord;
    }

    @Override
    public byte[] update(byte[] arena, int offset, int length) {
      if (arena == null) {
        done = true;
        added = true;
        return Arrays.copyOfRange(bytes, laneRecord, laneRecord + CountLogCells.LANE_RECORD_BYTES);
      }
      for (int at = offset; at < offset + length; at += CountLogCells.LANE_RECORD_BYTES) {
        if (Arrays.equals(arena, at + LANE_ID, at + LANE_ID + CountLogCells.LANE_BYTES,
            bytes, laneRecord + LANE_ID, laneRecord + LANE_ID + CountLogCells.LANE_BYTES)) {
          done = true;
          if (Bytes.toLong(bytes, laneRecord + STAMP) > Bytes.toLong(arena, at + STAMP)) {
            System.arraycopy(bytes, laneRecord + STAMP, arena, at + STAMP, 2 * Long.BYTES);
          }
          return null;
        }
      }
      if (length / CountLogCells.LANE_RECORD_BYTES >= LANES_PER_CHUNK) {
        return null; // full: the next chunk
      }
      done = true;
      added = true;
      byte[] row = Arrays.copyOfRange(arena, offset, offset + length + CountLogCells.LANE_RECORD_BYTES);
      System.arraycopy(bytes, laneRecord, row, length, CountLogCells.LANE_RECORD_BYTES);
      return row;
    }
  }

  /**
   * Every lane of {@code names} this region holds, in memory or compacted, with its highest-stamped
   * count in each place, as a count log (no bytes if none): memory first, then the compacted rows,
   * so a lane freed from memory meanwhile is found in its row.
   */
  byte[] answer(List<byte[]> names) throws IOException {
    Generation newest = active; // first: a compaction sets compacting before it replaces active
    Generation older = compacting;
    List<CountLogCells.LaneCount> out = new ArrayList<>();
    for (byte[] name : names) {
      answer(newest, name, out);
      if (older != null && older != newest) {
        answer(older, name, out);
      }
    }
    for (byte[] anchor : anchors) {
      for (byte[] name : names) {
        byte[] row = Bytes.add(anchor, name);
        if (!region.getRegionInfo().containsRow(row)) {
          continue; // a split put it in the other region, which answers for it
        }
        for (Cell c : region.get(new Get(row).addFamily(CountLogCells.LANE_FAMILY)).rawCells()) {
          out.add(new CountLogCells.LaneCount(name, CellUtil.cloneQualifier(c), c.getTimestamp(),
              Bytes.toLong(c.getValueArray(), c.getValueOffset())));
        }
      }
    }
    return out.isEmpty() ? new byte[0] : CountLogCells.encode(out);
  }

  private static void answer(Generation g, byte[] name, List<CountLogCells.LaneCount> out) {
    long high = Bytes.toLong(name, 0);
    long low = Bytes.toLong(name, Long.BYTES);
    for (int chunk = 0; ; chunk++) {
      byte[] row = g.lanes.row(chunkKey(high, chunk), low);
      if (row == null) {
        return;
      }
      for (int at = 0; at < row.length; at += CountLogCells.LANE_RECORD_BYTES) {
        out.add(new CountLogCells.LaneCount(name, Arrays.copyOfRange(row, at + LANE_ID, at + STAMP),
            Bytes.toLong(row, at + STAMP), Bytes.toLong(row, at + STAMP + Long.BYTES)));
      }
    }
  }

  /** Lanes held in memory. */
  long lanes() {
    Generation older = compacting;
    return active.held.get() + (older == null ? 0 : older.held.get());
  }
}
