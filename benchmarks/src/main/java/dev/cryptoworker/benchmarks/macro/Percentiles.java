package dev.cryptoworker.benchmarks.macro;

import java.util.Arrays;

/** Percentiles of measured latencies. */
final class Percentiles {
  private Percentiles() {}

  /** The nearest-rank {@code p}-th percentile of {@code values}. */
  static double of(double[] values, int p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
