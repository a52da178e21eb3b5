package dev.cryptoworker.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HBase as {@code bin/hbase} runs it on one machine: ZooKeeper, one master and N region servers,
 * each its own JVM on the recorded server classpath (the coprocessor jar among it, as an operator
 * puts it in {@code lib/}), sharing one {@code hbase-site.xml}. Data on the local filesystem:
 * HDFS's NameNode and DataNodes are not started (see the module README for why).
 *
 * <pre>
 * try (ProcessCluster hbase = ProcessCluster.builder().dataDir(dir).regionServers(2).start()) {
 *   conf.set("hbase.zookeeper.quorum", hbase.zookeeperQuorum());
 *   conf.setInt("hbase.zookeeper.property.clientPort", hbase.zookeeperPort());
 *   hbase.killRegionServer(0); // SIGKILL
 * }
 * </pre>
 *
 * <p>Uses only the JDK, like {@link EmbeddedHBase}.
 */
public final class ProcessCluster implements AutoCloseable {
  private static final String MAIN = "dev.cryptoworker.embedded.server.ClusterMemberServer";

  private final Builder options;
  private final Path site;
  private final ChildJvm zookeeper;
  private final ChildJvm master;
  private final List<ChildJvm> regionServers = new ArrayList<>();
  private final String quorum;
  private final int port;

  private ProcessCluster(Builder options, Path site, ChildJvm zookeeper, ChildJvm master) {
    this.options = options;
    this.site = site;
    this.zookeeper = zookeeper;
    this.master = master;
    this.quorum = zookeeper.ready()[0];
    this.port = Integer.parseInt(zookeeper.ready()[1]);
  }

  public static Builder builder() {
    return new Builder();
  }

  public String zookeeperQuorum() {
    return quorum;
  }

  public int zookeeperPort() {
    return port;
  }

  /** The cluster's client configuration file (for {@code --hbase-site}). */
  public Path hbaseSite() {
    return site;
  }

  /** Process ids: ZooKeeper, the master, then the region servers started so far (killed ones included). */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>(List.of(zookeeper.pid(), master.pid()));
    regionServers.forEach(r -> out.add(r.pid()));
    return out;
  }

  /** How many region server processes are alive. */
  public int liveRegionServers() {
    return (int) regionServers.stream().filter(ChildJvm::isAlive).count();
  }

  /**
   * Kills region server process {@code index} (in start order) with SIGKILL: no close, no flush; the
   * master notices when its ZooKeeper session expires, splits its write-ahead log and reassigns its
   * regions.
   */
  public void killRegionServer(int index) {
    regionServers.get(index).kill();
  }

  /** Starts one more region server process and waits until it serves. */
  public void startRegionServer() throws IOException {
    int n = regionServers.size();
    Path dir = options.dataDir.resolve("processes").resolve("regionserver-" + n);
    regionServers.add(ChildJvm.start("region server " + n, MAIN, List.of("regionserver", site.toString()), dir,
        options.dataDir.resolve("logs").resolve("regionserver-" + n + ".log"), options.maxHeap, options.extraClasspath,
        options.startTimeoutSeconds));
  }

  /** Stops the cluster through the master (region servers stop with it), then ZooKeeper. */
  @Override
  public void close() {
    master.stop(90);
    for (ChildJvm r : regionServers) {
      r.stop(30);
    }
    zookeeper.stop(30);
  }

  /** Options of the cluster: two region servers and 512m of heap per process unless told otherwise. */
  public static final class Builder extends ClusterBuilder<Builder> {
    private Builder() {
      super(2, "512m");
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * Starts ZooKeeper, the master and the region servers, and waits until the master is
     * initialised.
     *
     * @throws IOException if a process fails to start; the message holds the end of its log
     */
    public ProcessCluster start() throws IOException {
      dataDir = requireDataDir();
      Files.createDirectories(dataDir.resolve("conf"));
      ChildJvm zk = ChildJvm.start("ZooKeeper", MAIN, List.of("zookeeper", dataDir.toString()),
          dataDir.resolve("processes").resolve("zookeeper"), dataDir.resolve("logs").resolve("zookeeper.log"), "256m",
          List.of(), startTimeoutSeconds);
      ChildJvm master = null;
      ProcessCluster cluster = null;
      try {
        Path site = writeSite(dataDir.resolve("conf").resolve("hbase-site.xml"), zk.ready()[0],
            Integer.parseInt(zk.ready()[1]));
        master = ChildJvm.start("master", MAIN, List.of("master", site.toString()),
            dataDir.resolve("processes").resolve("master"), dataDir.resolve("logs").resolve("master.log"), maxHeap,
            extraClasspath, startTimeoutSeconds);
        cluster = new ProcessCluster(this, site, zk, master);
        for (int i = 0; i < regionServers; i++) {
          cluster.startRegionServer();
        }
        master.command("await-initialized", startTimeoutSeconds);
        return cluster;
      } catch (IOException | RuntimeException e) {
        if (cluster != null) {
          cluster.regionServers.forEach(ChildJvm::kill);
        }
        if (master != null) {
          master.kill();
        }
        zk.kill();
        throw e;
      }
    }

    private Path writeSite(Path file, String quorum, int port) throws IOException {
      Map<String, String> p = new LinkedHashMap<>();
      p.put("hbase.cluster.distributed", "true");
      p.put("hbase.zookeeper.quorum", quorum);
      p.put("hbase.zookeeper.property.clientPort", Integer.toString(port));
      p.put("hbase.rootdir", dataDir.resolve("hbase").toUri().toString());
      p.put("hbase.wal.dir", dataDir.resolve("wal").toUri().toString());
      // The local filesystem has no hflush/hsync capability to enforce; a killed process loses nothing
      // the operating system has (a machine crash could).
      p.put("hbase.unsafe.stream.capability.enforce", "false");
      p.put("hbase.master.port", "0");
      p.put("hbase.regionserver.port", "0");
      p.put("hbase.master.info.port", "-1");
      p.put("hbase.regionserver.info.port", "-1");
      p.put("hbase.regionserver.msginterval", "300");
      p.put("hbase.master.hostname", "localhost");
      p.put("hbase.regionserver.hostname", "localhost");
      p.put("hbase.master.ipc.address", "127.0.0.1");
      p.put("hbase.regionserver.ipc.address", "127.0.0.1");
      p.put("hbase.master.wait.on.regionservers.mintostart", Integer.toString(regionServers));
      p.put("hbase.coprocessor.abortonerror", "true");
      // A killed region server is noticed within seconds, not the default 90 s.
      p.put("zookeeper.session.timeout", "10000");
      StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
      p.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
          .append("</value></property>\n"));
      xml.append("</configuration>\n");
      Files.writeString(file, xml, StandardCharsets.UTF_8);
      return file;
    }
  }
}
