package dev.cryptoworker.embedded.server;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The child-JVM main of {@link dev.cryptoworker.embedded.EmbeddedHBase}: HBase's own ZooKeeper,
 * master and region servers on the local filesystem, bound to 127.0.0.1.
 *
 * <p>Protocol on standard streams: prints {@code READY <zkQuorum> <zkPort>} once the master is
 * initialised; reads commands from standard input, one per line, answering {@code OK} or {@code
 * ERR reason}: {@code stop}, {@code abort-regionserver N} (a crash: no graceful close; the master
 * reassigns its regions and replays its WAL), {@code start-regionserver}. End of input (the parent
 * died) also stops the cluster, so no orphan survives its launcher.
 *
 * <p>Arguments: {@code <dataDir> <regionServers>}.
 */
public final class EmbeddedHBaseServer {
  private static final long READY_TIMEOUT_MS = 120_000;

  private EmbeddedHBaseServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: EmbeddedHBaseServer <dataDir> <regionServers> [key=value ...]");
      System.exit(2);
    }
    File dataDir = new File(args[0]).getAbsoluteFile();
    int regionServers = Integer.parseInt(args[1]);

    // Several region servers in one JVM register the same metrics sources (as in HBase's own
    // mini cluster).
    DefaultMetricsSystem.setMiniClusterMode(true);
    Configuration conf = HBaseConfiguration.create();
    boolean restart = new File(dataDir, "hbase").exists();
    MiniZooKeeperCluster zk = new MiniZooKeeperCluster(conf);
    int zkPort = zk.startup(new File(dataDir, "zookeeper"));
    if (restart) {
      DeadServerZnodes.clear(zkPort, conf.get("zookeeper.znode.parent", "/hbase"));
    }

    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.set("hbase.rootdir", new File(dataDir, "hbase").toURI().toString());
    conf.set("hbase.wal.dir", new File(dataDir, "wal").toURI().toString());
    conf.set("hbase.tmp.dir", new File(dataDir, "tmp").getPath());
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.setBoolean(LocalHBaseCluster.ASSIGN_RANDOM_PORTS, true);
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.regionserver.msginterval", 300);
    conf.set("hbase.master.hostname", "localhost");
    conf.set("hbase.regionserver.hostname", "localhost");
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.setInt("hbase.master.wait.on.regionservers.mintostart", regionServers);
    // Once they have all checked in, the master goes on (it would wait out a 4.5 s timeout).
    conf.setInt("hbase.master.wait.on.regionservers.maxtostart", regionServers);
    // Coprocessor failures must be loud in tests, not silently unload the coprocessor.
    conf.setBoolean("hbase.coprocessor.abortonerror", true);
    // A dead region server is noticed within seconds, not the default 90 s.
    conf.setInt("zookeeper.session.timeout", 10_000);
    // Admin.flush takes HBase's older flush path: 2.6's FlushTableProcedure twice never finished
    // (10-minute client timeouts) on fresh 1M-row benchmark tables (embedded-hbase/README.md).
    conf.setBoolean("hbase.flush.procedure.enabled", false);
    // Block checksums in CRC32, which the JDK computes with the CPU's instructions: HBase's default,
    // CRC32C, is pure Java in Hadoop 2.10 and took 14-17% of a region server's CPU in full scans.
    conf.set("hbase.hstore.checksum.algorithm", "CRC32");
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.set(args[i].substring(0, eq), args[i].substring(eq + 1));
    }

    // EmbeddedHBase.Builder.clockOffset: every server of this JVM reads time through the edge.
    long clockOffset = conf.getLong("cryptoworker.embedded.clock.offset.ms", 0);
    if (clockOffset != 0) {
      EnvironmentEdgeManager.injectEdge(() -> System.currentTimeMillis() + clockOffset);
    }

    LocalHBaseCluster cluster = new LocalHBaseCluster(conf, 1, regionServers);
    try {
      cluster.startup();
      awaitMaster(cluster);
    } catch (Exception | Error e) {
      e.printStackTrace();
      Runtime.getRuntime().halt(1); // HBase's non-daemon threads would keep a failed JVM alive
    }

    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(cluster, zk)));
    System.out.println("READY 127.0.0.1 " + zkPort);
    System.out.flush();

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String command = line.strip();
      if (command.equals("stop")) {
        break;
      }
      try {
        if (command.startsWith("abort-regionserver ")) {
          int index = Integer.parseInt(command.substring("abort-regionserver ".length()).strip());
          cluster.getRegionServer(index).abort("aborted on request (fault injection)");
          System.out.println("OK");
        } else if (command.equals("start-regionserver")) {
          JVMClusterUtil.RegionServerThread t = cluster.addRegionServer();
          t.start();
          t.waitForServerOnline();
          System.out.println("OK");
        } else {
          System.out.println("ERR unknown command: " + command);
        }
      } catch (Exception e) {
        System.out.println("ERR " + e);
      }
      System.out.flush();
    }
    System.exit(0); // runs the shutdown hook
  }

  private static void awaitMaster(LocalHBaseCluster cluster) throws InterruptedException {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
    while (System.currentTimeMillis() < deadline) {
      HMaster master = cluster.getActiveMaster();
      if (master != null && master.isInitialized()) {
        return;
      }
      if (cluster.getLiveRegionServers().isEmpty() || cluster.getLiveMasters().isEmpty()) {
        throw new IllegalStateException("HBase failed to start; see the log above");
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("HBase master not initialised after " + READY_TIMEOUT_MS + " ms");
  }

  private static void stop(LocalHBaseCluster cluster, MiniZooKeeperCluster zk) {
    try {
      cluster.shutdown();
      cluster.join();
      zk.shutdown();
    } catch (Exception e) {
      System.err.println("error stopping embedded HBase: " + e);
    }
  }
}
