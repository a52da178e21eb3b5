package dev.cryptoworker.sharing;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * The header of every share: format {@value #FORMAT}, the scheme, the share's index, the length of
 * what was coded (the value, or for AONT-RS and AES-RS the package) and the split's id, 8 random
 * bytes drawn once per split, the same in each of its shares: {@value #LENGTH} bytes. Public
 * metadata: it lets a reader refuse a share of another scheme, one stored under the wrong index, or
 * one of another split (another write stored at the same place) rather than decode shares of two
 * splits together into a wrong value. Shares of format {@value #FORMAT_1} ({@value #LENGTH_1}
 * bytes, no split id: written before split ids) are still read; they are told apart only by length.
 */
final class ShareHeader {
  static final int LENGTH = 15;
  static final byte FORMAT = 2;
  static final int LENGTH_1 = 7;
  static final byte FORMAT_1 = 1;
  static final int SPLIT_ID_LENGTH = 8;

  private ShareHeader() {}

  /** Writes a format-{@value #FORMAT} header into {@code share}'s first {@value #LENGTH} bytes. */
  static void write(byte[] share, SharingKind kind, int index, int codedLength, byte[] splitId) {
    share[0] = FORMAT;
    share[1] = (byte) kind.ordinal();
    share[2] = (byte) index;
    share[3] = (byte) (codedLength >>> 24);
    share[4] = (byte) (codedLength >>> 16);
    share[5] = (byte) (codedLength >>> 8);
    share[6] = (byte) codedLength;
    System.arraycopy(splitId, 0, share, LENGTH_1, SPLIT_ID_LENGTH);
  }

  /** The header of {@code template} (a share of the same split, any format) as share {@code index}'s. */
  static void writeLike(byte[] template, byte[] share, int index) {
    System.arraycopy(template, 0, share, 0, length(template));
    share[2] = (byte) index;
  }

  /** The length of {@code share}'s header (by its format byte; the share is known well formed). */
  static int length(byte[] share) {
    return share[0] == FORMAT_1 ? LENGTH_1 : LENGTH;
  }

  /**
   * Shares checked against each other and the scheme: sorted indexes, the coded length and header
   * length they agree on, and the shares left out as unusable, by index, with the reason.
   */
  record Checked(int[] indexes, byte[][] shares, int codedLength, int headerLength, Map<Integer, String> unusable) {}

  /** What identifies a split among well-formed shares: its coded length, header form and id. */
  private record Split(int codedLength, int headerLength, long id) {}

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
   * The shares that can be used: those of the split most shares belong to. A share whose header is
   * not this scheme's, names another index, belongs to another split (another coded length, or
   * another split id: another write stored at the same place), or whose size does not fit the coded
   * length ({@code bodyLength}: the bytes after the header for a coded length; null: any size) is
   * left out as an erasure and named in {@link Checked#unusable()}, so that one faulty store does
   * not make a value unreadable while enough good shares remain.
   *
   * @throws ShareDecodingException if fewer than {@code threshold} shares are usable (naming those
   *     left out), or if the shares split evenly between splits
   */
  static Checked usable(Map<Integer, byte[]> given, SharingKind kind, int n, int threshold,
      IntUnaryOperator bodyLength) throws ShareDecodingException {
    Map<Integer, String> unusable = new TreeMap<>();
    Map<Integer, Split> splits = new TreeMap<>(); // index -> split, for well-formed headers
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
        splits.put(index, splitOf(share));
      }
    }
    Split split = majority(splits);
    byte[][] byIndex = new byte[n][]; // sorted by index without a tree: n is at most 64
    int count = 0;
    int length = split == null ? -1 : split.codedLength();
    for (Map.Entry<Integer, Split> s : splits.entrySet()) {
      int index = s.getKey();
      byte[] share = given.get(index);
      if (s.getValue().codedLength() != length) {
        unusable.put(index, "disagrees with the others on the value's length (" + s.getValue().codedLength()
            + " bytes, not " + length + "): it belongs to another value or version");
        continue;
      }
      if (!s.getValue().equals(split)) {
        unusable.put(index, "belongs to another split than the others (another write of a value of the same length,"
            + " stored at the same place)");
        continue;
      }
      int header = split.headerLength();
      long expected = bodyLength == null ? share.length : (long) header + bodyLength.applyAsInt(length);
      if (expected < header) {
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
    return new Checked(indexes, shares, length, split == null ? LENGTH : split.headerLength(), unusable);
  }

  /**
   * The split most shares belong to (null if none is well formed).
   *
   * @throws ShareDecodingException if two splits have as many shares each
   */
  private static Split majority(Map<Integer, Split> splits) throws ShareDecodingException {
    Map<Split, Integer> votes = new java.util.LinkedHashMap<>();
    splits.values().forEach(s -> votes.merge(s, 1, Integer::sum));
    Split most = null;
    Split tied = null;
    for (Map.Entry<Split, Integer> v : votes.entrySet()) {
      if (most == null || v.getValue() > votes.get(most)) {
        most = v.getKey();
        tied = null;
      } else if (v.getValue().equals(votes.get(most))) {
        tied = v.getKey();
      }
    }
    if (tied == null) {
      return most;
    }
    if (tied.codedLength() != most.codedLength()) {
      throw new ShareDecodingException("shares disagree on the value's length (" + most.codedLength() + " and "
          + tied.codedLength() + " bytes, as many shares each): they belong to different values or versions");
    }
    throw new ShareDecodingException("shares belong to different splits (as many shares each): different writes"
        + " stored at the same place, such as two writers at one timestamp; none is decoded");
  }

  private static Split splitOf(byte[] share) {
    if (share[0] == FORMAT_1) {
      return new Split(codedLength(share), LENGTH_1, 0);
    }
    long id = 0;
    for (int i = LENGTH_1; i < LENGTH; i++) {
      id = (id << 8) | (share[i] & 0xff);
    }
    return new Split(codedLength(share), LENGTH, id);
  }

  /** What is wrong with {@code share}'s header as share {@code index} of {@code kind}, or null. */
  private static String headerProblem(byte[] share, SharingKind kind, int index) {
    boolean format1 = share.length >= LENGTH_1 && share[0] == FORMAT_1;
    if (!format1 && (share.length < LENGTH || share[0] != FORMAT)) {
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
