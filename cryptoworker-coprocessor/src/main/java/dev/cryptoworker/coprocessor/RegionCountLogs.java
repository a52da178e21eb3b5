package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CountLogCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.HashSet;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.StoreFile;
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
 * 130 bytes of heap per lane. Keyless: names, lane ids and masked counts are pseudorandom to the
 * region server.
 */
final class RegionCountLogs {
  /** Lanes per chunk: 57,344 bytes, under the entry table's row limit. */
  static final int LANES_PER_CHUNK = 2048;
  private static final int LANE_ID = 0;
  private static final int STAMP = CountLogCells.LANE_BYTES;

  private final EntryTable lanes = new EntryTable();

  /** Reads every log cell of {@code region} (call before the region takes writes). */
  static RegionCountLogs build(Region region) throws IOException {
    RegionCountLogs logs = new RegionCountLogs();
    RegionCells.forEach(region, logCells(), logs::add);
    return logs;
  }

  private static Scan logCells() {
    return new Scan().setFilter(new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(CountLogCells.QUALIFIER)))
        .setCacheBlocks(false);
  }

  /**
   * Adds the log cells of files just bulk loaded into {@code region} ({@code loaded}: final paths
   * by family), read through the region within the files' time range. A record met again changes
   * nothing.
   */
  void addLoaded(Region region, Map<byte[], List<Path>> loaded) throws IOException {
    for (Map.Entry<byte[], List<Path>> e : loaded.entrySet()) {
      Set<String> names = new HashSet<>();
      e.getValue().forEach(p -> names.add(p.getName()));
      for (StoreFile file : region.getStore(e.getKey()).getStorefiles()) {
        if (names.contains(file.getPath().getName())) {
          Scan scan = logCells().addFamily(e.getKey()).setTimeRange(file.getMinimumTimestamp().orElse(0),
              file.getMaximumTimestamp().orElse(Long.MAX_VALUE - 1) + 1);
          RegionCells.forEach(region, scan, this::add);
        }
      }
    }
  }

  /** Whether {@code cell} is a log cell. */
  static boolean isLogCell(Cell cell) {
    return CountLogCells.isLogQualifier(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength());
  }

  /**
   * Refuses a log cell that is not a count log of this version, before it is written.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static void check(Cell logCell) {
    CountLogCells.records(logCell.getValueArray(), logCell.getValueOffset(), logCell.getValueLength());
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

    Merge(byte[] bytes, int laneRecord) {
      this.bytes = bytes;
      this.laneRecord = laneRecord;
    }

    @Override
    public byte[] update(byte[] arena, int offset, int length) {
      if (arena == null) {
        done = true;
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

  /** Lanes indexed (chunks count as one each of their lanes). */
  long lanes() {
    long[] n = {0};
    lanes.forEach((high, low, arena, offset, length, writeNumber) -> n[0] += length / CountLogCells.LANE_RECORD_BYTES);
    return n[0];
  }
}
