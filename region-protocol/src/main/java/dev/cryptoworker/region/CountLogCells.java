package dev.cryptoworker.region;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Count logs (stored format 7): the counts of a batch's writer lanes, stored as one cell in the
 * counter table instead of one row per lane. The counter regions index these cells in memory, and
 * answer a {@link LaneCountRequest} from that index.
 *
 * <p>A log cell's row is a batch id (a prefix drawn once per writer, so a writer's logs share a
 * counter region, then random bytes per batch, so no two batches share a row), its qualifier is {@link #QUALIFIER}, and its value is {@code version (1) ||
 * records}, each record {@code counter name (16) || lane id (12) || stamp (8) || masked count
 * (8)}. Of two records of one lane, the one with the higher stamp holds: a writer stamps a lane's
 * counts increasing, so that is the higher count whichever cell lands last. The answer to a {@link
 * LaneCountRequest} has the same form.
 */
public final class CountLogCells {
  /** The table attribute that makes a region index its count logs (set on the counter table). */
  public static final String TABLE_ATTRIBUTE = "cryptoworker.count-logs";
  /** The qualifier of log cells, one no other counter-table cell has. */
  public static final byte[] QUALIFIER = {0, 'c', 'o', 'u', 'n', 't', '-', 'l', 'o', 'g'};
  /**
   * The counter table's family of compacted lanes: a counter region moves the lanes of its log
   * cells out of memory into rows {@code anchor (4) || counter name} of this family, a cell per
   * lane: the lane id as qualifier, the stamp as timestamp (the highest stays) and the masked count
   * as value. The anchor is a 4-byte prefix whose rows all lie in the compacting region.
   */
  public static final byte[] LANE_FAMILY = {'l'};
  /** Bytes of an anchor, the first of a compacted lane's row. */
  public static final int ANCHOR_BYTES = 4;
  /** Bytes of a counter name. */
  public static final int NAME_BYTES = 16;
  /** Bytes of a lane id. */
  public static final int LANE_BYTES = 12;
  /** Bytes of a record. */
  public static final int RECORD_BYTES = NAME_BYTES + LANE_BYTES + 2 * Long.BYTES;
  /** Bytes of a record without its name: what a region keeps per lane. */
  public static final int LANE_RECORD_BYTES = RECORD_BYTES - NAME_BYTES;
  /** The most records one cell holds (about 46 MB). */
  public static final int MAX_RECORDS = 1 << 20;
  private static final byte VERSION = 1;

  private CountLogCells() {}

  /**
   * One lane's count.
   *
   * @param name the value's counter name ({@value #NAME_BYTES} bytes)
   * @param lane the lane id ({@value #LANE_BYTES} bytes)
   * @param stamp orders the counts of one lane: the highest holds
   * @param maskedCount the lane's count plus its mask
   */
  public record LaneCount(byte[] name, byte[] lane, long stamp, long maskedCount) {
    public LaneCount {
      if (name.length != NAME_BYTES || lane.length != LANE_BYTES) {
        throw new IllegalArgumentException("a lane count has a " + NAME_BYTES + "-byte counter name and a " + LANE_BYTES
            + "-byte lane id, not " + name.length + " and " + lane.length);
      }
    }
  }

  /** Whether the qualifier bytes at {@code offset, length} are {@link #QUALIFIER}. */
  public static boolean isLogQualifier(byte[] qualifier, int offset, int length) {
    return Arrays.equals(QUALIFIER, 0, QUALIFIER.length, qualifier, offset, offset + length);
  }

  /** The value of a cell holding {@code counts} (1 to {@value #MAX_RECORDS} of them). */
  public static byte[] encode(List<LaneCount> counts) {
    if (counts.isEmpty() || counts.size() > MAX_RECORDS) {
      throw new IllegalArgumentException("a count log holds 1 to " + MAX_RECORDS + " lane counts, not " + counts.size());
    }
    ByteBuffer out = ByteBuffer.allocate(1 + counts.size() * RECORD_BYTES).put(VERSION);
    for (LaneCount c : counts) {
      out.put(c.name()).put(c.lane()).putLong(c.stamp()).putLong(c.maskedCount());
    }
    return out.array();
  }

  /**
   * How many records the value at {@code offset, length} holds; the first starts at {@link
   * #firstRecord(int) firstRecord(offset)}, each {@value #RECORD_BYTES} bytes after the one before.
   *
   * @throws IllegalArgumentException naming what is wrong, if it is not a count log of this version
   */
  public static int records(byte[] value, int offset, int length) {
    if (length < 1 || value[offset] != VERSION) {
      throw new IllegalArgumentException("a count log starts with version " + VERSION);
    }
    if ((length - 1) % RECORD_BYTES != 0 || length == 1 || (length - 1) / RECORD_BYTES > MAX_RECORDS) {
      throw new IllegalArgumentException("a count log holds 1 to " + MAX_RECORDS + " records of " + RECORD_BYTES
          + " bytes, not " + (length - 1) + " bytes");
    }
    int n = (length - 1) / RECORD_BYTES;
    for (int i = 0, stamp = firstRecord(offset) + NAME_BYTES + LANE_BYTES; i < n; i++, stamp += RECORD_BYTES) {
      long s = ByteBuffer.wrap(value, stamp, Long.BYTES).getLong();
      if (s < 0 || s == Long.MAX_VALUE) {
        // a compaction writes the stamp as a lane row's timestamp
        throw new IllegalArgumentException("record " + i + "'s stamp is " + s + ", not a timestamp (0 to "
            + (Long.MAX_VALUE - 1) + ")");
      }
    }
    return n;
  }

  /** Where the first record of a value starting at {@code offset} is. */
  public static int firstRecord(int offset) {
    return offset + 1;
  }

  /**
   * The records of a count log or an answer (an empty answer: no bytes).
   *
   * @throws IllegalArgumentException if malformed
   */
  public static List<LaneCount> decode(byte[] value) {
    if (value.length == 0) {
      return List.of();
    }
    int n = records(value, 0, value.length);
    List<LaneCount> out = new ArrayList<>(n);
    ByteBuffer in = ByteBuffer.wrap(value, firstRecord(0), n * RECORD_BYTES);
    for (int i = 0; i < n; i++) {
      byte[] name = new byte[NAME_BYTES];
      byte[] lane = new byte[LANE_BYTES];
      in.get(name).get(lane);
      out.add(new LaneCount(name, lane, in.getLong(), in.getLong()));
    }
    return out;
  }
}
