package dev.cryptoworker.cli;

import dev.cryptoworker.embedded.EmbeddedHBase;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Which HBase a command works on: one it starts and stops, or a running cluster. */
final class ClusterOptions {
  /** Looked up by name: the class is on the classpath only when the launcher puts its jar there. */
  private static final String EMBEDDED_CLASS = "dev.cryptoworker.embedded.EmbeddedHBase";

  @ArgGroup(exclusive = true, multiplicity = "1", heading = "HBase (one of):%n")
  Target target;

  static final class Target {
    @Option(names = "--embedded", paramLabel = "DIR",
        description = "Start an embedded HBase (master and region server in a child JVM) on data directory DIR"
            + " for this command and stop it afterwards; data in DIR persists between commands.")
    Path embedded;

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT",
        description = "A running cluster's ZooKeeper quorum (host:port).")
    String zookeeper;

    @Option(names = "--hbase-site", paramLabel = "FILE",
        description = "A running cluster's client configuration (hbase-site.xml).")
    Path hbaseSite;
  }

  /** A connection to the chosen HBase and, for {@code --embedded}, the cluster to stop with it. */
  static final class OpenCluster implements Closeable {
    private final Connection connection;
    private final Closeable embedded;

    private OpenCluster(Connection connection, Closeable embedded) {
      this.connection = connection;
      this.embedded = embedded;
    }

    Connection connection() {
      return connection;
    }

    @Override
    public void close() throws IOException {
      try {
        connection.close();
      } finally {
        if (embedded != null) {
          embedded.close();
        }
      }
    }
  }

  /** Connects (starting the embedded HBase first for {@code --embedded}). */
  OpenCluster open() throws IOException {
    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.client.retries.number", 5);
    if (target.hbaseSite != null) {
      if (!Files.isReadable(target.hbaseSite)) {
        throw new IOException("cannot read --hbase-site " + target.hbaseSite);
      }
      conf.addResource(new org.apache.hadoop.fs.Path(target.hbaseSite.toUri()));
      return new OpenCluster(ConnectionFactory.createConnection(conf), null);
    }
    if (target.zookeeper != null) {
      int colon = target.zookeeper.lastIndexOf(':');
      if (colon <= 0 || colon == target.zookeeper.length() - 1) {
        throw new IllegalArgumentException("--zookeeper " + target.zookeeper + ": expected HOST:PORT");
      }
      conf.set("hbase.zookeeper.quorum", target.zookeeper.substring(0, colon));
      conf.setInt("hbase.zookeeper.property.clientPort", Integer.parseInt(target.zookeeper.substring(colon + 1)));
      return new OpenCluster(ConnectionFactory.createConnection(conf), null);
    }
    return openEmbedded(conf);
  }

  private OpenCluster openEmbedded(Configuration conf) throws IOException {
    try {
      Class.forName(EMBEDDED_CLASS);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("--embedded needs the embedded-hbase jar on the classpath: run the command"
          + " through the ./cryptoworker launcher, or use --zookeeper or --hbase-site");
    }
    EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(target.embedded).start();
    try {
      conf.set("hbase.zookeeper.quorum", hbase.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", hbase.zookeeperPort());
      return new OpenCluster(ConnectionFactory.createConnection(conf), hbase::close);
    } catch (IOException | RuntimeException e) {
      hbase.close();
      throw e;
    }
  }
}
