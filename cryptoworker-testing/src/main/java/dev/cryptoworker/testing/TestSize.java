package dev.cryptoworker.testing;

/**
 * The size of a heavy shared-cluster test: its full count in the full suite, a quarter of it in the
 * quick loop ({@code -Pquick} sets {@value #QUICK_PROPERTY}; docs/testing.md). The same checks run
 * on fewer rows or rounds, so the quick loop still fails for the reasons the full suite does.
 */
public final class TestSize {
  /** The system property the quick profile sets to {@code true}. */
  public static final String QUICK_PROPERTY = "cryptoworker.tests.quick";

  private TestSize() {}

  /** {@code full} in the full suite, {@code full / 4} (at least 1) in the quick loop. */
  public static int scaled(int full) {
    return Boolean.getBoolean(QUICK_PROPERTY) ? Math.max(1, full / 4) : full;
  }
}
