package dev.cryptoworker.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The options both launchers take: where, how many region servers, heap, extra classpath, patience. */
abstract class ClusterBuilder<B extends ClusterBuilder<B>> {
  Path dataDir;
  int regionServers;
  String maxHeap;
  final List<Path> extraClasspath = new ArrayList<>();
  long startTimeoutSeconds = 180;
  boolean fullJit;

  ClusterBuilder(int regionServers, String maxHeap) {
    this.regionServers = regionServers;
    this.maxHeap = maxHeap;
  }

  abstract B self();

  /** Where HBase keeps its files (created if missing); data survives a restart. Required. */
  public B dataDir(Path dir) {
    this.dataDir = dir;
    return self();
  }

  /** Number of region servers. */
  public B regionServers(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("at least one region server is needed: " + n);
    }
    this.regionServers = n;
    return self();
  }

  /** Maximum heap of each HBase JVM, as for {@code -Xmx}. */
  public B maxHeap(String heap) {
    this.maxHeap = heap;
    return self();
  }

  /** Adds a jar or directory to the region servers' classpath (coprocessors). */
  public B addClasspath(Path entry) {
    extraClasspath.add(entry);
    return self();
  }

  /**
   * Whether the HBase JVMs run the full tiered JIT (C1, then C2 for hot code), as production
   * servers do. Default false: C1 only, which starts HBase faster and suits tests; benchmarks turn
   * it on, since C1-compiled servers spend several times the CPU on hot paths such as memstore
   * inserts.
   */
  public B fullJit(boolean on) {
    this.fullJit = on;
    return self();
  }

  /** How long a JVM may take to get ready (default 180 s). */
  public B startTimeoutSeconds(long seconds) {
    this.startTimeoutSeconds = seconds;
    return self();
  }

  /** The data directory, absolute; fails if none was given. */
  Path requireDataDir() {
    if (dataDir == null) {
      throw new IllegalStateException("dataDir is required");
    }
    return dataDir.toAbsolutePath();
  }
}
