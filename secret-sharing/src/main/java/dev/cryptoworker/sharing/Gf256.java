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

  /**
   * {@code dst[d..d+n) = sum over j of c[j] * src[j][s[j]..s[j]+n)}: one pass over the output per
   * four terms, so each output byte is stored once for up to four products (zero coefficients are
   * the caller's to leave out).
   */
  static void combine(int[] c, byte[][] src, int[] s, byte[] dst, int d, int n) {
    int terms = c.length;
    if (terms == 0) {
      java.util.Arrays.fill(dst, d, d + n, (byte) 0);
      return;
    }
    for (int from = 0; from < terms; from += 4) {
      boolean first = from == 0;
      switch (Math.min(4, terms - from)) {
        case 1 -> one(PRODUCT[c[from] & 0xff], src[from], s[from], dst, d, n, first);
        case 2 -> two(PRODUCT[c[from] & 0xff], src[from], s[from], PRODUCT[c[from + 1] & 0xff], src[from + 1],
            s[from + 1], dst, d, n, first);
        case 3 -> three(c, src, s, from, dst, d, n, first);
        default -> four(c, src, s, from, dst, d, n, first);
      }
    }
  }

  private static void one(byte[] t0, byte[] a, int ao, byte[] dst, int d, int n, boolean set) {
    if (set) {
      for (int i = 0; i < n; i++) {
        dst[d + i] = t0[a[ao + i] & 0xff];
      }
    } else {
      for (int i = 0; i < n; i++) {
        dst[d + i] ^= t0[a[ao + i] & 0xff];
      }
    }
  }

  private static void two(byte[] t0, byte[] a, int ao, byte[] t1, byte[] b, int bo, byte[] dst, int d, int n,
      boolean set) {
    if (set) {
      for (int i = 0; i < n; i++) {
        dst[d + i] = (byte) (t0[a[ao + i] & 0xff] ^ t1[b[bo + i] & 0xff]);
      }
    } else {
      for (int i = 0; i < n; i++) {
        dst[d + i] ^= (byte) (t0[a[ao + i] & 0xff] ^ t1[b[bo + i] & 0xff]);
      }
    }
  }

  private static void three(int[] c, byte[][] src, int[] s, int f, byte[] dst, int d, int n, boolean set) {
    byte[] t0 = PRODUCT[c[f] & 0xff];
    byte[] t1 = PRODUCT[c[f + 1] & 0xff];
    byte[] t2 = PRODUCT[c[f + 2] & 0xff];
    byte[] a = src[f];
    byte[] b = src[f + 1];
    byte[] e = src[f + 2];
    int ao = s[f];
    int bo = s[f + 1];
    int eo = s[f + 2];
    for (int i = 0; i < n; i++) {
      byte v = (byte) (t0[a[ao + i] & 0xff] ^ t1[b[bo + i] & 0xff] ^ t2[e[eo + i] & 0xff]);
      dst[d + i] = set ? v : (byte) (dst[d + i] ^ v);
    }
  }

  private static void four(int[] c, byte[][] src, int[] s, int f, byte[] dst, int d, int n, boolean set) {
    byte[] t0 = PRODUCT[c[f] & 0xff];
    byte[] t1 = PRODUCT[c[f + 1] & 0xff];
    byte[] t2 = PRODUCT[c[f + 2] & 0xff];
    byte[] t3 = PRODUCT[c[f + 3] & 0xff];
    byte[] a = src[f];
    byte[] b = src[f + 1];
    byte[] e = src[f + 2];
    byte[] g = src[f + 3];
    int ao = s[f];
    int bo = s[f + 1];
    int eo = s[f + 2];
    int go = s[f + 3];
    for (int i = 0; i < n; i++) {
      byte v = (byte) (t0[a[ao + i] & 0xff] ^ t1[b[bo + i] & 0xff] ^ t2[e[eo + i] & 0xff] ^ t3[g[go + i] & 0xff]);
      dst[d + i] = set ? v : (byte) (dst[d + i] ^ v);
    }
  }
}
