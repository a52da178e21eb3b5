package dev.cryptoworker.embedded.server;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The child-JVM main of one member of {@link dev.cryptoworker.embedded.ProcessCluster}: HBase's
 * ZooKeeper, its master or one region server, each in its own process, as {@code bin/hbase} runs
 * them, configured by the cluster's {@code hbase-site.xml}.
 *
 * <p>Protocol (see {@code ChildJvm}): {@code READY} once started ({@code READY 127.0.0.1 <port>}
 * for ZooKeeper; a region server once it serves); commands on standard input: {@code stop} (a
 * graceful stop; the master's stops the whole cluster), {@code await-initialized} (master: answers
 * {@code OK} once initialised). End of input (the parent died) halts the process.
 *
 * <p>Arguments: {@code zookeeper <dataDir>}, {@code namenode <dataDir>} ({@code READY 127.0.0.1
 * <port>} once out of safe mode), {@code datanode <dataDir> <hdfs://host:port>} ({@code READY} once
 * registered), or {@code master|regionserver <hbase-site.xml>}.
 */
public final class ClusterMemberServer {
  private static final long TIMEOUT_MS = 180_000;

  private ClusterMemberServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ClusterMemberServer zookeeper|namenode <dataDir> | datanode <dataDir> <hdfs-uri>"
          + " | master|regionserver <hbase-site.xml>");
      System.exit(2);
    }
    try {
      switch (args[0]) {
        case "zookeeper" -> zookeeper(new File(args[1]).getAbsoluteFile());
        case "namenode" -> nameNode(new File(args[1]).getAbsoluteFile());
        case "datanode" -> dataNode(new File(args[1]).getAbsoluteFile(), args[2]);
        case "master" -> master(configuration(args[1]));
        case "regionserver" -> regionServer(configuration(args[1]));
        default -> throw new IllegalArgumentException("unknown role " + args[0]);
      }
    } catch (Exception | Error e) {
      e.printStackTrace();
    }
    Runtime.getRuntime().halt(0); // HBase's non-daemon threads would keep the JVM alive
  }

  private static Configuration configuration(String site) {
    Configuration conf = HBaseConfiguration.create();
    conf.addResource(new Path(new File(site).toURI()));
    return conf;
  }

  private static void zookeeper(File dataDir) throws Exception {
    MiniZooKeeperCluster zk = new MiniZooKeeperCluster(HBaseConfiguration.create());
    int port = zk.startup(new File(dataDir, "zookeeper"));
    ready("READY 127.0.0.1 " + port);
    serve(command -> {
      throw new IllegalArgumentException("unknown command: " + command);
    });
    zk.shutdown();
  }

  /** HDFS settings of one-machine members: loopback only, ephemeral ports, one replica. */
  private static Configuration hdfs(File dataDir) {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:0");
    conf.set("dfs.namenode.name.dir", new File(dataDir, "name").toURI().toString());
    conf.set("dfs.datanode.data.dir", new File(dataDir, "data").toURI().toString());
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.datanode.hostname", "127.0.0.1");
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.permissions.enabled", false);
    conf.setInt("dfs.namenode.safemode.extension", 0);
    conf.setInt("dfs.heartbeat.interval", 1);
    return conf;
  }

  private static void nameNode(File dataDir) throws Exception {
    Configuration conf = hdfs(dataDir);
    // Formatting registers the name system's metrics sources once already, in this same JVM.
    DefaultMetricsSystem.setMiniClusterMode(true);
    if (!new File(dataDir, "name").exists()) {
      NameNode.format(conf);
    }
    NameNode nameNode = NameNode.createNameNode(new String[0], conf);
    ready("READY 127.0.0.1 " + nameNode.getNameNodeAddress().getPort());
    serve(command -> {
      throw new IllegalArgumentException("unknown command: " + command);
    });
    nameNode.stop();
  }

  private static void dataNode(File dataDir, String nameNodeUri) throws Exception {
    Configuration conf = hdfs(dataDir);
    conf.set("fs.defaultFS", nameNodeUri);
    conf.set("dfs.namenode.rpc-address", java.net.URI.create(nameNodeUri).getAuthority());
    DataNode dataNode = DataNode.createDataNode(new String[0], conf);
    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
    while (!dataNode.isDatanodeFullyStarted()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("the data node did not register with the name node; see its log");
      }
      Thread.sleep(100);
    }
    ready("READY");
    serve(command -> {
      throw new IllegalArgumentException("unknown command: " + command);
    });
    dataNode.shutdown();
  }

  private static void master(Configuration conf) throws Exception {
    HMaster master = new HMaster(conf);
    master.start();
    ready("READY");
    serve(command -> {
      if (!command.equals("await-initialized")) {
        throw new IllegalArgumentException("unknown command: " + command);
      }
      long deadline = System.currentTimeMillis() + TIMEOUT_MS;
      while (!master.isInitialized()) {
        if (System.currentTimeMillis() > deadline || master.isAborted() || !master.isAlive()) {
          throw new IllegalStateException("the master did not initialise; see its log");
        }
        Thread.sleep(100);
      }
    });
    master.shutdown(); // the whole cluster: region servers stop too
    master.join(TIMEOUT_MS);
  }

  private static void regionServer(Configuration conf) throws Exception {
    HRegionServer server = new HRegionServer(conf);
    server.start();
    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
    while (!server.isOnline()) {
      if (System.currentTimeMillis() > deadline || server.isAborted() || !server.isAlive()) {
        throw new IllegalStateException("the region server did not come online; see its log");
      }
      Thread.sleep(100);
    }
    ready("READY " + server.getServerName());
    serve(command -> {
      throw new IllegalArgumentException("unknown command: " + command);
    });
    server.stop("stopped on request");
    server.join(TIMEOUT_MS);
  }

  private static void ready(String line) {
    System.out.println(line);
    System.out.flush();
  }

  @FunctionalInterface
  private interface Command {
    void run(String command) throws Exception;
  }

  /** Answers commands until {@code stop}; halts at the end of input (the parent died). */
  private static void serve(Command handler) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String command = line.strip();
      if (command.equals("stop")) {
        return;
      }
      try {
        handler.run(command);
        System.out.println("OK");
      } catch (Exception e) {
        System.out.println("ERR " + e);
      }
      System.out.flush();
    }
    Runtime.getRuntime().halt(1);
  }
}
