package dev.cryptoworker.sharing;

import java.math.BigInteger;

/**
 * Arithmetic in the prime field of p = 2^127 - 1 (a Mersenne prime), where {@link SharingKind#SHAMIR_P127}
 * shares signed 64-bit values.
 *
 * <p>Why this prime: a value is a signed long, |x| <= 2^63, stored as its residue (x + p for a
 * negative x). A sum of N values has |S| <= N * 2^63, and it reads back exactly while |S| <= (p -
 * 1) / 2 = 2^126 - 1: for any N below 2^63 rows (|S| <= (2^63 - 1) * 2^63 = 2^126 - 2^63), far
 * beyond the 2^32 rows asked of it. The 61-bit Mersenne prime would not hold one 64-bit value.
 * Elements are stored in 16 bytes, big-endian. Keyless and without randomness: region servers add with it.
 */
final class Mersenne127 {
  static final BigInteger P = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
  private static final BigInteger HALF = P.shiftRight(1);
  /** Bytes of one stored element. */
  static final int BYTES = 16;

  private Mersenne127() {}

  /** The residue of signed {@code value}. */
  static BigInteger residue(long value) {
    BigInteger v = BigInteger.valueOf(value);
    return value < 0 ? v.add(P) : v;
  }

  /** The signed integer whose residue is {@code e}: e itself up to (p - 1) / 2, else e - p. */
  static BigInteger signed(BigInteger e) {
    return e.compareTo(HALF) <= 0 ? e : e.subtract(P);
  }

  static BigInteger add(BigInteger a, BigInteger b) {
    BigInteger s = a.add(b);
    return s.compareTo(P) >= 0 ? s.subtract(P) : s;
  }

  static BigInteger sub(BigInteger a, BigInteger b) {
    BigInteger d = a.subtract(b);
    return d.signum() < 0 ? d.add(P) : d;
  }

  static BigInteger mul(BigInteger a, BigInteger b) {
    return a.multiply(b).mod(P);
  }

  static BigInteger inverse(BigInteger a) {
    return a.modInverse(P);
  }

  /** Writes {@code e} as {@value #BYTES} big-endian bytes at {@code out[offset]}. */
  static void write(BigInteger e, byte[] out, int offset) {
    byte[] b = e.toByteArray(); // minimal two's complement, at most 16 bytes plus a sign byte
    int length = Math.min(b.length, BYTES);
    System.arraycopy(b, b.length - length, out, offset + BYTES - length, length);
  }

  /**
   * The element stored at {@code in[offset]}.
   *
   * @throws IllegalArgumentException if the bytes are p or more: not an element
   */
  static BigInteger read(byte[] in, int offset) {
    byte[] b = new byte[BYTES];
    System.arraycopy(in, offset, b, 0, BYTES);
    BigInteger e = new BigInteger(1, b);
    if (e.compareTo(P) >= 0) {
      throw new IllegalArgumentException("16 bytes that are not an element of the field of 2^127 - 1");
    }
    return e;
  }
}
