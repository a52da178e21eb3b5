package dev.cryptoworker.client;

import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The storage layouts this client knows, by name: a new layout (MiniCrypt packs, ...) is a {@link
 * StorageLayout} implementation and one entry here, selected by the schema's {@code layout:}
 * section: {@code CELL} (the default), {@code SHARED} or {@code PACKED}.
 */
final class StorageLayouts {
  /** What a layout is opened with. */
  record Context(TableName table, TableCodec codec, Map<String, Connection> clusters, SecureTableOptions options,
      ExecutorService pool) {
    /** The cluster a single-cluster layout stores its table in. */
    Connection homeCluster() {
      return clusters.get(StorageLayouts.homeCluster(codec.schema().layout()));
    }
  }

  /** Opens a layout for one {@link SecureTable}. */
  @FunctionalInterface
  interface Factory {
    StorageLayout open(Context context) throws IOException;
  }

  private static final Map<String, Factory> FACTORIES = Map.of(
      "CELL", c -> new CellLayout(c.homeCluster().getTable(c.table()), c.codec(), c.options(), c.pool()),
      "SHARED", c -> new SharedLayout(c.table(), c.codec(), (TableLayout.Shared) c.codec().schema().layout(),
          c.clusters(), c.options(), c.pool()),
      "PACKED", c -> new PackedLayout(c.homeCluster().getTable(c.table()), c.codec(), c.options()));

  private StorageLayouts() {}

  /** The layout of {@code codec}'s schema. */
  static StorageLayout open(Context context) throws IOException {
    if (context.codec().rowsMove()) {
      // A migration moving rows to new stored keys: both forms, one cell per cell.
      return new MovingRowsLayout(context.homeCluster().getTable(context.table()), context.codec(),
          context.options(), context.pool());
    }
    return FACTORIES.get(context.codec().schema().layout().type()).open(context);
  }

  /**
   * The cluster whose descriptor speaks for the table: a CELL table's own, a SHARED table's first
   * (every cluster holds the same descriptor).
   */
  static String homeCluster(TableLayout layout) {
    if (layout instanceof TableLayout.Shared shared) {
      return shared.clusters().get(0);
    }
    return layout instanceof TableLayout.Packed packed ? packed.cluster() : ((TableLayout.Cell) layout).cluster();
  }

  /** The families of the stored table: the schema's, or for PACKED those of packs and dictionaries (and APPEND's entries and epoch records). */
  static java.util.Set<String> storedFamilies(TableSchema schema) {
    if (schema.layout() instanceof TableLayout.Packed packed) {
      java.util.List<byte[]> families = packed.mode() == dev.cryptoworker.packs.PackMode.APPEND
          ? java.util.List.of(PackedLayout.FAMILY, PackDictionaryStore.FAMILY, AppendEntries.FAMILY, EpochRecords.FAMILY)
          : java.util.List.of(PackedLayout.FAMILY, PackDictionaryStore.FAMILY);
      return families.stream().map(org.apache.hadoop.hbase.util.Bytes::toString)
          .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }
    return schema.families().keySet();
  }

  /** Every cluster the table is stored on. */
  static java.util.List<String> clustersOf(TableLayout layout) {
    return layout instanceof TableLayout.Shared shared ? shared.clusters() : java.util.List.of(homeCluster(layout));
  }
}
