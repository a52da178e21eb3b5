package dev.cryptoworker.sharing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The matrices and chunk layouts the schedule tests run (here and in secret-sharing-vector, through
 * this module's test jar): every scheme's encoding and decodings for k in {2, 4, 8} and r, z in
 * {1, 2}, random matrices with copies and zero rows, and chunks laid out as shares and values are.
 */
final class XorScheduleShapes {
  /** Chunk sizes: one 64-byte packet each; packets of 72 bytes (a word past the 64-byte blocks); several stripes, the last short. */
  static final int[] CHUNKS = {512, 576, 8192 + 64};

  private XorScheduleShapes() {}

  /** A coefficient matrix (outputs x sources) and what it is. */
  record Shape(String name, int[][] coefficients) {}

  /** Chunks in arrays at offsets. */
  record Chunks(byte[][] arrays, int[] offsets) {}

  /** Encodings of Secure RAID, packed Shamir and Reed-Solomon, and their inverses on the first and last rows (all rows and the data rows). */
  static List<Shape> schemeMatrices() {
    List<Shape> shapes = new ArrayList<>();
    for (int k : new int[] {2, 4, 8}) {
      for (int r = 1; r <= 2; r++) {
        for (int z = 1; z <= 2; z++) {
          int n = k + r + z;
          String which = " k=" + k + " r=" + r + " z=" + z;
          for (GfMatrix e : new GfMatrix[] {SecretSharings.secureRaid(n, r, z), SecretSharings.packedShamir(n, k, z),
              SecretSharings.reedSolomon(k + r, k)}) {
            int t = e.columns();
            shapes.add(new Shape("encoding" + which, rowsOf(e, e.rows())));
            int[] first = GfArithmeticTest.range(t);
            int[] last = new int[t];
            Arrays.setAll(last, i -> e.rows() - t + i);
            for (int[] subset : new int[][] {first, last}) {
              GfMatrix inverse = e.rows(subset).inverse();
              shapes.add(new Shape("decoding" + which, rowsOf(inverse, t)));
              shapes.add(new Shape("data of" + which, rowsOf(inverse, k)));
            }
          }
        }
      }
    }
    return shapes;
  }

  /** Random matrices up to 12 x 12, a quarter of the rows copies and a quarter all zero. */
  static List<Shape> randomMatrices(SplittableRandom random) {
    List<Shape> shapes = new ArrayList<>();
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
      shapes.add(new Shape("random " + outputs + "x" + sources, c));
    }
    return shapes;
  }

  static int[][] rowsOf(GfMatrix m, int rows) {
    int[][] out = new int[rows][];
    Arrays.setAll(out, m::row);
    return out;
  }

  /** Random source chunks at odd offsets in their arrays, the first two sharing one array, as shares and value chunks do. */
  static Chunks sources(int count, int chunk, SplittableRandom random) {
    byte[][] src = new byte[count][];
    int[] at = new int[count];
    byte[] shared = new byte[7 + 2 * chunk];
    random.nextBytes(shared);
    for (int j = 0; j < count; j++) {
      if (j < 2) {
        src[j] = shared;
        at[j] = 7 + j * chunk;
      } else {
        src[j] = new byte[chunk + 3];
        random.nextBytes(src[j]);
        at[j] = 3;
      }
    }
    return new Chunks(src, at);
  }

  /** Output chunks at offset 5, filled with random bytes (whatever was there is overwritten). */
  static Chunks outputs(int count, int chunk, SplittableRandom random) {
    byte[][] out = new byte[count][];
    int[] at = new int[count];
    for (int o = 0; o < count; o++) {
      out[o] = new byte[chunk + 5];
      random.nextBytes(out[o]);
      at[o] = 5;
    }
    return new Chunks(out, at);
  }
}
