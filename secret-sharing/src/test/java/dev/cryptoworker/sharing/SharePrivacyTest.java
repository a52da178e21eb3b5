package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Any z shares reveal nothing: for highly structured values (all zeros, repeated text), the bytes
 * of any z shares, position by position over many splits, pass a chi-square test of uniformity,
 * while the values themselves fail it by far (the test can fail); and pairs of their bytes, within
 * a share and across shares, are distributed alike whatever the value, which no test of one
 * position at a time can see.
 */
class SharePrivacyTest {
  private static final int SPLITS = 4096;
  private static final int VALUE = 48;
  /**
   * Chi-square critical value for 255 degrees of freedom at p below 1e-10 (Wilson-Hilferty), so the
   * thousands of positions tested fail by chance less than once in a million runs.
   */
  private static final double CRITICAL = 430;

  private static double chiSquare(int[] histogram, int samples) {
    double expected = samples / 256.0;
    double chi = 0;
    for (int count : histogram) {
      chi += (count - expected) * (count - expected) / expected;
    }
    return chi;
  }

  /** The largest per-position statistic over the shares {@code set}'s bodies. */
  private static double worstPosition(SecretSharing s, byte[] value, int[] set) throws Exception {
    int positions = -1;
    int[][][] histograms = null;
    for (int t = 0; t < SPLITS; t++) {
      byte[][] shares = s.split(value, null);
      if (histograms == null) {
        positions = shares[0].length - ShareHeader.LENGTH;
        histograms = new int[set.length][positions][256];
      }
      for (int m = 0; m < set.length; m++) {
        for (int b = 0; b < positions; b++) {
          histograms[m][b][shares[set[m]][ShareHeader.LENGTH + b] & 0xff]++;
        }
      }
    }
    double worst = 0;
    for (int[][] share : histograms) {
      for (int[] position : share) {
        worst = Math.max(worst, chiSquare(position, SPLITS));
      }
    }
    return worst;
  }

  @Test
  void anyZSharesOfStructuredValuesLookUniform() throws Exception {
    byte[] zeros = new byte[VALUE];
    byte[] text = "name=Maria Santos;".repeat(3).substring(0, VALUE).getBytes(StandardCharsets.US_ASCII);
    int[] control = new int[256];
    for (int t = 0; t < SPLITS; t++) {
      control[text[t % VALUE] & 0xff]++;
    }
    assertTrue(chiSquare(control, SPLITS) > 100 * CRITICAL, "the structured input itself is far from uniform");
    int n = 6;
    int z = 2;
    for (SharingKind kind : new SharingKind[] {SharingKind.SHAMIR, SharingKind.PACKED_SHAMIR,
        SharingKind.SECURE_RAID}) {
      SecretSharing s = SecretSharings.create(kind, new SharingParameters(n, 2, z), null);
      if (kind != SharingKind.SHAMIR) {
        // Chunks of 1 KiB and more are coded bit-sliced: the same test on a large all-zero value.
        double worst = worstPosition(s, new byte[2 * 1024], new int[] {0, n - 1});
        assertTrue(worst < CRITICAL, kind + " bit-sliced shares [0, " + (n - 1) + "]: chi-square " + worst);
      }
      // Every pair of shares: the key shares, data-bearing ones, parity, and mixes.
      for (int[] set : LinearCode.subsets(GfArithmeticTest.range(n), z, 100)) {
        for (byte[] value : new byte[][] {zeros, text}) {
          double worst = worstPosition(s, value, set);
          assertTrue(worst < CRITICAL, kind + " shares " + Arrays.toString(set) + ": chi-square " + worst);
        }
      }
    }
  }

  /**
   * Splits per value in the joint test: 4 expected counts per value in each cell of a projection, 8
   * pooled. Each term (a - b)^2 / (a + b) of the statistic then has mean 1 and variance 2 - 2 / (a + b),
   * below a chi-square's 2, so the chi-square quantile errs on the safe side; a pair that gives a
   * value byte away scores 2 * JOINT_SPLITS, over four times that quantile.
   */
  private static final int JOINT_SPLITS = 1024;
  /** Bytes watched per share in the joint test. */
  private static final int WATCHED = 4;
  /**
   * How far out (in standard deviations of the Wilson-Hilferty normal approximation) a joint
   * statistic must lie to fail: one-sided p of 1.3e-12 per projection, so the 148,032 projections
   * tested (576 pairs, 257 each) fail by chance less than once in five million runs.
   */
  private static final double JOINT_SIGMAS = 7;
  /** TIMES[c][w] = c * w in GF(2^8). */
  private static final int[][] TIMES = new int[256][256];

  static {
    for (int c = 0; c < 256; c++) {
      for (int w = 0; w < 256; w++) {
        TIMES[c][w] = Gf256.mul(c, w);
      }
    }
  }

  /** The chi-square quantile with {@code dof} degrees of freedom {@code sigmas} out (Wilson-Hilferty). */
  private static double chiSquareQuantile(int dof, double sigmas) {
    double v = 2.0 / (9 * dof);
    return dof * Math.pow(1 - v + sigmas * Math.sqrt(v), 3);
  }

  /**
   * The watched bytes of {@link #JOINT_SPLITS} splits of {@code value}: {@code [share][watched
   * position][split]}.
   */
  private static byte[][][] watch(SecretSharing s, byte[] value, int[] positions) throws Exception {
    int n = s.parameters().n();
    byte[][][] seen = new byte[n][positions.length][JOINT_SPLITS];
    for (int t = 0; t < JOINT_SPLITS; t++) {
      byte[][] shares = s.split(value, null);
      for (int i = 0; i < n; i++) {
        for (int p = 0; p < positions.length; p++) {
          seen[i][p][t] = shares[i][ShareHeader.LENGTH + positions[p]];
        }
      }
    }
    return seen;
  }

  /**
   * The counts of the 257 projections of the pairs (u[t], w[t]): cells {@code 256 c ..} count u + c * w
   * for c in GF(2^8) (c = 0: u alone), cells {@code 256 * 256 ..} count w.
   */
  private static char[] projections(byte[] u, byte[] w) {
    char[] counts = new char[257 * 256]; // at most JOINT_SPLITS each
    // One projection at a time: its 256 counts and multiplication row stay in the L1 cache.
    for (int c = 0; c < 256; c++) {
      int[] times = TIMES[c];
      int cells = c << 8;
      for (int t = 0; t < u.length; t++) {
        counts[cells | ((u[t] ^ times[w[t] & 0xff]) & 0xff)]++;
      }
    }
    for (byte x : w) {
      counts[256 << 8 | (x & 0xff)]++;
    }
    return counts;
  }

  /**
   * The first of the 257 projections whose counts differ between the two values beyond chance
   * (two-sample chi-square over its non-empty cells), described; empty if none does.
   */
  private static Optional<String> differingProjection(char[] countsA, char[] countsB) {
    for (int c = 0; c <= 256; c++) {
      double chi = 0;
      int cells = 0;
      for (int cell = c << 8; cell < (c + 1) << 8; cell++) {
        int sum = countsA[cell] + countsB[cell];
        if (sum > 0) {
          int difference = countsA[cell] - countsB[cell];
          chi += (double) difference * difference / sum;
          cells++;
        }
      }
      double critical = chiSquareQuantile(Math.max(cells - 1, 1), JOINT_SIGMAS);
      if (chi > critical) {
        return Optional.of((c == 256 ? "w" : "u + " + c + " * w") + " has chi-square " + chi + " > " + critical);
      }
    }
    return Optional.empty();
  }

  /**
   * Any z shares are independent of the value jointly, not only byte by byte. A share that carried
   * a value byte XOR another share's byte, or XOR another of its own bytes, would keep every byte
   * uniform (and pass the test above) while the pair gave the value byte away. For two values of one
   * length that differ in every byte (zeros, and random non-zero bytes), each pair of watched bytes
   * that some z shares hold together (two of one share; one position of two shares) must be
   * distributed alike over many splits of either value.
   *
   * <p>A pair (u, w) of field elements has the same distribution under both values if and only if
   * each of its 257 projections u + c * w (c in GF(2^8)) and w has: every character of GF(2^8)^2
   * factors through one of them. So each projection gets a two-sample chi-square test of 256 cells,
   * where the pair's own 65,536 cells would need far more splits. The test's choices (values,
   * watched positions) come from a fixed seed; the splits' randomness is the module's own
   * (SecureRandom-keyed), so the bound on false failures is statistical (see {@link #JOINT_SIGMAS}).
   *
   * <p>Only the information-theoretic schemes promise this, for any z shares (z = 2 here: any two
   * shares, so every pair tested is within the promise); AONT-RS and AES-RS hide the value only
   * computationally, behind AES, which no such count tells from random.
   */
  @Test
  void anyZSharesAreJointlyIndependentOfTheValue() throws Exception {
    int n = 6;
    int z = 2;
    Random random = new Random(0x5eed_0005L);
    int pairs = 0;
    for (SharingKind kind : new SharingKind[] {SharingKind.SHAMIR, SharingKind.PACKED_SHAMIR,
        SharingKind.SECURE_RAID}) {
      SecretSharing s = SecretSharings.create(kind, new SharingParameters(n, 2, z), null);
      int dataChunks = s.threshold() - z; // 1 for Shamir, n - r - z for the others
      // Chunks of WATCHED bytes, coded byte by byte and watched whole; and 512-byte chunks, coded
      // bit-sliced as 8 packets of 64 bytes, watched at both ends, where the second packet starts and
      // at one random place.
      for (int chunk : new int[] {WATCHED, LinearCode.BITSLICED_FROM}) {
        int[] positions = chunk == WATCHED ? GfArithmeticTest.range(WATCHED)
            : new int[] {0, 64, 65 + random.nextInt(chunk - 66), chunk - 1};
        byte[] zeros = new byte[dataChunks * chunk];
        byte[] other = new byte[zeros.length];
        for (int i = 0; i < other.length; i++) {
          other[i] = (byte) (1 + random.nextInt(255));
        }
        byte[][][] a = watch(s, zeros, positions);
        byte[][][] b = watch(s, other, positions);
        for (int i = 0; i < n; i++) {
          for (int p = 0; p < positions.length; p++) {
            for (int j = i; j < n; j++) {
              // Two bytes of share i, or position p of shares i and j.
              for (int q = j == i ? p + 1 : p; q < (j == i ? positions.length : p + 1); q++) {
                Optional<String> differs =
                    differingProjection(projections(a[i][p], a[j][q]), projections(b[i][p], b[j][q]));
                pairs++;
                if (differs.isPresent()) {
                  fail(kind + ", chunks of " + chunk + " bytes: share " + i + " byte " + positions[p]
                      + " (u) and share " + j + " byte " + positions[q] + " (w) are distributed differently"
                      + " for the values " + HexFormat.of().formatHex(zeros, 0, Math.min(zeros.length, 16))
                      + "... and " + HexFormat.of().formatHex(other, 0, Math.min(other.length, 16)) + "...: "
                      + differs.get());
                }
              }
            }
          }
        }
      }
    }
    int perRun = n * (WATCHED * (WATCHED - 1) / 2) + n * (n - 1) / 2 * WATCHED; // within a share, across two
    assertEquals(3 * 2 * perRun, pairs, "pairs tested: 3 schemes, 2 chunk sizes");
  }

  /** The longest run of one repeated byte in {@code share} past its header. */
  private static int longestRun(byte[] share) {
    int longest = 0;
    int run = 0;
    for (int i = ShareHeader.LENGTH; i < share.length; i++) {
      run = i > ShareHeader.LENGTH && share[i] == share[i - 1] ? run + 1 : 1;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  /**
   * Every share of every scheme, padding included, holds no run of 8 equal bytes past its header.
   * Zero padding once left a run of over 100 zeros at the end of the package in AONT-RS's and
   * AES-RS's last systematic share (a value of 4,000 bytes, n = 4, r = 1), which showed where the
   * package ends. In uniform shares of these sizes such a run occurs with probability below 2^-40.
   */
  @Test
  void noShareCarriesARunOfPadding() throws Exception {
    for (int[] p : new int[][] {{4, 1, 1}, {6, 2, 2}}) {
      for (SecretSharing s : SecretSharingTest.allSchemes(p[0], p[1], p[2])) {
        for (int length : new int[] {4_000, 1_000, 101}) {
          byte[][] shares = s.split(new byte[length], null);
          for (int i = 0; i < shares.length; i++) {
            int run = longestRun(shares[i]);
            assertTrue(run < 8, s.kind() + " n=" + p[0] + ", value of " + length + " bytes: share " + i
                + " holds a run of " + run + " equal bytes");
          }
        }
      }
    }
  }
}
