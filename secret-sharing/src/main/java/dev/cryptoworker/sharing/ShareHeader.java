package dev.cryptoworker.sharing;

import java.util.Arrays;
import java.util.Map;

/**
 * The 7-byte header of every share: format {@value #FORMAT}, the scheme, the share's index and the
 * length of what was coded (the value, or for AONT-RS and AES-RS the package). Public metadata: it
 * lets a reader refuse a share of another scheme or one stored under the wrong index.
 */
final class ShareHeader {
  static final int LENGTH = 7;
  static final byte FORMAT = 1;

  private ShareHeader() {}

  static void write(byte[] share, SharingKind kind, int index, int codedLength) {
    share[0] = FORMAT;
    share[1] = (byte) kind.ordinal();
    share[2] = (byte) index;
    share[3] = (byte) (codedLength >>> 24);
    share[4] = (byte) (codedLength >>> 16);
    share[5] = (byte) (codedLength >>> 8);
    share[6] = (byte) codedLength;
  }

  /** Shares checked against each other and the scheme: sorted indexes, and the coded length they agree on. */
  record Checked(int[] indexes, byte[][] shares, int codedLength) {}

  /**
   * Checks every share's header.
   *
   * @throws ShareDecodingException naming the share and what is wrong with it, or if fewer than
   *     {@code threshold} are given
   */
  static Checked check(Map<Integer, byte[]> given, SharingKind kind, int n, int threshold)
      throws ShareDecodingException {
    byte[][] byIndex = new byte[n][]; // sorted by index without a tree: n is at most 64
    int count = 0;
    Integer length = null;
    for (Map.Entry<Integer, byte[]> e : given.entrySet()) {
      int index = e.getKey();
      byte[] share = e.getValue();
      if (index < 0 || index >= n) {
        throw new ShareDecodingException("share index " + index + " is outside [0, " + n + ")");
      }
      if (share == null) {
        continue;
      }
      if (share.length < LENGTH || share[0] != FORMAT) {
        throw new ShareDecodingException("share " + index + " is not a share (" + share.length
            + " bytes, format byte " + (share.length == 0 ? "none" : Integer.toString(share[0] & 0xff)) + ")");
      }
      if (share[1] != kind.ordinal()) {
        int stored = share[1] & 0xff;
        throw new ShareDecodingException("share " + index + " was made by scheme "
            + (stored < SharingKind.values().length ? SharingKind.values()[stored] : "#" + stored) + ", not " + kind);
      }
      if ((share[2] & 0xff) != index) {
        throw new ShareDecodingException("share " + index + " says it is share " + (share[2] & 0xff)
            + ": stored under the wrong index (moved between stores?)");
      }
      int coded = ((share[3] & 0xff) << 24) | ((share[4] & 0xff) << 16) | ((share[5] & 0xff) << 8) | (share[6] & 0xff);
      if (length == null) {
        length = coded;
      } else if (length != coded) {
        throw new ShareDecodingException("shares disagree on the value's length (" + length + " and " + coded
            + " bytes, share " + index + "): they belong to different values or versions");
      }
      byIndex[index] = share;
      count++;
    }
    int[] indexes = new int[count];
    byte[][] shares = new byte[count][];
    for (int i = 0, m = 0; i < n; i++) {
      if (byIndex[i] != null) {
        indexes[m] = i;
        shares[m++] = byIndex[i];
      }
    }
    if (count < threshold) {
      throw new ShareDecodingException("need " + threshold + " shares, have " + count + " (shares "
          + Arrays.toString(indexes) + ")");
    }
    return new Checked(indexes, shares, length);
  }
}
