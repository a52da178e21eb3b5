package dev.cryptoworker.embedded;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A local development HBase until Ctrl-C:
 * {@code ./mvnw -q -DskipTests -pl embedded-hbase -am package exec:exec@local-hbase}. Prints the
 * ZooKeeper quorum and port to put in the application's configuration. Arguments: data directory
 * (kept between runs) and number of region servers.
 */
public final class LocalHBase {
  private LocalHBase() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 2 || (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h")))) {
      System.out.println("usage: LocalHBase [dataDir (default local-hbase)] [regionServers (default 1)]");
      System.exit(args.length > 2 ? 2 : 0);
    }
    Path dataDir = Paths.get(args.length > 0 ? args[0] : "local-hbase");
    int regionServers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(dataDir).regionServers(regionServers).fullJit(true).start();
    Runtime.getRuntime().addShutdownHook(new Thread(hbase::close));
    System.out.printf("HBase is up: hbase.zookeeper.quorum=%s, hbase.zookeeper.property.clientPort=%d%n"
        + "data in %s, server log in %s; Ctrl-C stops it.%n",
        hbase.zookeeperQuorum(), hbase.zookeeperPort(), dataDir.toAbsolutePath(), hbase.logFile());
    Thread.currentThread().join();
  }
}
