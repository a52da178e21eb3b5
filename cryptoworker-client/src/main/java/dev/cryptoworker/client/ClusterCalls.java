package dev.cryptoworker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One call per cluster, run in parallel, each given until a common deadline: a cluster that fails
 * or does not answer in time is counted unavailable for this operation, never waited for beyond it.
 */
final class ClusterCalls {
  /** The call made on cluster {@code index}. */
  @FunctionalInterface
  interface Call<T> {
    T on(int index) throws IOException;
  }

  /** What each cluster answered: its result, or why it has none. */
  static final class Outcomes<T> {
    private final List<T> results;
    private final List<String> failures;

    private Outcomes(List<T> results, List<String> failures) {
      this.results = results;
      this.failures = failures;
    }

    /** Cluster {@code i}'s result; null if it failed. */
    T result(int i) {
      return results.get(i);
    }

    boolean answered(int i) {
      return failures.get(i) == null;
    }

    int answered() {
      int n = 0;
      for (String f : failures) {
        if (f == null) {
          n++;
        }
      }
      return n;
    }

    /** The clusters that failed and why, for messages: {@code east (timed out), west (...)}. */
    String describeFailures(List<String> names) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < failures.size(); i++) {
        if (failures.get(i) != null) {
          out.add(names.get(i) + " (" + failures.get(i) + ")");
        }
      }
      return out.isEmpty() ? "none" : String.join(", ", out);
    }
  }

  private final ExecutorService pool;
  private final long timeoutNanos;
  private final int clusters;

  ClusterCalls(ExecutorService pool, long timeoutNanos, int clusters) {
    this.pool = pool;
    this.timeoutNanos = timeoutNanos;
    this.clusters = clusters;
  }

  <T> Outcomes<T> onEvery(Call<T> call) throws IOException {
    List<Future<T>> futures = new ArrayList<>(clusters);
    for (int i = 0; i < clusters; i++) {
      int index = i;
      futures.add(pool.submit(() -> call.on(index)));
    }
    long deadline = System.nanoTime() + timeoutNanos;
    List<T> results = new ArrayList<>(clusters);
    List<String> failures = new ArrayList<>(clusters);
    for (Future<T> f : futures) {
      try {
        results.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
        failures.add(null);
      } catch (TimeoutException e) {
        f.cancel(true);
        results.add(null);
        failures.add("no answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
      } catch (ExecutionException e) {
        results.add(null);
        Throwable cause = e.getCause();
        failures.add(cause.getClass().getSimpleName() + ": " + firstLine(cause.getMessage()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while waiting for the clusters");
      }
    }
    return new Outcomes<>(results, failures);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no message";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
