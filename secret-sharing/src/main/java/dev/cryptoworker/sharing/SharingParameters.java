package dev.cryptoworker.sharing;

/**
 * How a value is spread: over {@code n} shares, readable while at most {@code r} are missing, and
 * hidden from any {@code z} of them. Immutable.
 *
 * @param n shares, one per cluster
 * @param r shares that may be unavailable
 * @param z shares that may collude and still learn nothing
 */
public record SharingParameters(int n, int r, int z) {
  /** Field elements are the share points: at most 255 distinct non-zero ones, shared with the scheme's own points. */
  static final int MAX_SHARES = 64;

  /**
   * @throws IllegalArgumentException naming the rule broken: {@code 2 <= n <= 64}, {@code r >= 0},
   *     {@code z >= 0}, and {@code z + r < n} (at least one share's worth of data)
   */
  public SharingParameters {
    if (n < 2 || n > MAX_SHARES) {
      throw new IllegalArgumentException("n must be in [2, " + MAX_SHARES + "], got " + n);
    }
    if (r < 0 || z < 0) {
      throw new IllegalArgumentException("r and z must not be negative, got r=" + r + ", z=" + z);
    }
    if (z + r >= n) {
      throw new IllegalArgumentException("z + r must be below n (z=" + z + ", r=" + r + ", n=" + n
          + "): with z + r >= n, the n - r shares that must decode could be all inside a colluding set of z");
    }
  }

  /** Shares needed to decode: n - r. */
  public int threshold() {
    return n - r;
  }
}
