package dev.cryptoworker.client.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.client.Put;

/**
 * The stored form of a batch of logical puts for a bulk load ({@link StorageLayout#encodeForBulkLoad}):
 * per cluster of the table's layout, by the name the layout gives it, the stored Puts that cluster's
 * HFiles hold, in the order of the logical puts; and how many clusters must take their files for
 * the batch to count as written (CELL and PACKED: their one cluster; SHARED: n - r). Puts and their
 * cells are new, so a writer may stamp the cells' timestamps in place. A batch may also name writes
 * its rows need stored before they become visible ({@link #loadable}), such as search-index counts,
 * which the writer awaits before loading its files rather than the encoder batch by batch.
 */
public final class BulkLoadBatch {
  private final Map<String, List<Put>> byCluster;
  private final int quorum;
  private final CompletableFuture<Void> loadable;

  private BulkLoadBatch(Map<String, List<Put>> byCluster, int quorum, CompletableFuture<Void> loadable) {
    if (byCluster.isEmpty()) {
      throw new IllegalArgumentException("a bulk-load batch needs at least one cluster");
    }
    if (quorum < 1 || quorum > byCluster.size()) {
      throw new IllegalArgumentException("a bulk-load batch over " + byCluster.size() + " clusters needs a quorum of 1 to "
          + byCluster.size() + ", got " + quorum);
    }
    this.byCluster = byCluster;
    this.quorum = quorum;
    this.loadable = Objects.requireNonNull(loadable, "loadable");
  }

  /** The stored puts of a table on one cluster, which must take them. */
  public static BulkLoadBatch onCluster(String cluster, List<Put> stored) {
    Map<String, List<Put>> one = new LinkedHashMap<>();
    one.put(Objects.requireNonNull(cluster, "cluster"), List.copyOf(stored));
    return new BulkLoadBatch(one, 1, CompletableFuture.completedFuture(null));
  }

  /**
   * The stored puts of a table over several clusters, in the layout's order of clusters, of which
   * at least {@code quorum} must take theirs.
   */
  public static BulkLoadBatch overClusters(Map<String, List<Put>> byCluster, int quorum) {
    Map<String, List<Put>> copy = new LinkedHashMap<>();
    byCluster.forEach((cluster, stored) -> copy.put(Objects.requireNonNull(cluster, "cluster"), List.copyOf(stored)));
    return new BulkLoadBatch(copy, quorum, CompletableFuture.completedFuture(null));
  }

  /**
   * This batch, loadable only once {@code writes} completes: writes its rows need stored before they
   * become visible. If {@code writes} fails, the batch's files must not be loaded.
   */
  public BulkLoadBatch loadableAfter(CompletableFuture<Void> writes) {
    return new BulkLoadBatch(byCluster, quorum, loadable.thenCombine(writes, (a, b) -> null));
  }

  /**
   * Completes when the batch's files may be loaded; completes exceptionally (with the IOException
   * that stopped a prior write) when they must not be.
   */
  public CompletableFuture<Void> loadable() {
    return loadable;
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
