package dev.cryptoworker.embedded;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * HBase as {@code bin/hbase} runs it on one machine: ZooKeeper, one master and N region servers,
 * each its own JVM on the recorded server classpath (the coprocessor jar among it, as an operator
 * puts it in {@code lib/}), sharing one {@code hbase-site.xml}. Data on the local filesystem, or
 * with {@link Builder#hdfs(boolean)} on HDFS: a NameNode and a DataNode, each its own JVM too.
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
  private static final int FAST_REPORT_INTERVAL_MILLIS = 300;
  /** HBase's own {@code hbase.regionserver.msginterval}. */
  public static final int HBASE_REPORT_INTERVAL_MILLIS = 3_000;

  private final Builder options;
  private final Path site;
  private final List<ChildJvm> hdfs;
  private final ChildJvm zookeeper;
  private final ChildJvm master;
  private final List<ChildJvm> regionServers = new ArrayList<>();
  private final String quorum;
  private final int port;

  private ProcessCluster(Builder options, Path site, List<ChildJvm> hdfs, ChildJvm zookeeper, ChildJvm master,
      List<ChildJvm> regionServers) {
    this.options = options;
    this.site = site;
    this.hdfs = hdfs;
    this.zookeeper = zookeeper;
    this.master = master;
    this.regionServers.addAll(regionServers);
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

  /**
   * Process ids: the NameNode and DataNode (on HDFS), ZooKeeper, the master, then the region servers
   * started so far (killed ones included).
   */
  public List<Long> pids() {
    List<Long> out = new ArrayList<>();
    hdfs.forEach(h -> out.add(h.pid()));
    out.addAll(List.of(zookeeper.pid(), master.pid()));
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
    regionServers.add(options.regionServer(site, regionServers.size()));
  }

  /** Stops the cluster through the master (region servers stop with it), then ZooKeeper. */
  @Override
  public void close() {
    master.stop(90);
    for (ChildJvm r : regionServers) {
      r.stop(30);
    }
    zookeeper.stop(30);
    for (int i = hdfs.size() - 1; i >= 0; i--) {
      hdfs.get(i).stop(30);
    }
  }

  /** Whether the data is on HDFS (a NameNode and a DataNode process) rather than the local filesystem. */
  public boolean onHdfs() {
    return !hdfs.isEmpty();
  }

  /** Options of the cluster: two region servers and 512m of heap per process unless told otherwise. */
  public static final class Builder extends ClusterBuilder<Builder> {
    private boolean hdfs;
    private int reportIntervalMillis = FAST_REPORT_INTERVAL_MILLIS;

    private Builder() {
      super(2, "512m");
    }

    /**
     * Whether to keep the data on HDFS: a NameNode and a DataNode (one replica), each its own JVM,
     * started before HBase and stopped after it; write-ahead logs then go through HDFS's hflush and
     * hsync as on a production cluster. Default: the local filesystem.
     */
    public Builder hdfs(boolean onHdfs) {
      this.hdfs = onHdfs;
      return this;
    }

    /**
     * How often region servers report to the master (HBase's {@code
     * hbase.regionserver.msginterval}). Default 300 ms, which starts a cluster seconds sooner; HBase's
     * own default is 3,000 ms. Benchmarks take HBase's: each report copies every running request's
     * description, scan attributes included, which costs region servers CPU ten times as often at
     * 300 ms (12% of it in an SSE load, whose counter takes are scans with large attributes).
     */
    public Builder reportIntervalMillis(int millis) {
      if (millis < 1) {
        throw new IllegalArgumentException("a report interval of at least 1 ms, got " + millis);
      }
      this.reportIntervalMillis = millis;
      return this;
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * Starts ZooKeeper, the master and the region servers, and waits until the master is
     * initialised. Members that need nothing of each other start side by side: ZooKeeper beside
     * the NameNode and DataNode, the region servers beside the master (they come online once it is
     * up); on 2 cores that saves most of a JVM start per member.
     *
     * @throws IOException if a process fails to start; the message holds the end of its log
     */
    public ProcessCluster start() throws IOException {
      dataDir = requireDataDir();
      Files.createDirectories(dataDir.resolve("conf"));
      ExecutorService starter = Executors.newCachedThreadPool();
      List<Future<ChildJvm>> starting = new ArrayList<>();
      try {
        Future<ChildJvm> zookeeper = submit(starter, starting,
            () -> member("ZooKeeper", "zookeeper", "256m", List.of(dataDir.toString()), List.of()));
        List<ChildJvm> storage = new ArrayList<>();
        String rootDir = dataDir.resolve("hbase").toUri().toString();
        if (hdfs) {
          // Hadoop's jar on Maven Central lacks the web servers' resource folders, which their
          // start-up looks up on the classpath: empty ones will do (the web pages are not served).
          Path web = dataDir.resolve("hdfs-web");
          Files.createDirectories(web.resolve("webapps").resolve("hdfs"));
          Files.createDirectories(web.resolve("webapps").resolve("datanode"));
          ChildJvm nameNode = await(submit(starter, starting, () -> member("NameNode", "namenode", "256m",
              List.of(dataDir.resolve("hdfs").toString()), List.of(web))));
          storage.add(nameNode);
          String uri = "hdfs://127.0.0.1:" + nameNode.ready()[1];
          storage.add(await(submit(starter, starting, () -> member("DataNode", "datanode", "256m",
              List.of(dataDir.resolve("hdfs").toString(), uri), List.of(web)))));
          rootDir = uri + "/hbase";
        }
        ChildJvm zk = await(zookeeper);
        Path site = writeSite(dataDir.resolve("conf").resolve("hbase-site.xml"), zk.ready()[0],
            Integer.parseInt(zk.ready()[1]), rootDir);
        Future<ChildJvm> master = submit(starter, starting, () -> ChildJvm.start("master", MAIN,
            List.of("master", site.toString()), dataDir.resolve("processes").resolve("master"),
            dataDir.resolve("logs").resolve("master.log"), maxHeap, extraClasspath, fullJit, startTimeoutSeconds));
        List<Future<ChildJvm>> servers = new ArrayList<>();
        for (int i = 0; i < regionServers; i++) {
          int n = i;
          servers.add(submit(starter, starting, () -> regionServer(site, n)));
        }
        ChildJvm m = await(master);
        List<ChildJvm> started = new ArrayList<>();
        for (Future<ChildJvm> server : servers) {
          started.add(await(server));
        }
        m.command("await-initialized", startTimeoutSeconds);
        return new ProcessCluster(this, site, storage, zk, m, started);
      } catch (IOException | RuntimeException e) {
        killAll(starting);
        throw e;
      } finally {
        starter.shutdown();
      }
    }

    /** Starts region server {@code n} on the cluster's {@code site} and waits until it serves. */
    private ChildJvm regionServer(Path site, int n) throws IOException {
      return ChildJvm.start("region server " + n, MAIN, List.of("regionserver", site.toString()),
          dataDir.resolve("processes").resolve("regionserver-" + n),
          dataDir.resolve("logs").resolve("regionserver-" + n + ".log"), maxHeap, extraClasspath, fullJit,
          startTimeoutSeconds);
    }

    private static Future<ChildJvm> submit(ExecutorService starter, List<Future<ChildJvm>> starting,
        Callable<ChildJvm> start) {
      Future<ChildJvm> f = starter.submit(start);
      starting.add(f);
      return f;
    }

    /** The started member, or the exception its start failed with. */
    private static ChildJvm await(Future<ChildJvm> starting) throws IOException {
      try {
        return starting.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted starting the cluster");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof IOException io) {
          throw io;
        }
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IOException(e.getCause());
      }
    }

    /** Kills every member that started; a start still waiting is interrupted, which kills its process. */
    private static void killAll(List<Future<ChildJvm>> starting) {
      for (Future<ChildJvm> f : starting) {
        if (!f.cancel(true)) {
          try {
            f.get().kill();
          } catch (ExecutionException failedToStart) {
            // Nothing to kill: ChildJvm.start kills what did not get ready.
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    }

    /** Starts one storage or coordination member ({@code role} of {@code ClusterMemberServer}). */
    private ChildJvm member(String name, String role, String heap, List<String> args, List<Path> classpath)
        throws IOException {
      List<String> all = new ArrayList<>(List.of(role));
      all.addAll(args);
      String file = name.toLowerCase(Locale.ROOT);
      return ChildJvm.start(name, MAIN, all, dataDir.resolve("processes").resolve(file),
          dataDir.resolve("logs").resolve(file + ".log"), heap, classpath, false, startTimeoutSeconds);
    }

    private Path writeSite(Path file, String quorum, int port, String rootDir) throws IOException {
      Map<String, String> p = new LinkedHashMap<>();
      p.put("hbase.cluster.distributed", "true");
      p.put("hbase.zookeeper.quorum", quorum);
      p.put("hbase.zookeeper.property.clientPort", Integer.toString(port));
      p.put("hbase.rootdir", rootDir);
      if (!hdfs) {
        p.put("hbase.wal.dir", dataDir.resolve("wal").toUri().toString());
        // The local filesystem has no hflush/hsync capability to enforce; a killed process loses
        // nothing the operating system has (a machine crash could).
        p.put("hbase.unsafe.stream.capability.enforce", "false");
      } else {
        // A killed region server leaves its write-ahead logs open on HDFS. Splitting one asks the
        // NameNode to recover its lease, then waits 4 s (HBase's default) before looking again; the
        // DataNode closes the file within a heartbeat or two (1 s here), so look after 1 s and then
        // every 250 ms, as HBase does after its first pause (at 1 s).
        p.put("hbase.lease.recovery.first.pause", "1000");
        p.put("hbase.lease.recovery.pause", "250");
      }
      p.put("hbase.master.port", "0");
      p.put("hbase.regionserver.port", "0");
      p.put("hbase.master.info.port", "-1");
      p.put("hbase.regionserver.info.port", "-1");
      p.put("hbase.regionserver.msginterval", Integer.toString(reportIntervalMillis));
      p.put("hbase.master.hostname", "localhost");
      p.put("hbase.regionserver.hostname", "localhost");
      p.put("hbase.master.ipc.address", "127.0.0.1");
      p.put("hbase.regionserver.ipc.address", "127.0.0.1");
      p.put("hbase.master.wait.on.regionservers.mintostart", Integer.toString(regionServers));
      // Once they have all checked in, the master goes on (it would wait out a 4.5 s timeout).
      p.put("hbase.master.wait.on.regionservers.maxtostart", Integer.toString(regionServers));
      p.put("hbase.coprocessor.abortonerror", "true");
      // A killed region server is noticed within seconds, not the default 90 s.
      p.put("zookeeper.session.timeout", "10000");
      // As in EmbeddedHBaseServer: Admin.flush takes HBase's older flush path.
      p.put("hbase.flush.procedure.enabled", "false");
      // As in EmbeddedHBaseServer: block checksums in CRC32, which the JDK computes in hardware.
      p.put("hbase.hstore.checksum.algorithm", "CRC32");
      StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
      p.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
          .append("</value></property>\n"));
      xml.append("</configuration>\n");
      Files.writeString(file, xml, StandardCharsets.UTF_8);
      return file;
    }
  }
}
