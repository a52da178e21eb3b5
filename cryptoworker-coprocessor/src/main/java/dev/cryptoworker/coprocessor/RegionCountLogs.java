package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CountLogCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One counter-table region's count logs (stored format 7, {@link CountLogCells}), indexed in
 * memory: counter name to the highest-stamped count of each of its lanes the region's log cells
 * hold. Built from the log cells when the region opens (a split's or merge's new regions from
 * their own cells), extended by every write and bulk load; it never forgets a lane, as the cells
 * are never deleted.
 *
 * <p>Held in an {@link EntryTable}, no object per lane: a name's lanes are one row of {@value
 * CountLogCells#LANE_RECORD_BYTES}-byte records ({@code lane id || stamp || masked count}), in
 * chunks of {@value #LANES_PER_CHUNK} lanes keyed by the name and the chunk's number. About 80 to
 * 130 bytes of heap per lane, and every lane stays (nothing compacts the logs yet), so the regions
 * of one server hold at most a share of its heap ({@link LaneBudget}; {@value #HEAP_SHARE_KEY},
 * default {@value #DEFAULT_HEAP_SHARE}): beyond it, log cells are refused before they are written,
 * and a region whose logs do not fit when it opens refuses lane count requests. Keyless: names,
 * lane ids and masked counts are pseudorandom to the region server.
 */
final class RegionCountLogs {
  /** Lanes per chunk: 57,344 bytes, under the entry table's row limit. */
  static final int LANES_PER_CHUNK = 2048;
  private static final int LANE_ID = 0;
  private static final int STAMP = CountLogCells.LANE_BYTES;

  /** Heap one lane takes, at most (a slot of 36 bytes at 35% use, the record, arena slack). */
  static final long BYTES_PER_LANE = 160;
  /** The configuration key of the share of a region server's heap its count logs may hold. */
  static final String HEAP_SHARE_KEY = "cryptoworker.count-logs.heap-share";
  static final double DEFAULT_HEAP_SHARE = 0.25;

  private final EntryTable lanes = new EntryTable();
  private final LaneBudget budget;
  /** Lanes this region holds, against {@link #budget}. */
  private final AtomicLong held = new AtomicLong();

  RegionCountLogs(LaneBudget budget) {
    this.budget = budget;
  }

  /**
   * Reads every log cell of {@code region} (call before the region takes writes).
   *
   * @throws IOException if the cells cannot be read, or hold more lanes than {@code budget} has left
   *     (then none is held)
   */
  static RegionCountLogs build(Region region, LaneBudget budget) throws IOException {
    RegionCountLogs logs = new RegionCountLogs(budget);
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

  /** Gives this region's lanes back to the server's budget (the region closed, or failed to build). */
  void release() {
    budget.held.addAndGet(-held.getAndSet(0));
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

  /** Records the lane counts of {@code cell}, just written, if it is a log cell. */
  void add(Cell cell) {
    if (!isLogCell(cell)) {
      return;
    }
    byte[] value = cell.getValueArray();
    int records = CountLogCells.records(value, cell.getValueOffset(), cell.getValueLength());
    int at = CountLogCells.firstRecord(cell.getValueOffset());
    for (int i = 0; i < records; i++, at += CountLogCells.RECORD_BYTES) {
      merge(value, at);
    }
  }

  /** Merges the record at {@code record} of {@code bytes}: a new lane, or a higher stamp than the lane's. */
  private void merge(byte[] bytes, int record) {
    long high = Bytes.toLong(bytes, record);
    long low = Bytes.toLong(bytes, record + Long.BYTES);
    Merge merge = new Merge(bytes, record + CountLogCells.NAME_BYTES);
    for (int chunk = 0; !merge.done; chunk++) {
      lanes.update(chunkKey(high, chunk), low, merge);
    }
    if (merge.added) {
      held.incrementAndGet();
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

  /** Every lane of {@code names} this region has logged, with its highest-stamped count, as a count log (no bytes if none). */
  byte[] answer(List<byte[]> names) {
    List<CountLogCells.LaneCount> out = new ArrayList<>();
    for (byte[] name : names) {
      long high = Bytes.toLong(name, 0);
      long low = Bytes.toLong(name, Long.BYTES);
      for (int chunk = 0; ; chunk++) {
        byte[] row = lanes.row(chunkKey(high, chunk), low);
        if (row == null) {
          break;
        }
        for (int at = 0; at < row.length; at += CountLogCells.LANE_RECORD_BYTES) {
          out.add(new CountLogCells.LaneCount(name, Arrays.copyOfRange(row, at + LANE_ID, at + STAMP),
              Bytes.toLong(row, at + STAMP), Bytes.toLong(row, at + STAMP + Long.BYTES)));
        }
      }
    }
    return out.isEmpty() ? new byte[0] : CountLogCells.encode(out);
  }

  /** Lanes held. */
  long lanes() {
    return held.get();
  }
}
