package dev.cryptoworker.sharing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A linear code over GF(2^8) given by its n x (k + z) encoding matrix: share i (a chunk of bytes)
 * is row i applied to the k data chunks followed by the z random chunks. Every scheme of this module
 * is one such matrix (with z = 0 for plain Reed-Solomon); decoding inverts the rows of the shares at
 * hand, once per set of shares (cached). Chunks of {@value #BITSLICED_FROM} bytes and more are
 * padded to a multiple of 64 (8 packets of whole longs) and coded bit-sliced ({@link BitslicedKernel}),
 * all shares (or all decoded chunks) at once through one {@link XorSchedule} per matrix, cached;
 * smaller ones byte by byte through product tables, without padding. Thread-safe.
 */
final class LinearCode {
  /** Beyond this many share subsets, a disagreement is reported rather than searched for a correction. */
  private static final int MAX_CORRECTION_SUBSETS = 5_000;
  /** Decoding schedules kept per code (each a few kilobytes). */
  private static final int MAX_CACHED_DECODINGS = 64;
  /** The chunk size from which coding is bit-sliced. */
  static final int BITSLICED_FROM = 512;

  private final GfMatrix encoding;
  private final int k;
  private final int z;
  private final Map<Long, GfMatrix> inverses = new ConcurrentHashMap<>();
  /** Bit-sliced decoding per set of shares and number of inputs recovered. */
  private final Map<Subset, XorSchedule> decodings = new ConcurrentHashMap<>();
  /** Bit-sliced encoding of all n shares, built on first use. */
  private volatile XorSchedule encodingSchedule;

  private record Subset(long rows, int inputs) {}

  LinearCode(GfMatrix encoding, int k, int z) {
    if (encoding.columns() != k + z) {
      throw new IllegalArgumentException("an encoding of " + k + " + " + z + " inputs needs " + (k + z) + " columns");
    }
    this.encoding = encoding;
    this.k = k;
    this.z = z;
  }

  int shares() {
    return encoding.rows();
  }

  /** Shares needed to decode: k + z. */
  int threshold() {
    return k + z;
  }

  int dataChunks() {
    return k;
  }

  GfMatrix encoding() {
    return encoding;
  }

  /** Bytes per share (without header) for {@code codedLength} bytes of data. */
  int chunkFor(int codedLength) {
    int chunk = (int) (((long) codedLength + k - 1) / k);
    return chunk >= BITSLICED_FROM ? (chunk + 63) & ~63 : chunk;
  }

  /**
   * Every share's chunk from the inputs ({@code data}: the k data chunks, {@code random}: the z random
   * ones, each {@code chunk} bytes, back to back) into {@code out[i]} from {@code outOffset}.
   */
  void encodeShares(byte[] data, byte[] random, int chunk, byte[][] out, int outOffset) {
    if (chunk < BITSLICED_FROM) {
      for (int i = 0; i < out.length; i++) {
        encodeShare(i, data, random, chunk, out[i], outOffset);
      }
      return;
    }
    XorSchedule schedule = encodingSchedule;
    if (schedule == null) {
      int[][] rows = new int[shares()][];
      Arrays.setAll(rows, encoding::row);
      schedule = XorSchedule.of(rows);
      encodingSchedule = schedule;
    }
    byte[][] sources = new byte[k + z][];
    int[] offsets = new int[k + z];
    for (int j = 0; j < k + z; j++) {
      sources[j] = j < k ? data : random;
      offsets[j] = (j < k ? j : j - k) * chunk;
    }
    int[] outOffsets = new int[out.length];
    Arrays.fill(outOffsets, outOffset);
    schedule.run(sources, offsets, out, outOffsets, chunk);
  }

  /**
   * Share {@code i}'s chunk from the inputs: {@code data} holds the k data chunks, {@code random}
   * the z random ones, each {@code chunk} bytes, back to back.
   */
  void encodeShare(int i, byte[] data, byte[] random, int chunk, byte[] out, int outOffset) {
    int[] row = new int[k + z];
    byte[][] sources = new byte[k + z][];
    int[] offsets = new int[k + z];
    for (int j = 0; j < k + z; j++) {
      row[j] = encoding.get(i, j);
      sources[j] = j < k ? data : random;
      offsets[j] = (j < k ? j : j - k) * chunk;
    }
    combine(row, sources, offsets, out, outOffset, chunk);
  }

  /**
   * The k + z inputs (data chunks, then random ones) from the chunks of shares {@code rows} (exactly
   * {@link #threshold()} of them), each starting at {@code offsets[m]} of {@code chunks[m]}.
   *
   * @param inputs how many inputs to recover: k for the data alone, k + z to re-encode other shares
   */
  byte[] decode(int[] rows, byte[][] chunks, int[] offsets, int chunk, int inputs) {
    byte[] out = new byte[inputs * chunk];
    if (chunk >= BITSLICED_FROM) {
      byte[][] outs = new byte[inputs][];
      int[] outOffsets = new int[inputs];
      for (int j = 0; j < inputs; j++) {
        outs[j] = out;
        outOffsets[j] = j * chunk;
      }
      decodingOf(rows, inputs).run(chunks, offsets, outs, outOffsets, chunk);
      return out;
    }
    GfMatrix inverse = inverseOf(rows);
    for (int j = 0; j < inputs; j++) {
      combine(inverse.row(j), chunks, offsets, out, j * chunk, chunk);
    }
    return out;
  }

  /** {@code out = sum of coefficients[m] * sources[m]}, leaving out zero coefficients; a lone 1 is a copy. */
  static void combine(int[] coefficients, byte[][] sources, int[] offsets, byte[] out, int outOffset,
      int chunk) {
    int terms = 0;
    for (int c : coefficients) {
      if (c != 0) {
        terms++;
      }
    }
    int[] c = new int[terms];
    byte[][] src = new byte[terms][];
    int[] at = new int[terms];
    for (int m = 0, t = 0; m < coefficients.length; m++) {
      if (coefficients[m] != 0) {
        c[t] = coefficients[m];
        src[t] = sources[m];
        at[t++] = offsets[m];
      }
    }
    if (terms == 1 && c[0] == 1) {
      System.arraycopy(src[0], at[0], out, outOffset, chunk);
    } else if (chunk >= BITSLICED_FROM) {
      BitslicedKernel.combine(c, src, at, out, outOffset, chunk);
    } else {
      Gf256.combine(c, src, at, out, outOffset, chunk);
    }
  }

  private GfMatrix inverseOf(int[] rows) {
    return inverses.computeIfAbsent(maskOf(rows), m -> encoding.rows(rows).inverse());
  }

  private XorSchedule decodingOf(int[] rows, int inputs) {
    Subset subset = new Subset(maskOf(rows), inputs);
    XorSchedule cached = decodings.get(subset);
    if (cached != null) {
      return cached;
    }
    GfMatrix inverse = inverseOf(rows);
    int[][] first = new int[inputs][];
    Arrays.setAll(first, inverse::row);
    XorSchedule schedule = XorSchedule.of(first);
    if (decodings.size() < MAX_CACHED_DECODINGS) { // not every subset a corruption search tries
      decodings.put(subset, schedule);
    }
    return schedule;
  }

  private static long maskOf(int[] rows) {
    long mask = 0;
    for (int r : rows) {
      mask |= 1L << r;
    }
    return mask;
  }

  /** Every subset of {@code size} of {@code from}, in lexicographic order, up to {@code limit}. */
  static List<int[]> subsets(int[] from, int size, int limit) {
    List<int[]> out = new ArrayList<>();
    int[] pick = new int[size];
    for (int i = 0; i < size; i++) {
      pick[i] = i;
    }
    while (out.size() < limit) {
      int[] s = new int[size];
      for (int i = 0; i < size; i++) {
        s[i] = from[pick[i]];
      }
      out.add(s);
      int i = size - 1;
      while (i >= 0 && pick[i] == from.length - size + i) {
        i--;
      }
      if (i < 0) {
        break;
      }
      pick[i]++;
      for (int j = i + 1; j < size; j++) {
        pick[j] = pick[j - 1] + 1;
      }
    }
    return out;
  }

  static int maxCorrectionSubsets() {
    return MAX_CORRECTION_SUBSETS;
  }
}
