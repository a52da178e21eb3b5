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
    int runs = set.runCount();
    long size = set.size();
    // Both layouts are sized first and only the smaller written: a group-by sum encodes a thousand
    // sets per region, and writing both, a byte at a time, cost more than adding the values.
    long runBytes = 1 + varLongSize(runs);
    long previous = 0;
    for (int i = 0; i < runs; i++) {
      runBytes += varLongSize(set.runStart(i) - previous) + varLongSize(set.runEnd(i) - set.runStart(i));
      previous = set.runEnd(i);
    }
    long gapBytes = Long.MAX_VALUE; // dense: the gap form cannot be smaller
    if (size <= runs * 2L && size <= 1 << 20) {
      gapBytes = 1 + varLongSize(size);
      previous = 0;
      for (int i = 0; i < runs; i++) {
        gapBytes += varLongSize(set.runStart(i) - previous) + (set.runEnd(i) - set.runStart(i)); // gaps of 1: a byte each
        previous = set.runEnd(i);
      }
    }
    boolean gaps = gapBytes < runBytes;
    if (Math.min(gapBytes, runBytes) > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("identifier set too large to encode: " + runs + " runs");
    }
    byte[] out = new byte[(int) Math.min(gapBytes, runBytes)];
    int pos = 0;
    out[pos++] = (byte) (gaps ? GAPS : RUNS);
    pos = writeVarLong(out, pos, gaps ? size : runs);
    previous = 0;
    for (int i = 0; i < runs; i++) {
      long start = set.runStart(i);
      long end = set.runEnd(i);
      pos = writeVarLong(out, pos, start - previous);
      if (gaps) {
        for (long id = start; id < end; id++) {
          out[pos++] = 1;
        }
      } else {
        pos = writeVarLong(out, pos, end - start);
      }
      previous = end;
    }
    return out;
  }

  private static int varLongSize(long v) {
    if (v < 0) {
      throw new IllegalArgumentException("negative value in identifier set: " + v);
    }
    return v == 0 ? 1 : (63 - Long.numberOfLeadingZeros(v)) / 7 + 1;
  }

  private static int writeVarLong(byte[] out, int pos, long v) {
    while ((v & ~0x7fL) != 0) {
      out[pos++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    return pos;
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
    byte[] b = new byte[varLongSize(v)];
    writeVarLong(b, 0, v);
    out.writeBytes(b);
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
