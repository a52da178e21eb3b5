package dev.cryptoworker.client.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

/**
 * The stored form of a batch of logical puts for a bulk load ({@link StorageLayout#encodeForBulkLoad}):
 * per cluster of the table's layout, by the name the layout gives it, the stored Puts that cluster's
 * HFiles hold, in the order of the logical puts; and how many clusters must take their files for
 * the batch to count as written (CELL and PACKED: their one cluster; SHARED: n - r). Puts and their
 * cells are new, so a writer may stamp the cells' timestamps in place. A batch may also carry cells
 * of other tables its rows need stored before they become visible ({@link #loadFirst}), such as
 * search-index counts, which the writer loads before the batch's own files, and say which of its
 * cells the region servers read back after the load ({@link #readBack}).
 */
public final class BulkLoadBatch {
  private final Map<String, List<Put>> byCluster;
  private final int quorum;
  private final Predicate<Cell> readBack;
  private final List<CellsOfTable> loadFirst;

  /**
   * Cells of another table that a batch's rows need stored before them, such as search-index
   * counts: {@code table} is open on the cluster that holds it, and the writer closes it. Their
   * timestamps alone must order them against the table's other versions of the same cells (a
   * writer loads them without a sequence id, so the table's regions need not flush first).
   */
  public record CellsOfTable(Table table, List<Put> cells) {
    public CellsOfTable {
      Objects.requireNonNull(table, "table");
      cells = List.copyOf(cells);
    }
  }

  private BulkLoadBatch(Map<String, List<Put>> byCluster, int quorum, Predicate<Cell> readBack,
      List<CellsOfTable> loadFirst) {
    if (byCluster.isEmpty()) {
      throw new IllegalArgumentException("a bulk-load batch needs at least one cluster");
    }
    if (quorum < 1 || quorum > byCluster.size()) {
      throw new IllegalArgumentException("a bulk-load batch over " + byCluster.size() + " clusters needs a quorum of 1 to "
          + byCluster.size() + ", got " + quorum);
    }
    this.byCluster = byCluster;
    this.quorum = quorum;
    this.readBack = readBack;
    this.loadFirst = loadFirst;
  }

  /** The stored puts of a table on one cluster, which must take them. */
  public static BulkLoadBatch onCluster(String cluster, List<Put> stored) {
    Map<String, List<Put>> one = new LinkedHashMap<>();
    one.put(Objects.requireNonNull(cluster, "cluster"), List.copyOf(stored));
    return new BulkLoadBatch(one, 1, null, List.of());
  }

  /**
   * The stored puts of a table over several clusters, in the layout's order of clusters, of which
   * at least {@code quorum} must take theirs.
   */
  public static BulkLoadBatch overClusters(Map<String, List<Put>> byCluster, int quorum) {
    Map<String, List<Put>> copy = new LinkedHashMap<>();
    byCluster.forEach((cluster, stored) -> copy.put(Objects.requireNonNull(cluster, "cluster"), List.copyOf(stored)));
    return new BulkLoadBatch(copy, quorum, null, List.of());
  }

  /**
   * This batch, whose stored cells that {@code cells} selects the region servers read back once
   * loaded (search index cells): a writer keeps them in files of their own and marks every file
   * ({@link dev.cryptoworker.region.LoadedFiles}), so that a region reads those few files instead
   * of every loaded cell.
   */
  public BulkLoadBatch readingBack(Predicate<Cell> cells) {
    return new BulkLoadBatch(byCluster, quorum, Objects.requireNonNull(cells, "cells"), loadFirst);
  }

  /**
   * This batch, whose rows need {@code cells} stored before them: a writer loads those first, as
   * files of their table, and the batch's own files only once they are loaded.
   */
  public BulkLoadBatch loadingFirst(CellsOfTable cells) {
    List<CellsOfTable> first = new ArrayList<>(loadFirst);
    first.add(Objects.requireNonNull(cells, "cells"));
    return new BulkLoadBatch(byCluster, quorum, readBack, List.copyOf(first));
  }

  /** The cells of other tables to load before this batch's files ({@link #loadingFirst}). */
  public List<CellsOfTable> loadFirst() {
    return loadFirst;
  }

  /** The stored cells the region servers read back once loaded, if any ({@link #readingBack}). */
  public Optional<Predicate<Cell>> readBack() {
    return Optional.ofNullable(readBack);
  }

  /** The clusters, in the layout's order. */
  public Set<String> clusters() {
    return Collections.unmodifiableSet(byCluster.keySet());
  }

  /**
   * The stored puts for {@code cluster}, in order.
   *
   * @throws IllegalArgumentException if the batch has no such cluster
   */
  public List<Put> on(String cluster) {
    List<Put> stored = byCluster.get(cluster);
    if (stored == null) {
      throw new IllegalArgumentException("this bulk-load batch has no cluster '" + cluster + "' (clusters: "
          + byCluster.keySet() + ")");
    }
    return stored;
  }

  /** The stored puts for the first cluster: the stored row keys every cluster's puts share. */
  public List<Put> first() {
    return byCluster.values().iterator().next();
  }

  /** Clusters that must take their files for the batch to be written: fewer, and the load fails. */
  public int quorum() {
    return quorum;
  }

  /**
   * The stored puts of {@code batches}, in order, per cluster of the first (every batch of one
   * table has the same clusters).
   */
  public static Map<String, List<Put>> concat(List<BulkLoadBatch> batches) {
    Map<String, List<Put>> out = new LinkedHashMap<>();
    for (BulkLoadBatch b : batches) {
      b.byCluster.forEach((cluster, stored) -> out.computeIfAbsent(cluster, c -> new ArrayList<>()).addAll(stored));
    }
    return out;
  }
}
