package dev.cryptoworker.client;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The storage layouts this client knows, by name: a new layout (MiniCrypt packs, secret shares) is
 * a {@link StorageLayout} implementation and one entry here, selected by the schema. Today every
 * schema uses {@code CELL}.
 */
final class StorageLayouts {
  /** What a layout is opened with. */
  record Context(TableName table, TableCodec codec, Map<String, Connection> clusters, SecureTableOptions options,
      ExecutorService pool) {
    /** The cluster a single-cluster layout stores its table in. */
    Connection defaultCluster() {
      return clusters.get(SecureConnection.DEFAULT_CLUSTER);
    }
  }

  /** Opens a layout for one {@link SecureTable}. */
  @FunctionalInterface
  interface Factory {
    StorageLayout open(Context context) throws IOException;
  }

  private static final Map<String, Factory> FACTORIES = Map.of(
      "CELL", c -> new CellLayout(c.defaultCluster().getTable(c.table()), c.codec(), c.options(), c.pool()));

  private StorageLayouts() {}

  /** The layout of {@code codec}'s schema. */
  static StorageLayout open(Context context) throws IOException {
    if (context.codec().rowsMove()) {
      // A migration moving rows to new stored keys: both forms, one cell per cell.
      return new MovingRowsLayout(context.defaultCluster().getTable(context.table()), context.codec(),
          context.options(), context.pool());
    }
    return FACTORIES.get("CELL").open(context);
  }
}
