package dev.cryptoworker.sharing;

import java.math.BigInteger;
import java.nio.ByteBuffer;

/**
 * One store's sum of its {@link SharingKind#SHAMIR_P127} shares of many values: keyless, what region
 * servers compute next to the shares. Adding shares is adding their field elements mod 2^127 - 1;
 * the sum is a share of the values' sum. Not thread-safe.
 *
 * <p>Wire form ({@link #toBytes}): {@code index (1) || sum (16, big-endian) || count (8)}; an empty
 * sum (no share added) has index 255.
 */
public final class PrimeShareSum {
  /** Bytes of {@link #toBytes()}. */
  public static final int LENGTH = 1 + Mersenne127.BYTES + 8;
  private static final int NO_INDEX = 255;
  private static final int SHARE_LENGTH = ShareHeader.LENGTH + Mersenne127.BYTES;

  private int index = NO_INDEX;
  private BigInteger sum = BigInteger.ZERO;
  private long count;

  public PrimeShareSum() {}

  private PrimeShareSum(int index, BigInteger sum, long count) {
    this.index = index;
    this.sum = sum;
    this.count = count;
  }

  /**
   * Adds one stored share.
   *
   * @throws IllegalArgumentException saying why, if it is not a SHAMIR_P127 share of an 8-byte
   *     value, or its index differs from the shares added before (one store holds one index)
   */
  public void add(byte[] share) {
    if (share.length != SHARE_LENGTH || share[0] != ShareHeader.FORMAT
        || share[1] != SharingKind.SHAMIR_P127.ordinal()) {
      throw new IllegalArgumentException("not a " + SharingKind.SHAMIR_P127 + " share (" + share.length + " bytes, "
          + SHARE_LENGTH + " expected, format " + (share.length > 0 ? share[0] : -1) + ", scheme byte "
          + (share.length > 1 ? share[1] : -1) + ")");
    }
    int shareIndex = share[2] & 0xff;
    if (index != NO_INDEX && shareIndex != index) {
      throw new IllegalArgumentException("shares " + index + " and " + shareIndex + " in one store: a share was stored"
          + " under another store's index");
    }
    if (ByteBuffer.wrap(share, 3, 4).getInt() != Long.BYTES) {
      throw new IllegalArgumentException("a share of a value of " + ByteBuffer.wrap(share, 3, 4).getInt()
          + " bytes, not an 8-byte long");
    }
    sum = Mersenne127.add(sum, Mersenne127.read(share, ShareHeader.LENGTH));
    index = shareIndex;
    count++;
  }

  /** The share index of the shares added; -1 if none was. */
  public int index() {
    return index == NO_INDEX ? -1 : index;
  }

  /** How many shares were added. */
  public long count() {
    return count;
  }

  BigInteger sum() {
    return sum;
  }

  /**
   * The sum of this and {@code other} (partials of disjoint rows of one store: its regions).
   *
   * @throws IllegalArgumentException if both hold shares, under different indexes
   */
  public PrimeShareSum plus(PrimeShareSum other) {
    if (index != NO_INDEX && other.index != NO_INDEX && index != other.index) {
      throw new IllegalArgumentException("partial sums of shares " + index + " and " + other.index
          + " from one store");
    }
    return new PrimeShareSum(index != NO_INDEX ? index : other.index, Mersenne127.add(sum, other.sum),
        count + other.count);
  }

  public byte[] toBytes() {
    byte[] out = new byte[LENGTH];
    out[0] = (byte) index;
    Mersenne127.write(sum, out, 1);
    ByteBuffer.wrap(out, 1 + Mersenne127.BYTES, 8).putLong(count);
    return out;
  }

  /**
   * Parses {@link #toBytes()}.
   *
   * @throws IllegalArgumentException if malformed
   */
  public static PrimeShareSum parse(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException("a partial sum of shares has " + LENGTH + " bytes, not " + bytes.length);
    }
    long count = ByteBuffer.wrap(bytes, 1 + Mersenne127.BYTES, 8).getLong();
    if (count < 0 || ((bytes[0] & 0xff) == NO_INDEX) != (count == 0)) {
      throw new IllegalArgumentException("a partial sum of shares whose count (" + count + ") and index ("
          + (bytes[0] & 0xff) + ") disagree");
    }
    return new PrimeShareSum(bytes[0] & 0xff, Mersenne127.read(bytes, 1), count);
  }
}
