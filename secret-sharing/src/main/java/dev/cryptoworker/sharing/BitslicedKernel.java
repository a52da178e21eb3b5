package dev.cryptoworker.sharing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Products in GF(2^8) by XOR alone, for large chunks (Jerasure's bit-matrix coding, Blomer et al.'s
 * Cauchy Reed-Solomon): a chunk is cut into 8 equal packets, packet b holding bit b of every
 * symbol, so multiplying every symbol by c is, for each output packet, the XOR of the input packets
 * that c's 8 x 8 bit matrix selects. XOR loops over byte arrays compile to SIMD instructions, where
 * table lookups cannot; the code is the same linear code as the byte-wise one (same matrix, each
 * symbol's bits spread over the packets), so every property of the scheme holds alike.
 */
final class BitslicedKernel {
  /** PLANES[c][b]: bit b' set if output plane b of c * x takes input plane b'. */
  private static final int[][] PLANES = new int[256][8];
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** Sources XORed per pass over an output packet. */
  private static final int PER_PASS = 4;

  static {
    for (int c = 0; c < 256; c++) {
      for (int in = 0; in < 8; in++) {
        int image = Gf256.mul(c, 1 << in); // c times the symbol with only bit `in` set
        for (int out = 0; out < 8; out++) {
          if ((image & (1 << out)) != 0) {
            PLANES[c][out] |= 1 << in;
          }
        }
      }
    }
  }

  private BitslicedKernel() {}

  /**
   * {@code dst[d..d+chunk) = sum over j of c[j] * src[j][s[j]..s[j]+chunk)}, chunks bit-sliced into 8
   * packets; {@code chunk} must be a multiple of 64.
   */
  static void combine(int[] c, byte[][] src, int[] s, byte[] dst, int d, int chunk) {
    int packet = chunk / 8;
    byte[][] pending = new byte[PER_PASS][];
    int[] pendingAt = new int[PER_PASS];
    for (int out = 0; out < 8; out++) {
      int count = 0;
      boolean first = true;
      int outAt = d + out * packet;
      for (int j = 0; j < c.length; j++) {
        int planes = PLANES[c[j] & 0xff][out];
        while (planes != 0) {
          int in = Integer.numberOfTrailingZeros(planes);
          planes &= planes - 1;
          pending[count] = src[j];
          pendingAt[count++] = s[j] + in * packet;
          if (count == PER_PASS) {
            xor(pending, pendingAt, count, dst, outAt, packet, first);
            first = false;
            count = 0;
          }
        }
      }
      if (count > 0 || first) {
        xor(pending, pendingAt, count, dst, outAt, packet, first);
      }
    }
  }

  /** {@code dst = (first ? 0 : dst) ^ a[0] ^ ... ^ a[count - 1]} over {@code n} bytes. */
  private static void xor(byte[][] a, int[] at, int count, byte[] dst, int d, int n, boolean first) {
    switch (count) {
      case 0 -> java.util.Arrays.fill(dst, d, d + n, (byte) 0);
      case 1 -> {
        if (first) {
          System.arraycopy(a[0], at[0], dst, d, n);
        } else {
          xor1(a[0], at[0], dst, d, n);
        }
      }
      case 2 -> xor2(a[0], at[0], a[1], at[1], dst, d, n, first);
      case 3 -> xor3(a[0], at[0], a[1], at[1], a[2], at[2], dst, d, n, first);
      default -> xor4(a[0], at[0], a[1], at[1], a[2], at[2], a[3], at[3], dst, d, n, first);
    }
  }

  // Eight bytes at a time through a long view of the arrays (packets are multiples of 8 bytes when
  // chunks are): C2 turns these into single loads and stores.

  private static long at(byte[] a, int i) {
    return (long) LONGS.get(a, i);
  }

  private static void xor1(byte[] a, int ao, byte[] dst, int d, int n) {
    for (int i = 0; i < n; i += 8) {
      LONGS.set(dst, d + i, at(dst, d + i) ^ at(a, ao + i));
    }
  }

  private static void xor2(byte[] a, int ao, byte[] b, int bo, byte[] dst, int d, int n, boolean first) {
    for (int i = 0; i < n; i += 8) {
      long v = at(a, ao + i) ^ at(b, bo + i);
      LONGS.set(dst, d + i, first ? v : v ^ at(dst, d + i));
    }
  }

  private static void xor3(byte[] a, int ao, byte[] b, int bo, byte[] e, int eo, byte[] dst, int d, int n,
      boolean first) {
    for (int i = 0; i < n; i += 8) {
      long v = at(a, ao + i) ^ at(b, bo + i) ^ at(e, eo + i);
      LONGS.set(dst, d + i, first ? v : v ^ at(dst, d + i));
    }
  }

  private static void xor4(byte[] a, int ao, byte[] b, int bo, byte[] e, int eo, byte[] g, int go, byte[] dst, int d,
      int n, boolean first) {
    for (int i = 0; i < n; i += 8) {
      long v = at(a, ao + i) ^ at(b, bo + i) ^ at(e, eo + i) ^ at(g, go + i);
      LONGS.set(dst, d + i, first ? v : v ^ at(dst, d + i));
    }
  }
}
