package dev.cryptoworker.schema;

import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.util.List;
import java.util.Objects;

/**
 * How a table's logical cells are stored (the schema's {@code layout:} section): one encrypted
 * stored cell per cell on one cluster (CELL, the default), or each value split into shares over
 * several independent clusters (SHARED). Immutable.
 */
public sealed interface TableLayout permits TableLayout.Cell, TableLayout.Shared {
  /** The name of the cluster tables are stored in unless the schema says otherwise. */
  String DEFAULT_CLUSTER = "default";

  /** {@code CELL} or {@code SHARED}. */
  String type();

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
    public Cell {
      Objects.requireNonNull(cluster, "cluster");
    }

    @Override
    public String type() {
      return "CELL";
    }
  }

  /**
   * Each value split into {@code parameters.n()} shares, share i stored on {@code clusters.get(i)}.
   */
  record Shared(SharingKind scheme, SharingParameters parameters, List<String> clusters) implements TableLayout {
    public Shared {
      Objects.requireNonNull(scheme, "scheme");
      Objects.requireNonNull(parameters, "parameters");
      clusters = List.copyOf(clusters);
    }

    @Override
    public String type() {
      return "SHARED";
    }
  }
}
