package dev.cryptoworker.layout.shared;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which clusters of one {@code SecureConnection} are down, shared by all its SHARED table handles. A
 * cluster that could not be reached or timed out ({@link ClusterFailure#isOutage}) is skipped by
 * every handle until it answers a probe (a cluster-level call made on one background thread, every
 * {@value #PROBE_INTERVAL_MILLIS} ms), so that with a cluster down only the operations already
 * waiting on it pay its timeout, not one operation in every interval, nor the first operation of
 * each new table handle. It also remembers, per table, which clusters missed a write, so that each
 * outage is reported once.
 */
final class ClusterHealth implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterHealth.class);
  static final long PROBE_INTERVAL_MILLIS = 1_000;

  /** A cluster-level call that succeeds when the cluster answers again. */
  @FunctionalInterface
  interface Probe {
    void run() throws Exception;
  }

  /** Per down cluster, when (System.nanoTime) it was marked down. */
  private final Map<String, Long> downSince = new HashMap<>();
  private final ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "cryptoworker-cluster-probe");
    t.setDaemon(true);
    return t;
  });

  /** A cluster that missed a write to a table, since it last took one. */
  private record Missed(String table, String cluster) {}

  private final Set<Missed> missedWrites = new HashSet<>();

  /**
   * {@code cluster} missed a write to {@code table} that others acknowledged: true the first time
   * since it last took a write to that table (once per outage, for a warning: the table needs a
   * repair), false for the writes it misses after that.
   */
  synchronized boolean missedWrite(String table, String cluster) {
    return missedWrites.add(new Missed(table, cluster));
  }

  /** {@code cluster} took a write to {@code table}: the next one it misses starts a new outage. */
  synchronized void tookWrite(String table, String cluster) {
    missedWrites.remove(new Missed(table, cluster));
  }

  /** Why {@code cluster} is skipped, or null when it is not down. */
  synchronized String skipReason(String cluster) {
    Long since = downSince.get(cluster);
    if (since == null) {
      return null;
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - since);
    return "down for " + seconds + " s, skipped until it answers a probe";
  }

  /** {@code cluster} answered a call: it is up. */
  void answered(String cluster) {
    boolean wasDown;
    synchronized (this) {
      wasDown = downSince.remove(cluster) != null;
    }
    if (wasDown) {
      LOG.info("Cluster {} answers again; operations use it again", cluster);
    }
  }

  /** {@code cluster} failed a call ({@code why}): skip it until {@code probe} succeeds. */
  void failed(String cluster, String why, Probe probe) {
    synchronized (this) {
      if (downSince.putIfAbsent(cluster, System.nanoTime()) != null) {
        return; // already probed
      }
    }
    // Once per outage, not per operation: every write acknowledged without it needs a repair.
    LOG.warn("Cluster {} did not answer ({}); operations go on without it until it answers a probe. Repair the SHARED"
        + " tables written meanwhile once it is back (SharedTables.repair)", cluster, why);
    schedule(cluster, probe);
  }

  private void schedule(String cluster, Probe probe) {
    try {
      prober.schedule(() -> probe(cluster, probe), PROBE_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      // the connection is closing: nothing left to probe for
    }
  }

  private void probe(String cluster, Probe probe) {
    synchronized (this) {
      if (!downSince.containsKey(cluster)) {
        return; // an operation's call reached it first
      }
    }
    try {
      probe.run();
      answered(cluster);
    } catch (Exception stillDown) {
      schedule(cluster, probe);
    }
  }

  @Override
  public void close() {
    prober.shutdownNow();
  }
}
