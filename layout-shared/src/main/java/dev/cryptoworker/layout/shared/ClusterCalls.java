package dev.cryptoworker.layout.shared;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One call per cluster, run in parallel, each given until a common deadline: a cluster that fails
 * or does not answer in time is counted unavailable for this operation, never waited for beyond it,
 * and is skipped for the next {@value #SKIP_SECONDS} seconds (so that with a cluster down, each
 * operation does not wait for its timeout again), then tried again.
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

  static final int SKIP_SECONDS = 10;

  private final ExecutorService pool;
  private final long timeoutNanos;
  private final int clusters;
  /** Per cluster, until when (System.nanoTime) it is skipped after failing; 0: not skipped. */
  private final long[] skippedUntil;

  ClusterCalls(ExecutorService pool, long timeoutNanos, int clusters) {
    this.pool = pool;
    this.timeoutNanos = timeoutNanos;
    this.clusters = clusters;
    this.skippedUntil = new long[clusters];
  }

  private synchronized boolean skipped(int i, long now) {
    return skippedUntil[i] != 0 && now - skippedUntil[i] < 0;
  }

  private synchronized void outcome(int i, boolean failed) {
    skippedUntil[i] = failed ? System.nanoTime() + TimeUnit.SECONDS.toNanos(SKIP_SECONDS) : 0;
  }

  <T> Outcomes<T> onEvery(Call<T> call) throws IOException {
    boolean[] all = new boolean[clusters];
    Arrays.fill(all, true);
    return on(all, call);
  }

  /** The call on the clusters {@code asked} selects; the others count as failed ("not asked"). */
  <T> Outcomes<T> on(boolean[] asked, Call<T> call) throws IOException {
    List<Future<T>> futures = new ArrayList<>(clusters);
    long now = System.nanoTime();
    for (int i = 0; i < clusters; i++) {
      int index = i;
      futures.add(!asked[i] || skipped(i, now) ? null : pool.submit(() -> call.on(index)));
    }
    long deadline = now + timeoutNanos;
    List<T> results = new ArrayList<>(clusters);
    List<String> failures = new ArrayList<>(clusters);
    for (int i = 0; i < clusters; i++) {
      Future<T> f = futures.get(i);
      if (f == null) {
        results.add(null);
        failures.add(asked[i] ? "failed less than " + SKIP_SECONDS + " s ago, skipped" : "not asked");
        continue;
      }
      try {
        results.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
        failures.add(null);
        outcome(i, false);
      } catch (TimeoutException e) {
        f.cancel(true);
        results.add(null);
        failures.add("no answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        outcome(i, true);
      } catch (ExecutionException e) {
        results.add(null);
        Throwable cause = e.getCause();
        failures.add(cause.getClass().getSimpleName() + ": " + firstLine(cause.getMessage()));
        outcome(i, true);
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
