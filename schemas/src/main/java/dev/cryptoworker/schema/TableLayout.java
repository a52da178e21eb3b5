package dev.cryptoworker.schema;

import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.util.List;
import java.util.Objects;

/**
 * How a table's logical cells are stored (the schema's {@code layout:} section): one encrypted
 * stored cell per cell on one cluster (CELL, the default), each value split into shares over
 * several independent clusters (SHARED), or many consecutive rows compressed and encrypted in one
 * stored cell (PACKED, MiniCrypt). Immutable.
 */
public sealed interface TableLayout permits TableLayout.Cell, TableLayout.Shared, TableLayout.Packed {
  /** The name of the cluster tables are stored in unless the schema says otherwise. */
  String DEFAULT_CLUSTER = "default";

  /** {@code CELL}, {@code SHARED} or {@code PACKED}. */
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

  /**
   * Rows grouped in packs of about {@code rowsPerPack} consecutive rows, each pack compressed
   * (with a trained dictionary if {@code dictionary}), padded to the first of {@code padding}'s
   * tiers that holds it, and encrypted as one stored cell on {@code cluster}. In APPEND mode a new
   * epoch is opened every {@code epochMillis}, and a client holding an epoch's merge lease that has
   * not renewed it for {@code leaseMillis} is presumed dead.
   */
  record Packed(PackMode mode, int rowsPerPack, PackCompression compression, boolean dictionary, List<Integer> padding,
      String cluster, long epochMillis, long leaseMillis) implements TableLayout {
    public static final long DEFAULT_EPOCH_MILLIS = 60_000;
    public static final long DEFAULT_LEASE_MILLIS = 10_000;

    public Packed {
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(compression, "compression");
      Objects.requireNonNull(cluster, "cluster");
      padding = List.copyOf(padding);
      if (epochMillis <= 0 || leaseMillis <= 0) {
        throw new IllegalArgumentException("epochMillis and leaseMillis must be positive, got " + epochMillis + " and "
            + leaseMillis);
      }
    }

    /** A layout with APPEND's epoch and lease lengths at their defaults. */
    public Packed(PackMode mode, int rowsPerPack, PackCompression compression, boolean dictionary,
        List<Integer> padding, String cluster) {
      this(mode, rowsPerPack, compression, dictionary, padding, cluster, DEFAULT_EPOCH_MILLIS, DEFAULT_LEASE_MILLIS);
    }

    @Override
    public String type() {
      return "PACKED";
    }
  }
}
