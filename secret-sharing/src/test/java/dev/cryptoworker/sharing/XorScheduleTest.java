package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Scheduled bit-sliced products against the definition: every symbol of every output chunk equals
 * the GF(2^8) sum of the coefficients times the sources' symbols (symbol (q, t) being bit t of byte
 * q of each of the 8 packets), computed here byte by byte with {@link Gf256#mul}.
 */
class XorScheduleTest {
  @Test
  void schemeEncodingsAndDecodingsEqualTheProductSymbolBySymbol() {
    SplittableRandom random = new SplittableRandom(13);
    for (XorScheduleShapes.Shape shape : XorScheduleShapes.schemeMatrices()) {
      check(shape.coefficients(), random, shape.name());
    }
  }

  @Test
  void randomMatricesCopiesAndZeroRowsEqualTheProduct() {
    SplittableRandom random = new SplittableRandom(17);
    for (XorScheduleShapes.Shape shape : XorScheduleShapes.randomMatrices(random)) {
      check(shape.coefficients(), random, shape.name());
    }
  }

  /** The table is worth building where many outputs share sources, and then loads fewer packets. */
  @Test
  void secureRaidDataTakeFewerLoadsThanBitsOfTheirBitMatrices() {
    int k = 8;
    GfMatrix e = SecretSharings.secureRaid(k + 4, 2, 2);
    GfMatrix inverse = e.rows(GfArithmeticTest.range(k + 2)).inverse();
    int[][] data = XorScheduleShapes.rowsOf(inverse, k);
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

  private static void check(int[][] c, SplittableRandom random, String what) {
    XorSchedule schedule = XorSchedule.of(c);
    for (int chunk : XorScheduleShapes.CHUNKS) {
      XorScheduleShapes.Chunks sources = XorScheduleShapes.sources(c[0].length, chunk, random);
      XorScheduleShapes.Chunks outputs = XorScheduleShapes.outputs(c.length, chunk, random);
      byte[][] src = sources.arrays();
      int[] at = sources.offsets();
      byte[][] out = outputs.arrays();
      int[] outAt = outputs.offsets();
      schedule.run(src, at, out, outAt, chunk);
      int packet = chunk / 8;
      for (int o = 0; o < c.length; o++) {
        for (int q = 0; q < packet; q++) {
          for (int t = 0; t < 8; t++) {
            int expected = 0;
            for (int j = 0; j < c[0].length; j++) {
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
