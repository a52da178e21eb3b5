package dev.cryptoworker.sharing;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

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

  /**
   * Shares checked against each other and the scheme: sorted indexes, the coded length they agree
   * on, and the shares left out as unusable, by index, with the reason.
   */
  record Checked(int[] indexes, byte[][] shares, int codedLength, Map<Integer, String> unusable) {}

  /**
   * Checks every share's header, strictly: any share that is not one of this split is refused.
   * For reads that need exactly the shares given (partial reads).
   *
   * @throws ShareDecodingException naming the share and what is wrong with it, or if fewer than
   *     {@code threshold} are given
   */
  static Checked check(Map<Integer, byte[]> given, SharingKind kind, int n, int threshold)
      throws ShareDecodingException {
    Checked checked = usable(given, kind, n, threshold, null);
    if (!checked.unusable().isEmpty()) {
      Map.Entry<Integer, String> first = checked.unusable().entrySet().iterator().next();
      throw new ShareDecodingException("share " + first.getKey() + " " + first.getValue());
    }
    return checked;
  }

  /**
   * The shares that can be used: a share whose header is not this scheme's, names another index,
   * disagrees with the majority on the coded length, or whose size does not fit that length ({@code
   * shareLength}; null: any size) is left out as an erasure and named in {@link Checked#unusable()},
   * so that one faulty store does not make a value unreadable while enough good shares remain.
   *
   * @throws ShareDecodingException if fewer than {@code threshold} shares are usable (naming those
   *     left out), or if the shares split evenly between coded lengths
   */
  static Checked usable(Map<Integer, byte[]> given, SharingKind kind, int n, int threshold,
      IntUnaryOperator shareLength) throws ShareDecodingException {
    Map<Integer, String> unusable = new TreeMap<>();
    Map<Integer, Integer> lengths = new TreeMap<>(); // index -> coded length, for well-formed headers
    for (Map.Entry<Integer, byte[]> e : given.entrySet()) {
      int index = e.getKey();
      byte[] share = e.getValue();
      if (index < 0 || index >= n) {
        throw new ShareDecodingException("share index " + index + " is outside [0, " + n + ")");
      }
      if (share == null) {
        continue;
      }
      String problem = headerProblem(share, kind, index);
      if (problem != null) {
        unusable.put(index, problem);
      } else {
        lengths.put(index, codedLength(share));
      }
    }
    Map<Integer, Integer> votes = new TreeMap<>();
    lengths.values().forEach(l -> votes.merge(l, 1, Integer::sum));
    int length = -1;
    int most = 0;
    boolean tie = false;
    for (Map.Entry<Integer, Integer> v : votes.entrySet()) {
      if (v.getValue() > most) {
        length = v.getKey();
        most = v.getValue();
        tie = false;
      } else if (v.getValue() == most) {
        tie = true;
      }
    }
    if (tie) {
      throw new ShareDecodingException("shares disagree on the value's length (" + votes.keySet()
          + " bytes, as many shares each): they belong to different values or versions");
    }
    byte[][] byIndex = new byte[n][]; // sorted by index without a tree: n is at most 64
    int count = 0;
    for (Map.Entry<Integer, Integer> l : lengths.entrySet()) {
      int index = l.getKey();
      byte[] share = given.get(index);
      if (l.getValue() != length) {
        unusable.put(index, "disagrees with the others on the value's length (" + l.getValue() + " bytes, not "
            + length + "): it belongs to another value or version");
        continue;
      }
      int expected = shareLength == null ? share.length : shareLength.applyAsInt(length);
      if (expected < LENGTH) {
        unusable.put(index, "declares a value of " + length + " bytes, which no share can hold");
      } else if (share.length != expected) {
        unusable.put(index, "has " + share.length + " bytes, " + expected + " expected for a value of " + length
            + " bytes (truncated or padded)");
      } else {
        byIndex[index] = share;
        count++;
      }
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
      StringBuilder why = new StringBuilder();
      unusable.forEach((index, problem) -> why.append("; share ").append(index).append(' ').append(problem));
      throw new ShareDecodingException("need " + threshold + " shares, have " + count + " (shares "
          + Arrays.toString(indexes) + ")" + why);
    }
    return new Checked(indexes, shares, length, unusable);
  }

  /** What is wrong with {@code share}'s header as share {@code index} of {@code kind}, or null. */
  private static String headerProblem(byte[] share, SharingKind kind, int index) {
    if (share.length < LENGTH || share[0] != FORMAT) {
      return "is not a share (" + share.length + " bytes, format byte "
          + (share.length == 0 ? "none" : Integer.toString(share[0] & 0xff)) + ")";
    }
    if (share[1] != kind.ordinal()) {
      int stored = share[1] & 0xff;
      return "was made by scheme " + (stored < SharingKind.values().length ? SharingKind.values()[stored] : "#" + stored)
          + ", not " + kind;
    }
    if ((share[2] & 0xff) != index) {
      return "says it is share " + (share[2] & 0xff) + ": stored under the wrong index (moved between stores?)";
    }
    if (codedLength(share) < 0) {
      return "declares a negative length";
    }
    return null;
  }

  private static int codedLength(byte[] share) {
    return ((share[3] & 0xff) << 24) | ((share[4] & 0xff) << 16) | ((share[5] & 0xff) << 8) | (share[6] & 0xff);
  }
}
