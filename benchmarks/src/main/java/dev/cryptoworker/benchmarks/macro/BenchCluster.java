package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.embedded.ProcessCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * The HBase a macro benchmark starts for itself: {@code embedded} (a master and one region server
 * in one child JVM), {@code processes} (ZooKeeper, a master and 2 region servers, each its own
 * JVM, as {@code bin/hbase} runs them, on the local filesystem) or {@code hdfs} (the same on HDFS,
 * with a NameNode and a DataNode process), with the client configuration that reaches it.
 */
final class BenchCluster implements AutoCloseable {
  private final Runnable stop;
  private final Configuration configuration;
  private final List<Long> pids;
  private final int regionServers;
  private final String description;

  private BenchCluster(Runnable stop, String quorum, int port, List<Long> pids, int regionServers,
      String description) {
    this.stop = stop;
    this.description = description;
    this.pids = pids;
    this.regionServers = regionServers;
    this.configuration = HBaseConfiguration.create();
    configuration.set("hbase.zookeeper.quorum", quorum);
    configuration.setInt("hbase.zookeeper.property.clientPort", port);
  }

  /** Starts {@code kind} ({@code embedded}, {@code processes} or {@code hdfs}) on {@code dataDir}, saying so on {@code out}. */
  static BenchCluster start(String kind, Path dataDir, String maxHeap, PrintStream out) throws IOException {
    if (kind.equals("processes") || kind.equals("hdfs")) {
      boolean hdfs = kind.equals("hdfs");
      out.printf("Starting HBase as separate processes (%sZooKeeper, 1 master, 2 region servers) in %s ...%n",
          hdfs ? "NameNode, DataNode, " : "", dataDir);
      ProcessCluster p = ProcessCluster.builder().dataDir(dataDir).regionServers(2).maxHeap(maxHeap).hdfs(hdfs).fullJit(true)
          .reportIntervalMillis(ProcessCluster.HBASE_REPORT_INTERVAL_MILLIS).start();
      return new BenchCluster(p::close, p.zookeeperQuorum(), p.zookeeperPort(), p.pids(), 2, hdfs
          ? "separate processes on HDFS (NameNode, DataNode, ZooKeeper, 1 master, 2 region servers)"
          : "separate processes (ZooKeeper, 1 master, 2 region servers)");
    }
    if (kind.equals("embedded")) {
      return embedded(dataDir, 1, maxHeap, out);
    }
    throw new IllegalArgumentException("cluster must be embedded, processes or hdfs, got " + kind);
  }

  /** Starts an embedded HBase (a master and {@code regionServers} region servers in one child JVM) on {@code dataDir}. */
  static BenchCluster embedded(Path dataDir, int regionServers, String maxHeap, PrintStream out) throws IOException {
    String servers = regionServers == 1 ? "1 region server" : regionServers + " region servers";
    out.printf("Starting an embedded HBase (1 master, %s) in %s ...%n", servers, dataDir);
    EmbeddedHBase e = EmbeddedHBase.builder().dataDir(dataDir).regionServers(regionServers).maxHeap(maxHeap)
        .fullJit(true).start();
    return new BenchCluster(e::close, e.zookeeperQuorum(), e.zookeeperPort(), List.of(e.pid()), regionServers,
        "embedded (1 master, " + servers + ", child JVM)");
  }

  /** A client configuration for this cluster (a fresh copy each time). */
  Configuration configuration() {
    return new Configuration(configuration);
  }

  /** The server JVMs' process ids. */
  List<Long> pids() {
    return pids;
  }

  int regionServers() {
    return regionServers;
  }

  /** How the cluster runs, for result files. */
  String describe() {
    return description;
  }

  @Override
  public void close() {
    stop.run();
  }
}
