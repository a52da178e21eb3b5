package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CountLogCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;
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
 * far are written as format 6's lane rows ({@code name || lane id}, {@link
 * CountLogCells#LANE_ROW_QUALIFIER}, the stamp as timestamp, the masked count), their log cells
 * deleted and their memory freed. Until their rows are written they are held and answered as
 * before, so a searcher that asks the regions first and reads the lane rows after finds every lane.
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
  RegionCountLogs(LaneBudget budget, long compactLanes, Runnable requestCompaction) {
    this.budget = budget;
    this.compactLanes = compactLanes;
    this.requestCompaction = requestCompaction;
    budget.register(this);
  }

  /** Logs that never compact (tests). */
  RegionCountLogs(LaneBudget budget) {
    this(budget, Long.MAX_VALUE, () -> {});
  }

  /**
   * Reads every log cell of {@code region} (call before the region takes writes).
   *
   * @throws IOException if the cells cannot be read, or hold more lanes than {@code budget} has left
   *     (then none is held)
   */
  static RegionCountLogs build(Region region, LaneBudget budget, long compactLanes, Runnable requestCompaction)
      throws IOException {
    RegionCountLogs logs = new RegionCountLogs(budget, compactLanes, requestCompaction);
    try {
      RegionCells.forEach(region, logCells(), cell -> {
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
   * format 7 holds every lane in memory, so a server refuses log cells beyond the share rather
   * than run out of heap.
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

    /** Asks every region of the server that holds lanes to compact. */
    void compactAll() {
      for (RegionCountLogs logs : open) {
        if (logs.active.held.get() > 0 || logs.compacting != null) {
          logs.requestCompaction.run();
        }
      }
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
    if (records > budget.limit) {
      return false;
    }
    budget.compactAll();
    return true;
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
   * Moves the lanes logged so far out of memory, into lane rows: writes a lane row for every record
   * of every log cell the region holds (through {@code connection}, to whichever counter region
   * holds the row), deletes those log cells, then frees the lanes they were indexed from. Lanes
   * logged meanwhile stay in memory for the next compaction. A record written again is harmless:
   * a lane row keeps its highest timestamp, which is the stamp. If it fails, the lanes stay held
   * and answered, and the next compaction starts over.
   */
  void compact(Region region, Connection connection) throws IOException {
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
      // Writes that indexed their cells in the old generation are visible to the scan below.
      ((HRegion) region).getMVCC().await();
      LaneRows rows = new LaneRows(region, connection);
      RegionCells.forEach(region, logCells(), rows::add);
      rows.flush();
      Generation done;
      synchronized (this) {
        done = compacting;
        compacting = null;
        if (!released) {
          free(done);
        }
      }
      LOG.debug("Region {}: compacted the count logs of {} lanes into lane rows ({} log cells)",
          region.getRegionInfo().getEncodedName(), rows.records, rows.cells);
    } finally {
      synchronized (this) {
        compactionRunning = false;
      }
    }
  }

  /** Lane rows of log cells, written a few thousand records at a time, each cell deleted after its rows. */
  private static final class LaneRows {
    private static final int RECORDS_PER_WRITE = 8192;
    private final Region region;
    private final Connection connection;
    private final List<Put> puts = new ArrayList<>();
    private final List<Mutation> deletes = new ArrayList<>();
    long records;
    long cells;

    LaneRows(Region region, Connection connection) {
      this.region = region;
      this.connection = connection;
    }

    void add(Cell cell) throws IOException {
      if (!isLogCell(cell)) {
        return;
      }
      byte[] value = CellUtil.cloneValue(cell);
      byte[] family = CellUtil.cloneFamily(cell);
      int n = CountLogCells.records(value, 0, value.length);
      for (int i = 0, at = CountLogCells.firstRecord(0); i < n; i++, at += CountLogCells.RECORD_BYTES) {
        byte[] row = Arrays.copyOfRange(value, at, at + CountLogCells.NAME_BYTES + CountLogCells.LANE_BYTES);
        long stamp = Bytes.toLong(value, at + CountLogCells.NAME_BYTES + CountLogCells.LANE_BYTES);
        puts.add(new Put(row).addColumn(family, CountLogCells.LANE_ROW_QUALIFIER, stamp,
            Arrays.copyOfRange(value, at + CountLogCells.RECORD_BYTES - Long.BYTES, at + CountLogCells.RECORD_BYTES)));
      }
      deletes.add(new Delete(CellUtil.cloneRow(cell)).addColumn(family, CountLogCells.QUALIFIER, cell.getTimestamp()));
      records += n;
      cells++;
      if (puts.size() >= RECORDS_PER_WRITE) {
        flush();
      }
    }

    void flush() throws IOException {
      if (puts.isEmpty() && deletes.isEmpty()) {
        return;
      }
      try (Table table = connection.getTable(region.getTableDescriptor().getTableName())) {
        table.batch(puts, new Object[puts.size()]);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while writing compacted lane rows");
      }
      region.batchMutate(deletes.toArray(new Mutation[0]));
      puts.clear();
      deletes.clear();
    }
  }

  private static Scan logCells() {
    return new Scan().setFilter(new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(CountLogCells.QUALIFIER)))
        .setCacheBlocks(false);
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
   * Every lane of {@code names} this region holds in memory, with its highest-stamped count in each
   * generation, as a count log (no bytes if none). Lanes compacted before this began are in lane
   * rows by then, which the asker reads after the regions answered.
   */
  byte[] answer(List<byte[]> names) {
    Generation newest = active; // first: a compaction sets compacting before it replaces active
    Generation older = compacting;
    List<CountLogCells.LaneCount> out = new ArrayList<>();
    for (byte[] name : names) {
      answer(newest, name, out);
      if (older != null && older != newest) {
        answer(older, name, out);
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
