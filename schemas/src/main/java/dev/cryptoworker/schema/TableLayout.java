package dev.cryptoworker.schema;

import java.util.List;
import java.util.Objects;

/**
 * How a table's logical cells are stored (the schema's {@code layout:} section). {@code CELL}, one
 * encrypted stored cell per cell on one cluster, is built in and the default; other layouts (MiniCrypt
 * packs, secret shares) come from modules that register a {@link LayoutDefinition}. Implementations
 * are immutable values (records), equal when their settings are.
 */
public interface TableLayout {
  /** The name of the cluster tables are stored in unless the schema says otherwise. */
  String DEFAULT_CLUSTER = "default";

  /** The layout's name in schemas ({@code CELL}, {@code PACKED}, ...), upper case. */
  String type();

  /**
   * Every cluster the table is stored on, by the names a connection registers them under; the
   * first holds the descriptor that speaks for the table.
   */
  List<String> clusters();

  /** The layout of schemas without a {@code layout:} section. */
  static TableLayout cell() {
    return new Cell(DEFAULT_CLUSTER);
  }

  /**
   * One stored cell per logical cell, on the named cluster.
   *
   * @param cluster the name the connection registered the cluster under ({@code default} unless
   *     the schema says)
   */
  record Cell(String cluster) implements TableLayout {
    /** The layout's name in schemas. */
    public static final String TYPE = "CELL";

    public Cell {
      Objects.requireNonNull(cluster, "cluster");
    }

    @Override
    public String type() {
      return TYPE;
    }

    @Override
    public List<String> clusters() {
      return List.of(cluster);
    }
  }
}
