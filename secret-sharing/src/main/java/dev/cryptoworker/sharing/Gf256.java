package dev.cryptoworker.sharing;

/**
 * Arithmetic in GF(2^8) modulo the AES polynomial x^8 + x^4 + x^3 + x + 1 (0x11b), with generator
 * 3: addition is XOR; multiplication goes through log and exp tables for scalars and through one
 * 256-entry row of a full product table per coefficient for the loops over byte arrays, where the
 * throughput of every scheme is decided.
 */
final class Gf256 {
  private static final int POLYNOMIAL = 0x11b;
  private static final byte[] EXP = new byte[510];
  private static final int[] LOG = new int[256];
  /** PRODUCT[a][b] = a * b: 64 KiB, each coefficient's row one cache-friendly 256-byte table. */
  private static final byte[][] PRODUCT = new byte[256][256];

  static {
    int x = 1;
    for (int i = 0; i < 255; i++) {
      EXP[i] = (byte) x;
      EXP[i + 255] = (byte) x;
      LOG[x] = i;
      x ^= (x << 1); // multiply by the generator 3 = x + 1
      if ((x & 0x100) != 0) {
        x ^= POLYNOMIAL;
      }
    }
    for (int a = 1; a < 256; a++) {
      for (int b = 1; b < 256; b++) {
        PRODUCT[a][b] = EXP[LOG[a] + LOG[b]];
      }
    }
  }

  private Gf256() {}

  static int mul(int a, int b) {
    return PRODUCT[a & 0xff][b & 0xff] & 0xff;
  }

  /**
   * The inverse of {@code a}.
   *
   * @throws ArithmeticException for 0
   */
  static int inverse(int a) {
    if ((a & 0xff) == 0) {
      throw new ArithmeticException("0 has no inverse in GF(2^8)");
    }
    return EXP[255 - LOG[a & 0xff]] & 0xff;
  }

  static int div(int a, int b) {
    return mul(a, inverse(b));
  }

  /** The products {@code c * b} for every b: the lookup table of multiplying by {@code c}. */
  static byte[] row(int c) {
    return PRODUCT[c & 0xff];
  }

  /** {@code dst[d..d+n) ^= c * src[s..s+n)}. */
  static void mulAdd(int c, byte[] src, int s, byte[] dst, int d, int n) {
    c &= 0xff;
    if (c == 0) {
      return;
    }
    if (c == 1) {
      for (int i = 0; i < n; i++) {
        dst[d + i] ^= src[s + i];
      }
      return;
    }
    byte[] t = PRODUCT[c];
    for (int i = 0; i < n; i++) {
      dst[d + i] ^= t[src[s + i] & 0xff];
    }
  }

  /** {@code dst[d..d+n) = c * src[s..s+n)}. */
  static void mul(int c, byte[] src, int s, byte[] dst, int d, int n) {
    c &= 0xff;
    if (c == 1) {
      System.arraycopy(src, s, dst, d, n);
      return;
    }
    byte[] t = PRODUCT[c];
    for (int i = 0; i < n; i++) {
      dst[d + i] = t[src[s + i] & 0xff];
    }
  }
}
