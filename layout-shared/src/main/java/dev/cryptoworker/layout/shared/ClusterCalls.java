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
import java.util.function.IntFunction;

/**
 * One call per cluster, run in parallel, each given until a common deadline: a cluster that fails
 * or does not answer in time is counted unavailable for this operation, never waited for beyond it.
 * One that cannot be reached or does not answer in time ({@link ClusterFailure#isOutage}) is skipped
 * by every table handle of the connection until it answers a probe ({@link ClusterHealth}), so that
 * with a cluster down operations do not wait for its timeout again; one that refused the request is
 * not.
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
  private final List<String> names;
  private final ClusterHealth health;
  private final IntFunction<ClusterHealth.Probe> probes;

  /**
   * Calls to the clusters {@code names} (in index order), whose state {@code health} keeps;
   * {@code probes} gives the cluster-level call that tells when a failed cluster answers again.
   */
  ClusterCalls(ExecutorService pool, long timeoutNanos, List<String> names, ClusterHealth health,
      IntFunction<ClusterHealth.Probe> probes) {
    this.pool = pool;
    this.timeoutNanos = timeoutNanos;
    this.names = List.copyOf(names);
    this.health = health;
    this.probes = probes;
  }

  private void answered(int i) {
    health.answered(names.get(i));
  }

  private void failed(int i, String why) {
    health.failed(names.get(i), why, probes.apply(i));
  }

  /**
   * Records which clusters took a write to {@code table} ({@code write}, its outcomes); returns
   * those that missed it having taken the one before: the clusters whose outage starts here.
   */
  List<String> newlyMissed(String table, Outcomes<?> write) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      if (write.answered(i)) {
        health.tookWrite(table, names.get(i));
      } else if (health.missedWrite(table, names.get(i))) {
        out.add(names.get(i));
      }
    }
    return out;
  }

  <T> Outcomes<T> onEvery(Call<T> call) throws IOException {
    boolean[] all = new boolean[names.size()];
    Arrays.fill(all, true);
    return on(all, call);
  }

  /** The call on the clusters {@code asked} selects; the others count as failed ("not asked"). */
  <T> Outcomes<T> on(boolean[] asked, Call<T> call) throws IOException {
    int clusters = names.size();
    List<Future<T>> futures = new ArrayList<>(clusters);
    List<String> skipped = new ArrayList<>(clusters);
    long now = System.nanoTime();
    for (int i = 0; i < clusters; i++) {
      int index = i;
      String why = asked[i] ? health.skipReason(names.get(i)) : "not asked";
      skipped.add(why);
      futures.add(why != null ? null : pool.submit(() -> call.on(index)));
    }
    long deadline = now + timeoutNanos;
    List<T> results = new ArrayList<>(clusters);
    List<String> failures = new ArrayList<>(clusters);
    for (int i = 0; i < clusters; i++) {
      Future<T> f = futures.get(i);
      if (f == null) {
        results.add(null);
        failures.add(skipped.get(i));
        continue;
      }
      try {
        results.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
        failures.add(null);
        answered(i);
      } catch (TimeoutException e) {
        f.cancel(true);
        results.add(null);
        failures.add("no answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        failed(i, failures.get(i));
      } catch (ExecutionException e) {
        results.add(null);
        Throwable cause = e.getCause();
        failures.add(cause.getClass().getSimpleName() + ": " + firstLine(cause.getMessage()));
        if (ClusterFailure.isOutage(cause)) {
          failed(i, failures.get(i));
        }
        // Otherwise the cluster refused this request: it is up, and is asked the next time.
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
