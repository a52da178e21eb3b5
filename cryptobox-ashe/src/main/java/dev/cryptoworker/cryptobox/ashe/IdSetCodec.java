package dev.cryptoworker.cryptobox.ashe;

import java.io.ByteArrayOutputStream;

/**
 * Compact bytes for identifier sets, after Seabed: runs, then differences between consecutive
 * numbers, then variable-byte integers. Two layouts, the encoder picks the smaller:
 *
 * <ul>
 *   <li>{@code 0x00}, run count, then per run: gap from the previous run's end (the first run:
 *       its start) and run length - 1 (dense sets: sums over ranges of rows);
 *   <li>{@code 0x01}, identifier count, then per identifier the gap from the previous one (sparse
 *       sets, such as group-by results).
 * </ul>
 *
 * <p>Decoding is defensive: malformed or hostile bytes raise {@link IllegalArgumentException},
 * and counts are bounded by the input length, so memory stays bounded.
 */
public final class IdSetCodec {
  private static final int RUNS = 0;
  private static final int GAPS = 1;

  private IdSetCodec() {}

  public static byte[] encode(IdSet set) {
    ByteArrayOutputStream runs = new ByteArrayOutputStream();
    runs.write(RUNS);
    writeVarLong(runs, set.runCount());
    long previous = 0;
    for (int i = 0; i < set.runCount(); i++) {
      writeVarLong(runs, set.runStart(i) - previous);
      writeVarLong(runs, set.runEnd(i) - set.runStart(i));
      previous = set.runEnd(i);
    }
    if (set.size() > set.runCount() * 2L || set.size() > 1 << 20) {
      return runs.toByteArray(); // dense: the gap form cannot be smaller
    }
    ByteArrayOutputStream gaps = new ByteArrayOutputStream();
    gaps.write(GAPS);
    writeVarLong(gaps, set.size());
    previous = 0;
    for (int i = 0; i < set.runCount(); i++) {
      for (long id = set.runStart(i); id <= set.runEnd(i); id++) {
        writeVarLong(gaps, id - previous);
        previous = id;
      }
    }
    return gaps.size() < runs.size() ? gaps.toByteArray() : runs.toByteArray();
  }

  /**
   * Decodes bytes written by {@link #encode}.
   *
   * @throws IllegalArgumentException if they are malformed
   */
  public static IdSet decode(byte[] bytes) {
    try {
      return decodeChecked(bytes);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("identifier set overflows 64 bits");
    }
  }

  private static IdSet decodeChecked(byte[] bytes) {
    if (bytes.length == 0) {
      throw new IllegalArgumentException("empty identifier set encoding");
    }
    int[] pos = {1};
    IdSet set = new IdSet();
    long count = readVarLong(bytes, pos);
    // Every run or gap takes at least one byte: a count beyond the input is malformed.
    if (count < 0 || count > bytes.length) {
      throw new IllegalArgumentException("identifier set claims " + count + " entries in " + bytes.length + " bytes");
    }
    long previous = 0;
    switch (bytes[0]) {
      case RUNS:
        for (long i = 0; i < count; i++) {
          long start = Math.addExact(previous, readVarLong(bytes, pos));
          long end = Math.addExact(start, readVarLong(bytes, pos));
          set.addRun(start, end);
          previous = end;
        }
        break;
      case GAPS:
        for (long i = 0; i < count; i++) {
          long id = Math.addExact(previous, readVarLong(bytes, pos));
          set.add(id);
          previous = id;
        }
        break;
      default:
        throw new IllegalArgumentException("unknown identifier set layout " + bytes[0]);
    }
    if (pos[0] != bytes.length) {
      throw new IllegalArgumentException("trailing bytes after identifier set");
    }
    return set;
  }

  static void writeVarLong(ByteArrayOutputStream out, long v) {
    if (v < 0) {
      throw new IllegalArgumentException("negative value in identifier set: " + v);
    }
    while ((v & ~0x7fL) != 0) {
      out.write((int) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  static long readVarLong(byte[] b, int[] pos) {
    long v = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (pos[0] >= b.length) {
        throw new IllegalArgumentException("identifier set truncated");
      }
      int x = b[pos[0]++];
      v |= (long) (x & 0x7f) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("variable-byte integer too long");
  }
}
