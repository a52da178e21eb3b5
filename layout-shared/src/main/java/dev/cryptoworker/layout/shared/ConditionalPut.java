package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.CheckCondition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code checkAndMutate} of a put on a SHARED table, conditioned on one cell. No cluster can compare
 * a share with a value, and a lock on one cluster says nothing of the others, so it runs as an
 * optimistic compare-and-set on the shares themselves:
 *
 * <ol>
 *   <li>Read the checked cell and the cells the put writes on every cluster, decode them as a get
 *       does, and evaluate the condition on the decoded row. If it fails, or the read meets another
 *       write under way: false, nothing written.
 *   <li>The clusters whose newest share of the checked cell belongs to the version decoded (or,
 *       for an absent cell, that hold none) take the put, each in a checkAndMutate of its own that
 *       requires the share it returned to be unchanged (or still absent). The put's timestamp comes
 *       from the write clock, after the version read.
 *   <li>At least n - r took it: true. Fewer: each that did gets its cells back as they were read
 *       (our version deleted, the share read written back at its timestamp, in one checkAndMutate
 *       requiring our share to be there still), and the result is false if every cluster asked
 *       answered (another write changed the cell on some of them meanwhile), else an exception.
 * </ol>
 *
 * <p>Any two write quorums share a cluster when 2(n - r) &gt; n, and a cluster's share changes once per
 * successful write; a write that decoded an older version cannot win that cluster after a later
 * one did, so of conditional writes that read one version at most one succeeds, and each
 * succeeds only on the version it checked (two may both fail). Only layouts with 2(n - r) &gt; n
 * take conditional writes.
 */
final class ConditionalPut {
  private static final Logger LOG = LoggerFactory.getLogger(ConditionalPut.class);

  /** The n stored puts of a logical put, every cell at one timestamp. */
  @FunctionalInterface
  interface Encoder {
    Put[] encode(Put put, long now) throws IOException;
  }

  /** Logs a write some clusters missed. */
  @FunctionalInterface
  interface Degraded {
    void log(ClusterCalls.Outcomes<?> outcomes, String what);
  }

  private final TableCodec codec;
  private final List<String> clusters;
  private final List<Table> tables;
  private final ClusterCalls calls;
  private final ShareReconciler reconciler;
  private final WriteClock clock;
  private final Encoder encoder;
  private final Degraded degraded;
  private final int writeQuorum;

  ConditionalPut(TableCodec codec, List<String> clusters, List<Table> tables, ClusterCalls calls,
      ShareReconciler reconciler, WriteClock clock, Encoder encoder, Degraded degraded, int writeQuorum) {
    this.codec = codec;
    this.clusters = clusters;
    this.tables = tables;
    this.calls = calls;
    this.reconciler = reconciler;
    this.clock = clock;
    this.encoder = encoder;
    this.degraded = degraded;
    this.writeQuorum = writeQuorum;
  }

  /** Whether write quorums of {@code n} clusters with {@code r} missing always share a cluster. */
  static boolean quorumsIntersect(int n, int r) {
    return 2 * (n - r) > n;
  }

  /** Runs {@code cam}: whether it was applied. */
  boolean run(CheckAndMutate cam) throws IOException {
    Put put = refuseUnsupported(cam);
    byte[] row = cam.getRow();
    codec.checkRowType(row);
    codec.familySchema(cam.getFamily()); // refuses unknown families by name
    byte[] storedRow = codec.encodeRow(row);
    byte[] family = cam.getFamily();
    byte[] checked = codec.encodeQualifier(family, cam.getQualifier());
    Get read = new Get(storedRow).addColumn(family, checked);
    for (Map.Entry<byte[], List<Cell>> f : put.getFamilyCellMap().entrySet()) {
      codec.familySchema(f.getKey());
      for (Cell c : f.getValue()) {
        read.addColumn(f.getKey(), codec.encodeQualifier(f.getKey(), CellUtil.cloneQualifier(c)));
      }
    }
    ClusterCalls.Outcomes<Result> seen = calls.onEvery(i -> tables.get(i).get(read));
    Result[] perCluster = new Result[clusters.size()];
    for (int i = 0; i < perCluster.length; i++) {
      perCluster[i] = seen.answered(i) ? seen.result(i) : null;
    }
    String cell = "table " + codec.table() + ", row " + codec.printableRow(row) + ", "
        + codec.describeColumn(family, cam.getQualifier());
    Result logical;
    try {
      logical = reconciler.reconcile(storedRow, perCluster);
    } catch (ShareReconciler.WriteUnderWay e) {
      LOG.debug("{}: a conditional write met another write under way; not written", cell);
      return false;
    }
    if (!CheckCondition.holds(cam, logical)) {
      return false;
    }
    Cell decoded = logical.getColumnLatestCell(family, cam.getQualifier());
    boolean[] holding = new boolean[perCluster.length];
    int holders = 0;
    boolean newer = false;
    for (int i = 0; i < perCluster.length; i++) {
      Cell share = perCluster[i] == null ? null : perCluster[i].getColumnLatestCell(family, checked);
      holding[i] = perCluster[i] != null
          && (decoded == null ? share == null : share != null && share.getTimestamp() == decoded.getTimestamp());
      holders += holding[i] ? 1 : 0;
      newer |= share != null && !holding[i] && (decoded == null || share.getTimestamp() > decoded.getTimestamp());
    }
    if (holders < writeQuorum) {
      if (newer) {
        // A write under way on the others (or the leftover of one that failed, with others lacking the cell).
        LOG.debug("{}: a conditional write found {} clusters holding the version it checked and newer ones on"
            + " others; not written", cell, holders);
        return false;
      }
      throw new IOException(cell + ": a conditional write needs " + writeQuorum + " clusters holding the version it"
          + " checked, and " + holders + " do (the others lack it or did not answer: " + describe(holding)
          + "); bring the clusters back, or repair the table");
    }
    return compareAndSet(cell, storedRow, family, checked, put, perCluster, holding);
  }

  /**
   * Writes {@code put} on the {@code holding} clusters, each requiring the share of the checked
   * cell it returned ({@code perCluster}) unchanged; takes it back if fewer than n - r took it.
   */
  private boolean compareAndSet(String cell, byte[] storedRow, byte[] family, byte[] checked, Put put,
      Result[] perCluster, boolean[] holding) throws IOException {
    Put[] stored = encoder.encode(put, clock.next());
    ClusterCalls.Outcomes<Boolean> written = calls.on(holding, i -> {
      Cell share = perCluster[i].getColumnLatestCell(family, checked);
      CheckAndMutate.Builder unchanged = CheckAndMutate.newBuilder(storedRow);
      unchanged = share == null ? unchanged.ifNotExists(family, checked)
          : unchanged.ifEquals(family, checked, CellUtil.cloneValue(share));
      return tables.get(i).checkAndMutate(unchanged.build(stored[i])).isSuccess();
    });
    int took = 0;
    boolean[] undo = new boolean[holding.length];
    for (int i = 0; i < holding.length; i++) {
      boolean yes = written.answered(i) && written.result(i);
      took += yes ? 1 : 0;
      undo[i] = holding[i] && (yes || !written.answered(i)); // took it, or may have
    }
    if (took >= writeQuorum) {
      degraded.log(written, "conditional put");
      return true;
    }
    ClusterCalls.Outcomes<Boolean> undone = calls.on(undo,
        i -> tables.get(i).checkAndMutate(takeBack(storedRow, stored[i], perCluster[i])).isSuccess());
    for (int i = 0; i < holding.length; i++) {
      // A write request that did not answer in time may still be applied, after the taking back; a
      // taking back that did not answer may have left the put there.
      if ((holding[i] && !written.answered(i)) || (undo[i] && !undone.answered(i))) {
        throw new IOException(cell + ": a conditional write reached " + took + " of " + clusters.size()
            + " clusters, " + writeQuorum + " needed, and its outcome is unknown: some did not answer (writing: "
            + written.describeFailures(clusters) + "; taking back: " + undone.describeFailures(clusters)
            + "); read the cell, and repair the table once they answer");
      }
    }
    return false; // another write took some of the clusters first; this one is taken back from the others
  }

  /**
   * Cluster {@code read}'s cells as they were read, if {@code stored} is still there: its version
   * deleted, and the share each cell held written back at its timestamp.
   */
  private static CheckAndMutate takeBack(byte[] storedRow, Put stored, Result read) throws IOException {
    Delete ours = new Delete(storedRow);
    Put before = new Put(storedRow);
    Cell first = null;
    for (List<Cell> cells : stored.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        first = first == null ? c : first;
        byte[] family = CellUtil.cloneFamily(c);
        byte[] qualifier = CellUtil.cloneQualifier(c);
        ours.addColumn(family, qualifier, c.getTimestamp());
        Cell was = read.getColumnLatestCell(family, qualifier);
        if (was != null) {
          before.addColumn(family, qualifier, was.getTimestamp(), CellUtil.cloneValue(was));
        }
      }
    }
    RowMutations back = new RowMutations(storedRow);
    back.add(before.isEmpty() ? List.of(ours) : List.of(ours, before));
    return CheckAndMutate.newBuilder(storedRow)
        .ifEquals(CellUtil.cloneFamily(first), CellUtil.cloneQualifier(first), CellUtil.cloneValue(first)).build(back);
  }

  private String describe(boolean[] holding) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < holding.length; i++) {
      if (!holding[i]) {
        out.add(clusters.get(i));
      }
    }
    return out.toString();
  }

  /** The put of {@code cam}, refusing what this cannot do as a compare-and-set on shares. */
  private Put refuseUnsupported(CheckAndMutate cam) throws UnsupportedSecureOperationException {
    if (cam.hasFilter()) {
      throw refused(cam, "checkAndMutate with a filter condition", "a filter reads cells whose shares the clusters"
          + " could not all check unchanged; condition on one column");
    }
    if (cam.getTimeRange() != null && !cam.getTimeRange().isAllTime()) {
      throw refused(cam, "checkAndMutate with a time range", "the clusters check the newest share of the cell");
    }
    if (!(cam.getAction() instanceof Put put)) {
      throw refused(cam, "checkAndMutate with a " + cam.getAction().getClass().getSimpleName(), "only a put can be"
          + " taken back from the clusters that took it when too few did (a delete cannot)");
    }
    if (put.isEmpty()) {
      throw new IllegalArgumentException("table " + codec.table() + ": checkAndMutate of a put without cells");
    }
    if (put.getTimestamp() != HConstants.LATEST_TIMESTAMP || put.getFamilyCellMap().values().stream()
        .flatMap(List::stream).anyMatch(c -> c.getTimestamp() != HConstants.LATEST_TIMESTAMP)) {
      throw refused(cam, "checkAndMutate of a put with explicit timestamps", "its timestamp must come from the write"
          + " clock, after the version it checked");
    }
    return put;
  }

  private UnsupportedSecureOperationException refused(CheckAndMutate cam, String what, String why) {
    return new UnsupportedSecureOperationException(codec.table(), codec.describeRowKey(),
        what + " on a SHARED table: " + why);
  }
}
