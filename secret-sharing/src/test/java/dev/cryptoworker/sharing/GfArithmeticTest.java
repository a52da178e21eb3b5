package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The field and its matrices, against the AES field's known values and the field axioms. */
class GfArithmeticTest {
  /** Carry-less multiplication reduced by 0x11b, bit by bit: an independent reference. */
  private static int slowMul(int a, int b) {
    int p = 0;
    for (int i = 0; i < 8; i++) {
      if ((b & (1 << i)) != 0) {
        p ^= a << i;
      }
    }
    for (int bit = 14; bit >= 8; bit--) {
      if ((p & (1 << bit)) != 0) {
        p ^= 0x11b << (bit - 8);
      }
    }
    return p;
  }

  @Test
  void multiplicationMatchesTheAesFieldEverywhere() {
    // FIPS-197 section 4.2: {57} x {83} = {c1}, {57} x {13} = {fe}.
    assertEquals(0xc1, Gf256.mul(0x57, 0x83));
    assertEquals(0xfe, Gf256.mul(0x57, 0x13));
    for (int a = 0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        assertEquals(slowMul(a, b), Gf256.mul(a, b), a + " * " + b);
      }
      if (a != 0) {
        assertEquals(1, Gf256.mul(a, Gf256.inverse(a)), "inverse of " + a);
      }
    }
    assertThrows(ArithmeticException.class, () -> Gf256.inverse(0));
  }

  @Test
  void combiningArraysAgreesWithScalarProducts() {
    SplittableRandom r = new SplittableRandom(1);
    for (int terms = 1; terms <= 9; terms++) {
      int[] c = new int[terms];
      byte[][] src = new byte[terms][];
      int[] at = new int[terms];
      for (int t = 0; t < terms; t++) {
        c[t] = t == 0 ? 1 : 1 + r.nextInt(255);
        src[t] = new byte[300];
        r.nextBytes(src[t]);
        at[t] = r.nextInt(50);
      }
      byte[] dst = new byte[260];
      r.nextBytes(dst);
      Gf256.combine(c, src, at, dst, 7, 250);
      for (int i = 0; i < 250; i++) {
        int expected = 0;
        for (int t = 0; t < terms; t++) {
          expected ^= Gf256.mul(c[t], src[t][at[t] + i] & 0xff);
        }
        assertEquals(expected, dst[7 + i] & 0xff, terms + " terms, byte " + i);
      }
    }
  }

  /** Bit-sliced: symbol (q, t) is bit t of byte q of each of the 8 packets; each is multiplied by c. */
  @Test
  void bitslicedProductsMultiplyEverySymbol() {
    SplittableRandom r = new SplittableRandom(3);
    int chunk = 2048;
    int packet = chunk / 8;
    for (int c : new int[] {1, 2, 3, 0x53, 0xca, 0xff}) {
      byte[] x = new byte[chunk];
      r.nextBytes(x);
      byte[] y = new byte[chunk];
      BitslicedKernel.combine(new int[] {c}, new byte[][] {x}, new int[] {0}, y, 0, chunk);
      for (int q = 0; q < packet; q += 7) {
        for (int t = 0; t < 8; t++) {
          assertEquals(Gf256.mul(c, symbol(x, packet, q, t)), symbol(y, packet, q, t), "c=" + c + " q=" + q + " t=" + t);
        }
      }
    }
    // Sums of products: two terms at once equal the XOR of each alone.
    byte[] a = new byte[chunk];
    byte[] b = new byte[chunk];
    r.nextBytes(a);
    r.nextBytes(b);
    byte[] both = new byte[chunk];
    BitslicedKernel.combine(new int[] {7, 200}, new byte[][] {a, b}, new int[] {0, 0}, both, 0, chunk);
    byte[] first = new byte[chunk];
    byte[] second = new byte[chunk];
    BitslicedKernel.combine(new int[] {7}, new byte[][] {a}, new int[] {0}, first, 0, chunk);
    BitslicedKernel.combine(new int[] {200}, new byte[][] {b}, new int[] {0}, second, 0, chunk);
    for (int i = 0; i < chunk; i++) {
      assertEquals((byte) (first[i] ^ second[i]), both[i]);
    }
  }

  private static int symbol(byte[] chunk, int packet, int q, int t) {
    int s = 0;
    for (int b = 0; b < 8; b++) {
      s |= ((chunk[b * packet + q] >>> t) & 1) << b;
    }
    return s;
  }

  @Test
  void inversesAndLagrangeInterpolation() {
    GfMatrix v = SecretSharings.shamir(5, 4); // 5 x 5 Vandermonde at 1..5
    assertEquals(GfMatrix.identity(5), v.times(v.inverse()));
    assertEquals(GfMatrix.identity(5), v.inverse().times(v));
    assertFalse(GfMatrix.of(new int[][] {{1, 2}, {2, 4}}).isInvertible());
    // Interpolating through points and evaluating at the same points is the identity.
    int[] points = {7, 9, 200};
    assertEquals(GfMatrix.identity(3), GfMatrix.lagrange(points, points));
    // A degree-1 polynomial p(x) = 3 + 5x: values at 1 and 2 give its value at 6.
    int p1 = 3 ^ Gf256.mul(5, 1);
    int p2 = 3 ^ Gf256.mul(5, 2);
    GfMatrix l = GfMatrix.lagrange(new int[] {1, 2}, new int[] {6});
    assertEquals(3 ^ Gf256.mul(5, 6), Gf256.mul(l.get(0, 0), p1) ^ Gf256.mul(l.get(0, 1), p2));
  }

  /** Every scheme's matrix: any n - r rows invertible, and its random columns invertible on any z rows. */
  @Test
  void schemeMatricesAreMdsAndHideTheDataFromAnyZShares() {
    int[][] params = {{4, 1, 1}, {5, 1, 2}, {6, 2, 2}, {8, 2, 2}, {12, 2, 2}, {7, 0, 3}};
    for (int[] p : params) {
      int n = p[0];
      int r = p[1];
      int z = p[2];
      int k = n - r - z;
      for (GfMatrix e : new GfMatrix[] {SecretSharings.packedShamir(n, k, z), SecretSharings.secureRaid(n, r, z)}) {
        for (int[] rows : LinearCode.subsets(range(n), n - r, 10_000)) {
          assertTrue(e.rows(rows).isInvertible(), "rows " + java.util.Arrays.toString(rows) + " of n=" + n);
        }
        GfMatrix randomColumns = e.columns(k, k + z);
        for (int[] rows : LinearCode.subsets(range(n), z, 10_000)) {
          assertTrue(randomColumns.rows(rows).isInvertible(), "z-set " + java.util.Arrays.toString(rows));
        }
      }
    }
  }

  static int[] range(int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }
}
