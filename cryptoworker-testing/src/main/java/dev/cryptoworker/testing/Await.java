package dev.cryptoworker.testing;

import java.util.Collection;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * How tests wait: a condition polled every {@value #POLL_MILLIS} ms, never a sleep standing in for
 * it. A wait gives up after a number of polls, a bound on a stuck cluster rather than a timing
 * assertion, and fails at once if a worker it depends on ends before the condition holds.
 */
public final class Await {
  /** The pause between two polls. */
  public static final long POLL_MILLIS = 20;

  /** What a wait polls; it may read HBase. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  private Await() {}

  /**
   * Returns once {@code condition} holds. A worker of {@code workers} that ends first fails the
   * wait: its exception is rethrown, or, if it ended normally, an {@link AssertionError} is. After
   * {@code maxPolls} polls the wait fails too. Messages end with {@code state}, read when failing.
   */
  public static void until(Condition condition, Collection<? extends Future<?>> workers, int maxPolls,
      Supplier<String> state) throws Exception {
    for (int poll = 0; !condition.holds(); poll++) {
      for (Future<?> worker : workers) {
        if (worker.isDone()) {
          worker.get(); // a failed worker's exception
          if (!condition.holds()) {
            throw new AssertionError("a worker ended before the condition held: " + state.get());
          }
          return;
        }
      }
      if (poll >= maxPolls) {
        throw new AssertionError("the condition did not hold after " + maxPolls + " polls: " + state.get());
      }
      Thread.sleep(POLL_MILLIS);
    }
  }
}
