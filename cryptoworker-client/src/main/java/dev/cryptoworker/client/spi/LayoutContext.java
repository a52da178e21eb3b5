package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.schema.TableLayout;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * What a {@link LayoutProvider} opens one table with: the table's codec (its schema's boxes, keys
 * verified against the table), the connections to the clusters its layout names, the connection's
 * options, thread pool and services.
 */
public final class LayoutContext {
  private final TableName table;
  private final TableCodec codec;
  private final Map<String, Connection> clusters;
  private final String defaultCluster;
  private final SecureTableOptions options;
  private final ExecutorService pool;
  private final ConnectionServices services;

  /**
   * @param clusters every cluster of the connection, by name
   * @param defaultCluster the name of the cluster that holds the counter table
   */
  public LayoutContext(TableName table, TableCodec codec, Map<String, Connection> clusters, String defaultCluster,
      SecureTableOptions options, ExecutorService pool, ConnectionServices services) {
    this.table = Objects.requireNonNull(table, "table");
    this.codec = Objects.requireNonNull(codec, "codec");
    this.clusters = Map.copyOf(clusters);
    this.defaultCluster = defaultCluster;
    this.options = options;
    this.pool = pool;
    this.services = services;
  }

  public TableName table() {
    return table;
  }

  /** The table's codec, in the stored format the table has. */
  public TableCodec codec() {
    return codec;
  }

  /** The table's layout, as its schema gives it. */
  public TableLayout layout() {
    return codec.schema().layout();
  }

  /**
   * The connection to cluster {@code name}.
   *
   * @throws IllegalArgumentException if the connection was not given that cluster
   */
  public Connection cluster(String name) {
    Connection c = clusters.get(name);
    if (c == null) {
      throw new IllegalArgumentException("table " + table + " is stored on cluster '" + name
          + "', which this connection was not given (clusters: " + clusters.keySet() + ")");
    }
    return c;
  }

  /** The cluster whose descriptor speaks for the table: the first of its layout's. */
  public Connection homeCluster() {
    return cluster(layout().clusters().get(0));
  }

  /** The cluster that holds the counter table (identifier leases, checkpoints). */
  public Connection defaultCluster() {
    return cluster(defaultCluster);
  }

  public SecureTableOptions options() {
    return options;
  }

  /** The connection's pool, for calls to several regions or clusters at once. */
  public ExecutorService pool() {
    return pool;
  }

  /**
   * The connection's one instance of {@code type}, created by {@code create} on first use and
   * closed when the connection closes: state that outlives a table handle, such as background
   * merges.
   */
  public <S extends AutoCloseable> S connectionService(Class<S> type, Supplier<S> create) {
    return services.get(type, create);
  }
}
