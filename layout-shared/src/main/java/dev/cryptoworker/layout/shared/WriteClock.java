package dev.cryptoworker.layout.shared;

import java.util.function.LongSupplier;

/**
 * The timestamps of one {@code SecureConnection}'s writes to SHARED tables, a hybrid logical clock
 * in HBase's milliseconds: each logical write (a put or delete call) takes max(now, the newest
 * timestamp this connection issued or read + 1) and uses it on every cluster. So a write comes after
 * every write this client made or saw, whatever the clusters' clocks say (a put right after a delete
 * is not hidden by a delete marker a cluster stamped ahead of the client), and a client whose clock
 * runs behind another writer's still overwrites a cell once it has read it. Timestamps are read only
 * from versions a read decoded, which enough clusters hold: one cluster cannot push the clock ahead.
 */
final class WriteClock implements AutoCloseable {
  private final LongSupplier now;
  private long newest;

  WriteClock() {
    this(System::currentTimeMillis);
  }

  /** A clock reading {@code now} (milliseconds) for its physical time. */
  WriteClock(LongSupplier now) {
    this.now = now;
  }

  /**
   * The timestamp of the next logical write: after every one issued or read so far.
   *
   * @throws IllegalStateException if that is HBase's "latest" ({@code Long.MAX_VALUE}), which each
   *     cluster would replace with its own clock: a version read was stamped at the end of time
   */
  synchronized long next() {
    if (newest >= Long.MAX_VALUE - 1) {
      throw new IllegalStateException("a SHARED write cannot come after a version this connection read, stamped "
          + newest + " (the end of HBase's time): delete that version, or write with explicit timestamps");
    }
    newest = Math.max(now.getAsLong(), newest + 1);
    return newest;
  }

  /** A read returned a version written at {@code timestamp}. */
  synchronized void observe(long timestamp) {
    newest = Math.max(newest, timestamp);
  }

  @Override
  public void close() {
    // nothing held: a connection service for its lifetime only
  }
}
