package dev.cryptoworker.cli;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.ZooKeeperQuorum;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.schema.TableSchema;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Which HBase a command works on (the cluster {@code default}): one it starts and stops, or a
 * running cluster; with {@link NamedClusters}, the other clusters a schema names.
 */
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

  /** How to reach one running cluster: its ZooKeeper quorum or its client configuration file. */
  record Address(String option, ZooKeeperQuorum zookeeper, Path site) {
    static Address zookeeper(String option, String hostPort) {
      try {
        return new Address(option, ZooKeeperQuorum.parse(hostPort), null);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
      }
    }

    static Address site(String option, Path file) {
      return new Address(option, null, file);
    }

    Connection connect() throws IOException {
      Configuration conf = clientConfiguration();
      if (site != null) {
        if (!Files.isReadable(site)) {
          throw new IOException("cannot read " + option + " " + site);
        }
        conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
      } else {
        zookeeper.configure(conf);
      }
      return ConnectionFactory.createConnection(conf);
    }
  }

  /**
   * Connections to the chosen HBase (the cluster {@code default}) and to the named clusters, and,
   * for {@code --embedded}, the HBase to stop with them.
   */
  static final class OpenCluster implements Closeable {
    private final Map<String, Connection> clusters = new LinkedHashMap<>();
    private Closeable embedded;

    private OpenCluster() {}

    /** The cluster {@code default}. */
    Connection connection() {
      return clusters.get(SecureConnection.DEFAULT_CLUSTER);
    }

    /** Every cluster by name, {@code default} first. */
    Map<String, Connection> clusters() {
      return Collections.unmodifiableMap(clusters);
    }

    @Override
    public void close() throws IOException {
      IOException failed = null;
      for (Connection c : clusters.values()) {
        try {
          c.close();
        } catch (IOException e) {
          failed = failed == null ? e : failed;
        }
      }
      if (embedded != null) {
        embedded.close();
      }
      if (failed != null) {
        throw failed;
      }
    }
  }

  /** Connects to the chosen HBase (starting the embedded one first for {@code --embedded}). */
  OpenCluster open() throws IOException {
    return open(Map.of());
  }

  /**
   * Connects to the chosen HBase, as the cluster {@code default}, and to the named clusters, after
   * checking that they include every cluster {@code schemas} name ({@code command}, for the message).
   */
  OpenCluster open(NamedClusters named, String command, List<TableSchema> schemas) throws IOException {
    named.requireClustersOf(command, schemas);
    return open(named.addresses());
  }

  private OpenCluster open(Map<String, Address> named) throws IOException {
    OpenCluster open = new OpenCluster();
    try {
      if (target.hbaseSite != null) {
        open.clusters.put(SecureConnection.DEFAULT_CLUSTER, Address.site("--hbase-site", target.hbaseSite).connect());
      } else if (target.zookeeper != null) {
        open.clusters.put(SecureConnection.DEFAULT_CLUSTER,
            Address.zookeeper("--zookeeper", target.zookeeper).connect());
      } else {
        openEmbedded(open);
      }
      for (Map.Entry<String, Address> c : named.entrySet()) {
        open.clusters.put(c.getKey(), c.getValue().connect());
      }
      return open;
    } catch (IOException | RuntimeException e) {
      open.close();
      throw e;
    }
  }

  private static Configuration clientConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.client.retries.number", 5);
    return conf;
  }

  private void openEmbedded(OpenCluster open) throws IOException {
    try {
      Class.forName(EMBEDDED_CLASS);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("--embedded needs the embedded-hbase jar on the classpath: run the command"
          + " through the ./cryptoworker launcher, or use --zookeeper or --hbase-site");
    }
    EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(target.embedded).start();
    open.embedded = hbase::close;
    Configuration conf = new ZooKeeperQuorum(hbase.zookeeperQuorum(), hbase.zookeeperPort()).configure(clientConfiguration());
    open.clusters.put(SecureConnection.DEFAULT_CLUSTER, ConnectionFactory.createConnection(conf));
  }
}
