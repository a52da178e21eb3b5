package dev.cryptoworker.sharing;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Joining shares of one {@link LinearCode}: decode from the first threshold shares; with more,
 * re-encode the others and compare, and on disagreement search the subsets of shares for the one
 * decoding that all but at most (available - threshold) / 2 shares agree with.
 */
final class CodedShares {
  /** The data chunks (k x chunk bytes, padded) and the shares that disagreed with them. */
  record Decoded(byte[] data, Set<Integer> corrupt) {}

  private CodedShares() {}

  static Decoded decode(LinearCode code, ShareHeader.Checked shares, int chunk) throws ShareDecodingException {
    int t = code.threshold();
    int available = shares.indexes().length; // every one of the size the coded length gives (ShareHeader.usable)
    if (available == t) {
      return new Decoded(decodeFrom(code, shares, indexesOf(available, t), chunk, code.dataChunks()), Set.of());
    }
    int[] all = indexesOf(available, available);
    Decoded first = tryDecode(code, shares, Arrays.copyOf(all, t), chunk, 0);
    if (first != null) {
      return first;
    }
    int correctable = (available - t) / 2;
    List<int[]> subsets = LinearCode.subsets(all, t, LinearCode.maxCorrectionSubsets());
    if (correctable > 0) {
      for (int[] subset : subsets) {
        Decoded d = tryDecode(code, shares, subset, chunk, correctable);
        if (d != null) {
          return d;
        }
      }
    }
    throw new ShareDecodingException("shares disagree: at least one of shares "
        + Arrays.toString(shares.indexes()) + " is corrupt, and " + available + " shares with " + t
        + " needed correct at most " + correctable + " (repair from a backup, or bring more stores back)");
  }

  /** Decodes from the shares at {@code positions}; accepted if at most {@code tolerated} others disagree. */
  private static Decoded tryDecode(LinearCode code, ShareHeader.Checked shares, int[] positions, int chunk,
      int tolerated) {
    int k = code.dataChunks();
    int inputs = code.threshold();
    byte[] all = decodeFrom(code, shares, positions, chunk, inputs);
    byte[] data = Arrays.copyOf(all, k * chunk);
    byte[] random = Arrays.copyOfRange(all, k * chunk, inputs * chunk);
    Set<Integer> used = new HashSet<>();
    for (int p : positions) {
      used.add(p);
    }
    Set<Integer> corrupt = new HashSet<>();
    byte[] expected = new byte[chunk];
    for (int p = 0; p < shares.indexes().length; p++) {
      if (used.contains(p)) {
        continue;
      }
      code.encodeShare(shares.indexes()[p], data, random, chunk, expected, 0);
      int header = shares.headerLength();
      if (!Arrays.equals(expected, 0, chunk, shares.shares()[p], header, header + chunk)) {
        corrupt.add(shares.indexes()[p]);
        if (corrupt.size() > tolerated) {
          return null;
        }
      }
    }
    return new Decoded(data, corrupt);
  }

  /**
   * Share {@code index} (header and chunk) of the split the shares at hand come from: every input
   * (data and randomness) recovered from shares that agree, then share {@code index} encoded again.
   */
  static byte[] regenerate(LinearCode code, ShareHeader.Checked shares, int chunk, int index)
      throws ShareDecodingException {
    if (index < 0 || index >= code.shares()) {
      throw new ShareDecodingException("share index " + index + " is outside [0, " + code.shares() + ")");
    }
    Decoded checked = decode(code, shares, chunk);
    int t = code.threshold();
    int[] positions = new int[t];
    for (int p = 0, m = 0; m < t; p++) {
      if (!checked.corrupt().contains(shares.indexes()[p])) {
        positions[m++] = p;
      }
    }
    byte[] all = decodeFrom(code, shares, positions, chunk, t);
    int k = code.dataChunks();
    // The split's own header (format and split id), so that the share joins with the others.
    byte[] share = new byte[shares.headerLength() + chunk];
    ShareHeader.writeLike(shares.shares()[0], share, index);
    code.encodeShare(index, Arrays.copyOf(all, k * chunk), Arrays.copyOfRange(all, k * chunk, t * chunk), chunk,
        share, shares.headerLength());
    Arrays.fill(all, (byte) 0);
    return share;
  }

  private static byte[] decodeFrom(LinearCode code, ShareHeader.Checked shares, int[] positions, int chunk,
      int inputs) {
    int[] rows = new int[positions.length];
    byte[][] chunks = new byte[positions.length][];
    int[] offsets = new int[positions.length];
    for (int m = 0; m < positions.length; m++) {
      rows[m] = shares.indexes()[positions[m]];
      chunks[m] = shares.shares()[positions[m]];
      offsets[m] = shares.headerLength();
    }
    return code.decode(rows, chunks, offsets, chunk, inputs);
  }

  private static int[] indexesOf(int available, int count) {
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = i;
    }
    return out;
  }
}
