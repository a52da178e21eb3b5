package dev.cryptoworker.spark;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.ZooKeeperQuorum;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The options of a {@code cryptoworker} read or write, checked on the driver: unknown names are
 * refused before any task runs. Values are references (file paths, an environment variable's
 * name), never key material, so the options can travel to executors as they are.
 *
 * <ul>
 *   <li>{@code table}: the table's name (default: the schema's);
 *   <li>{@code schema}: the YAML schema file (required);
 *   <li>{@code keyset}: the encrypted keyset file (required);
 *   <li>{@code kek}: the key-encryption key's URI, as every entry point takes it ({@link
 *       KeyEncryptionKey#fromUri}; default {@code env:CRYPTOWORKER_KEK});
 *   <li>{@code quorum}: the HBase ZooKeeper quorum (default: {@code hbase-site.xml});
 *   <li>{@code write}: how appends reach the table: {@code put} (the buffered mutator, default) or
 *       {@code bulk} (HFiles through {@code SecureBulkLoad});
 *   <li>{@code staging}: where a bulk write stages its HFiles, a directory URI on the cluster's
 *       filesystem (required with {@code write} {@code bulk});
 *   <li>{@code cluster.NAME}: the ZooKeeper quorum ({@code HOST:PORT}) of a cluster the schema's
 *       layout names (a SHARED table's {@code clusters}, a CELL table's {@code cluster}), one per
 *       cluster; the HBase of {@code quorum} is the cluster {@code default};
 *   <li>{@code hbase.*}: any HBase client setting, for every cluster.
 * </ul>
 *
 * Each also comes from the Spark conf as {@code spark.cryptoworker.NAME}; an option given to the
 * reader or writer wins. Files must be readable at the same path on every executor.
 */
final class SourceOptions implements Serializable {
  private static final long serialVersionUID = 1L;
  static final String SPARK_CONF_PREFIX = "spark.cryptoworker.";
  private static final Set<String> NAMES = Set.of("table", "schema", "keyset", "kek", "quorum", "write", "staging");
  /** Options naming a cluster of the schema's layout: {@code cluster.NAME}. */
  private static final String CLUSTER_PREFIX = "cluster.";

  private final Map<String, String> values;
  private transient TableSchema schema;

  private SourceOptions(Map<String, String> values) {
    this.values = values;
  }

  /**
   * {@code given} (the reader's or writer's options, names in any case) over {@code sparkConf}
   * ({@code spark.cryptoworker.*} entries).
   *
   * @throws IllegalArgumentException naming an unknown option or a missing required one
   */
  static SourceOptions of(Map<String, String> given, Map<String, String> sparkConf) {
    Map<String, String> values = new TreeMap<>();
    sparkConf.forEach((k, v) -> {
      if (k.startsWith(SPARK_CONF_PREFIX)) {
        values.put(checked(k.substring(SPARK_CONF_PREFIX.length()), "Spark conf " + k), v);
      }
    });
    given.forEach((k, v) -> values.put(checked(k, "option " + k), v));
    for (String required : new String[] {"schema", "keyset"}) {
      if (!values.containsKey(required)) {
        throw new IllegalArgumentException("cryptoworker data source: option '" + required + "' is required (or Spark"
            + " conf " + SPARK_CONF_PREFIX + required + ")");
      }
    }
    String write = values.getOrDefault("write", "put");
    if (!write.equals("put") && !write.equals("bulk")) {
      throw new IllegalArgumentException("cryptoworker data source: option write must be put or bulk, got '" + write
          + "'");
    }
    values.forEach((k, v) -> {
      if (k.startsWith(CLUSTER_PREFIX)) {
        zookeeper(k, v);
      }
    });
    if (write.equals("bulk") && !values.containsKey("staging")) {
      throw new IllegalArgumentException("cryptoworker data source: option write=bulk needs option staging (a"
          + " directory on the cluster's filesystem for the HFiles)");
    }
    return new SourceOptions(Map.copyOf(values));
  }

  /** Whether appends are bulk loads (option {@code write} {@code bulk}). */
  boolean bulkWrite() {
    return values.getOrDefault("write", "put").equals("bulk");
  }

  /** Where a bulk write stages its HFiles (option {@code staging}). */
  String staging() {
    return values.get("staging");
  }

  private static String checked(String name, String where) {
    String lower = name.toLowerCase(Locale.ROOT);
    boolean cluster = lower.startsWith(CLUSTER_PREFIX) && lower.length() > CLUSTER_PREFIX.length();
    if (!NAMES.contains(lower) && !lower.startsWith("hbase.") && !cluster) {
      throw new IllegalArgumentException("cryptoworker data source: unknown " + where + "; known options: "
          + new java.util.TreeSet<>(NAMES) + ", " + CLUSTER_PREFIX + "NAME and hbase.*");
    }
    // HBase settings keep their case (Spark passes options lower-cased; HBase names are camel case).
    return lower.startsWith("hbase.") ? name : lower;
  }

  /** The table's schema, read from the schema file once per JVM. */
  synchronized TableSchema schema() {
    if (schema == null) {
      schema = readSchema();
    }
    return schema;
  }

  private TableSchema readSchema() {
    try {
      TableSchema schema = TableSchema.load(Path.of(values.get("schema")));
      String table = values.get("table");
      if (table != null && !table.equals(schema.tableName())) {
        throw new IllegalArgumentException("cryptoworker data source: option table '" + table + "' is not the table of"
            + " schema file " + values.get("schema") + " ('" + schema.tableName() + "')");
      }
      return schema;
    } catch (IOException e) {
      throw new UncheckedIOException("cryptoworker data source: cannot read schema file " + values.get("schema"), e);
    }
  }

  /** A source's connection and the HBase connections under it, which it does not close itself. */
  record Connected(SecureConnection secure, List<Connection> clusters) {}

  /**
   * A new connection to the table's clusters with this source's keys and schema: the HBase of
   * {@code quorum} as cluster {@code default}, and each other cluster the schema's layout names by
   * its option {@code cluster.NAME}.
   *
   * @throws IllegalArgumentException naming the table and the option of a cluster not given
   */
  Connected connect() throws IOException {
    TableSchema schema = schema();
    KeyProvider keys = keys();
    Map<String, ZooKeeperQuorum> named = namedClusters(schema);
    List<Connection> opened = new ArrayList<>();
    try {
      Connection hbase = ConnectionFactory.createConnection(hbaseConfiguration());
      opened.add(hbase);
      SecureConnection.Builder builder = SecureConnection.builder().connection(hbase).keys(keys).schema(schema);
      for (Map.Entry<String, ZooKeeperQuorum> cluster : named.entrySet()) {
        Connection c = ConnectionFactory.createConnection(cluster.getValue().configure(hbaseConfiguration()));
        opened.add(c);
        builder.cluster(cluster.getKey(), c);
      }
      return new Connected(builder.build(), List.copyOf(opened));
    } catch (IOException | RuntimeException e) {
      for (Connection c : opened) {
        try {
          c.close();
        } catch (IOException closing) {
          e.addSuppressed(closing);
        }
      }
      throw e;
    }
  }

  /**
   * The ZooKeeper quorum of each cluster other than {@code default} that {@code schema}'s layout
   * names, by name. Spark lower-cases option names, so a cluster's option is found by its name in
   * lower case.
   */
  private Map<String, ZooKeeperQuorum> namedClusters(TableSchema schema) {
    Map<String, ZooKeeperQuorum> out = new LinkedHashMap<>();
    List<String> clusters = schema.layout().clusters();
    for (String cluster : clusters) {
      if (cluster.equals(SecureConnection.DEFAULT_CLUSTER)) {
        continue;
      }
      String option = CLUSTER_PREFIX + cluster.toLowerCase(Locale.ROOT);
      String quorum = values.get(option);
      if (quorum == null) {
        throw new IllegalArgumentException("cryptoworker data source: table " + schema.tableName() + " is stored on"
            + " clusters " + clusters + " (its schema's layout); option " + option + " must give the ZooKeeper quorum"
            + " (HOST:PORT) of " + cluster);
      }
      out.put(cluster, zookeeper(option, quorum));
    }
    return out;
  }

  /** The quorum of a {@code cluster.NAME} option; refuses one that is not {@code HOST:PORT}. */
  private static ZooKeeperQuorum zookeeper(String option, String hostPort) {
    try {
      return ZooKeeperQuorum.parse(hostPort);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cryptoworker data source: option " + option + " must be the cluster's"
          + " ZooKeeper quorum: " + e.getMessage(), e);
    }
  }

  /** The keyset file's keys, opened with the key-encryption key URI of option {@code kek}. */
  KeyProvider keys() throws IOException {
    String kek = values.getOrDefault("kek", "env:" + KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE);
    try {
      return KeyProvider.fromKeysetFile(Path.of(values.get("keyset")), kek);
    } catch (GeneralSecurityException e) {
      throw new IOException("cryptoworker data source: cannot open keyset file " + values.get("keyset") + ": "
          + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cryptoworker data source: option kek: " + e.getMessage(), e);
    }
  }

  private Configuration hbaseConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    values.forEach((k, v) -> {
      if (k.startsWith("hbase.")) {
        conf.set(k, v);
      }
    });
    if (values.containsKey("quorum")) {
      conf.set("hbase.zookeeper.quorum", values.get("quorum"));
    }
    return conf;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SourceOptions other && values.equals(other.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }
}
