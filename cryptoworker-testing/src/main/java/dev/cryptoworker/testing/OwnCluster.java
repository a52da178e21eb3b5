package dev.cryptoworker.testing;

import dev.cryptoworker.embedded.EmbeddedHBase;
import java.io.IOException;
import java.nio.file.Files;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * An embedded HBase of a test class's own ({@link OwnClusters}), beside {@link SharedHBaseCluster}'s,
 * and a client connection to it: the second cluster of a SHARED table, say. Closing it closes the
 * connection, then the cluster.
 */
public final class OwnCluster implements AutoCloseable {
  private final EmbeddedHBase hbase;
  private final Configuration configuration;
  private final Connection connection;

  private OwnCluster(EmbeddedHBase hbase, Configuration configuration, Connection connection) {
    this.hbase = hbase;
    this.configuration = configuration;
    this.connection = connection;
  }

  /** Starts one (a small heap: tests write little) in a new temporary directory named after {@code name}. */
  public static OwnCluster start(String name) throws IOException {
    return connect(EmbeddedHBase.builder().dataDir(Files.createTempDirectory(name + "-")).maxHeap("384m").start(),
        conf -> {});
  }

  /**
   * A client of {@code hbase}, started, configured to reach it and then by {@code settings}; closes
   * {@code hbase} if the connection fails.
   */
  static OwnCluster connect(EmbeddedHBase hbase, Consumer<Configuration> settings) throws IOException {
    try {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", hbase.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", hbase.zookeeperPort());
      settings.accept(conf);
      return new OwnCluster(hbase, conf, ConnectionFactory.createConnection(conf));
    } catch (IOException | RuntimeException e) {
      hbase.close();
      throw e;
    }
  }

  /** The client configuration {@link #connection} was made with. */
  public Configuration configuration() {
    return configuration;
  }

  /** A connection to it; closed with it. */
  public Connection connection() {
    return connection;
  }

  /** Its ZooKeeper quorum as {@code HOST:PORT}. */
  public String zookeeper() {
    return hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
  }

  @Override
  public void close() throws IOException {
    try {
      connection.close();
    } finally {
      hbase.close();
    }
  }
}
