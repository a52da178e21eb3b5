package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Any z shares reveal nothing: for highly structured values (all zeros, repeated text), the bytes
 * of any z shares, position by position over many splits, pass a chi-square test of uniformity,
 * while the values themselves fail it by far (the test can fail).
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
