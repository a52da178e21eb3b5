package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Scheduled bit-sliced products against the definition: every symbol of every output chunk equals
 * the GF(2^8) sum of the coefficients times the sources' symbols (symbol (q, t) being bit t of byte
 * q of each of the 8 packets), computed here byte by byte with {@link Gf256#mul}.
 */
class XorScheduleTest {
  /** Chunk sizes: one 64-byte packet each; packets of 72 bytes (a word past the 64-byte blocks); several stripes, the last short. */
  private static final int[] CHUNKS = {512, 576, 8192 + 64};

  @Test
  void schemeEncodingsAndDecodingsEqualTheProductSymbolBySymbol() {
    SplittableRandom random = new SplittableRandom(13);
    for (int k : new int[] {2, 4, 8}) {
      for (int r = 1; r <= 2; r++) {
        for (int z = 1; z <= 2; z++) {
          int n = k + r + z;
          for (GfMatrix e : new GfMatrix[] {SecretSharings.secureRaid(n, r, z), SecretSharings.packedShamir(n, k, z),
              SecretSharings.reedSolomon(k + r, k)}) {
            int t = e.columns();
            check(rowsOf(e, e.rows()), random, "encoding k=" + k + " r=" + r + " z=" + z);
            int[] first = GfArithmeticTest.range(t);
            int[] last = new int[t];
            Arrays.setAll(last, i -> e.rows() - t + i);
            for (int[] subset : new int[][] {first, last}) {
              GfMatrix inverse = e.rows(subset).inverse();
              check(rowsOf(inverse, t), random, "decoding k=" + k + " r=" + r + " z=" + z);
              check(rowsOf(inverse, k), random, "data of k=" + k + " r=" + r + " z=" + z);
            }
          }
        }
      }
    }
  }

  @Test
  void randomMatricesCopiesAndZeroRowsEqualTheProduct() {
    SplittableRandom random = new SplittableRandom(17);
    for (int trial = 0; trial < 40; trial++) {
      int outputs = 1 + random.nextInt(12);
      int sources = 1 + random.nextInt(12);
      int[][] c = new int[outputs][sources];
      for (int[] row : c) {
        switch (random.nextInt(4)) {
          case 0 -> row[random.nextInt(sources)] = 1; // a copy
          case 1 -> { } // all zero
          default -> Arrays.setAll(row, j -> random.nextInt(3) == 0 ? 0 : random.nextInt(256));
        }
      }
      check(c, random, "random " + outputs + "x" + sources);
    }
  }

  /** The table is worth building where many outputs share sources, and then loads fewer packets. */
  @Test
  void secureRaidDataTakeFewerLoadsThanBitsOfTheirBitMatrices() {
    int k = 8;
    GfMatrix e = SecretSharings.secureRaid(k + 4, 2, 2);
    GfMatrix inverse = e.rows(GfArithmeticTest.range(k + 2)).inverse();
    int[][] data = rowsOf(inverse, k);
    int bits = 0;
    for (int[] row : data) {
      for (int c : row) {
        for (int b = 0; b < 8; b++) {
          bits += Integer.bitCount(BitslicedKernel.planes(c, b));
        }
      }
    }
    int loads = XorSchedule.of(data).loads();
    assertTrue(loads < bits * 2 / 3, loads + " loads for " + bits + " bits");
  }

  /** One schedule run with layouts alternating (it keeps the last one's offsets) stays exact. */
  @Test
  void exactWhenLayoutsAlternate() {
    SplittableRandom random = new SplittableRandom(13);
    GfMatrix e = SecretSharings.secureRaid(8 + 4, 2, 2);
    int[][] c = rowsOf(e.rows(GfArithmeticTest.range(8 + 2)).inverse(), 8);
    XorSchedule schedule = XorSchedule.of(c);
    for (int round = 0; round < 2; round++) {
      check(schedule, c, random, "alternating layouts, round " + round);
    }
  }

  private static int[][] rowsOf(GfMatrix m, int rows) {
    int[][] out = new int[rows][];
    Arrays.setAll(out, m::row);
    return out;
  }

  private static void check(int[][] c, SplittableRandom random, String what) {
    check(XorSchedule.of(c), c, random, what);
  }

  private static void check(XorSchedule schedule, int[][] c, SplittableRandom random, String what) {
    int outputs = c.length;
    int sources = c[0].length;
    for (int chunk : CHUNKS) {
      // Sources at odd offsets in their arrays, two of them sharing one array, as shares and value chunks do.
      byte[][] src = new byte[sources][];
      int[] at = new int[sources];
      byte[] shared = new byte[7 + 2 * chunk];
      random.nextBytes(shared);
      for (int j = 0; j < sources; j++) {
        if (j < 2) {
          src[j] = shared;
          at[j] = 7 + j * chunk;
        } else {
          src[j] = new byte[chunk + 3];
          random.nextBytes(src[j]);
          at[j] = 3;
        }
      }
      byte[][] out = new byte[outputs][];
      int[] outAt = new int[outputs];
      for (int o = 0; o < outputs; o++) {
        out[o] = new byte[chunk + 5];
        random.nextBytes(out[o]); // whatever was there is overwritten
        outAt[o] = 5;
      }
      schedule.run(src, at, out, outAt, chunk);
      int packet = chunk / 8;
      for (int o = 0; o < outputs; o++) {
        for (int q = 0; q < packet; q++) {
          for (int t = 0; t < 8; t++) {
            int expected = 0;
            for (int j = 0; j < sources; j++) {
              expected ^= Gf256.mul(c[o][j], symbol(src[j], at[j], packet, q, t));
            }
            int actual = symbol(out[o], outAt[o], packet, q, t);
            if (expected != actual) {
              assertEquals(expected, actual, what + ", chunk " + chunk + ", output " + o + ", symbol " + q + "/" + t);
            }
          }
        }
      }
    }
  }

  private static int symbol(byte[] a, int at, int packet, int q, int t) {
    int s = 0;
    for (int b = 0; b < 8; b++) {
      s |= ((a[at + b * packet + q] >>> t) & 1) << b;
    }
    return s;
  }
}
