package dev.cryptoworker.sharing;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link PartialReads} for a {@link LinearCode} whose shares 0..z-1 are the z random (key) inputs
 * and whose share z + j holds data chunk j with coefficient 1 plus key terms: chunk j is share z + j
 * plus the same key terms again (characteristic 2), computed with the code's own kernel (byte-wise
 * or bit-sliced, as the chunk size dictates).
 */
final class SystematicReads implements PartialReads {
  private final LinearCode code;
  private final SharingKind kind;
  private final int n;
  private final int[] keyShares;

  /**
   * @throws IllegalArgumentException if the code does not have that form
   */
  SystematicReads(LinearCode code, SharingKind kind, int n) {
    int k = code.dataChunks();
    int z = code.threshold() - k;
    GfMatrix e = code.encoding();
    for (int i = 0; i < z + k; i++) {
      for (int c = 0; c < k + z; c++) {
        int expected = i < z ? (c == k + i ? 1 : 0) : c < k ? (c == i - z ? 1 : 0) : -1; // -1: any key term
        if (expected >= 0 && e.get(i, c) != expected) {
          throw new IllegalArgumentException(kind + ": share " + i + " is not systematic; no partial reads");
        }
      }
    }
    this.code = code;
    this.kind = kind;
    this.n = n;
    this.keyShares = new int[z];
    Arrays.setAll(keyShares, l -> l);
  }

  @Override
  public int[] keyShares() {
    return keyShares.clone();
  }

  @Override
  public int[] dataSharesFor(byte[] anyShare, int offset, int length) throws ShareDecodingException {
    int index = anyShare.length > 2 ? anyShare[2] & 0xff : -1;
    int coded = ShareHeader.check(Map.of(index, anyShare), kind, n, 1).codedLength();
    return chunksOf(coded, offset, length);
  }

  private int[] chunksOf(int coded, int offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("offset and length must not be negative, got " + offset + ", " + length);
    }
    int end = (int) Math.min(coded, (long) offset + length);
    if (offset >= end) {
      return new int[0];
    }
    int chunk = code.chunkFor(coded);
    int first = offset / chunk;
    int last = (end - 1) / chunk;
    int[] out = new int[last - first + 1];
    Arrays.setAll(out, m -> keyShares.length + first + m);
    return out;
  }

  @Override
  public byte[] read(Map<Integer, byte[]> shares, int offset, int length) throws ShareDecodingException {
    Map<Integer, byte[]> keys = new HashMap<>();
    for (int l : keyShares) {
      keys.put(l, shares.get(l));
    }
    ShareHeader.Checked checkedKeys = ShareHeader.check(keys, kind, n, keyShares.length);
    int coded = checkedKeys.codedLength();
    int chunk = code.chunkFor(coded);
    int[] needed = chunksOf(coded, offset, length);
    int end = (int) Math.min(coded, (long) offset + length);
    byte[] out = new byte[Math.max(0, end - offset)];
    if (needed.length == 0) {
      return out;
    }
    Map<Integer, byte[]> data = new HashMap<>(keys);
    for (int i : needed) {
      data.put(i, shares.get(i));
    }
    int header = ShareHeader.check(data, kind, n, data.size()).headerLength(); // same scheme, indexes, split
    int z = keyShares.length;
    int k = code.dataChunks();
    byte[][] sources = new byte[z + 1][];
    int[] offsets = new int[z + 1];
    int[] coefficients = new int[z + 1];
    Arrays.fill(offsets, header);
    for (int l = 0; l < z; l++) {
      sources[l + 1] = shares.get(l);
    }
    byte[] plain = new byte[chunk];
    for (int i : needed) {
      byte[] share = shares.get(i);
      if (share.length != header + chunk) {
        throw new ShareDecodingException("share " + i + " has " + share.length + " bytes, "
            + (header + chunk) + " expected (truncated or padded)");
      }
      int j = i - z;
      sources[0] = share;
      coefficients[0] = 1;
      for (int l = 0; l < z; l++) {
        coefficients[l + 1] = code.encoding().get(i, k + l);
      }
      LinearCode.combine(coefficients, sources, offsets, plain, 0, chunk);
      int from = Math.max(offset, j * chunk);
      int to = Math.min(end, (j + 1) * chunk);
      System.arraycopy(plain, from - j * chunk, out, from - offset, to - from);
    }
    Arrays.fill(plain, (byte) 0);
    return out;
  }
}
