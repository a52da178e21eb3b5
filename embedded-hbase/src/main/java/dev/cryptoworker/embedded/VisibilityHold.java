package dev.cryptoworker.embedded;

/**
 * Fault injection for tests, registered from a client JVM without HBase's server classes: the
 * embedded region servers' visibility hold. A write whose mutation carries {@link #ATTRIBUTE},
 * with value {@code {n}}, is held after its {@code postBatchMutate} hooks, before its cells become
 * visible, until n scanners that opened on the region during the hold have closed. Register
 * {@link #OBSERVER} with {@link #PRIORITY} on a test table through {@code
 * CoprocessorDescriptorBuilder}.
 */
public final class VisibilityHold {
  /** The observer's class name, on every embedded region server's classpath. */
  public static final String OBSERVER = "dev.cryptoworker.embedded.server.VisibilityHoldObserver";
  /** The mutation attribute that asks for the hold; its one byte says how many scanners to wait for. */
  public static final String ATTRIBUTE = "cryptoworker.test.hold-visibility";
  /** A priority after observers registered without one (HBase's {@code PRIORITY_USER}). */
  public static final int PRIORITY = Integer.MAX_VALUE / 2 + 1;

  private VisibilityHold() {}
}
