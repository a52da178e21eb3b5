package dev.cryptoworker.embedded;

/**
 * Fault injection for tests, registered from a client JVM without HBase's server classes: region
 * servers that answer scans dishonestly, to test what a client checks of what servers return. A
 * scan carrying {@link #ATTRIBUTE} with one of the modes below is answered that way on tables
 * that register {@link #OBSERVER} with {@link #PRIORITY} (through {@code
 * CoprocessorDescriptorBuilder}); other scans and tables are untouched.
 */
public final class HostileScans {
  /** The observer's class name, on every embedded region server's classpath. */
  public static final String OBSERVER = "dev.cryptoworker.embedded.server.HostileScanObserver";
  /** The scan attribute naming the mode. */
  public static final String ATTRIBUTE = "cryptoworker.test.hostile-scan";
  /** Mode: the server drops the scan's row range before any observer or scanner sees it. */
  public static final String WIDEN_RANGE = "widen-range";
  /** Mode: every row the scan returns is returned twice in a row. */
  public static final String REPEAT_ROWS = "repeat-rows";
  /**
   * A priority after observers registered without one (HBase's {@code PRIORITY_USER}): the
   * observer's hooks run after theirs, so it alters what they answer.
   */
  public static final int PRIORITY = Integer.MAX_VALUE / 2 + 1;

  private HostileScans() {}
}
