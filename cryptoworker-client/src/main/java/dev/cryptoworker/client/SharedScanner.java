package dev.cryptoworker.client;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;

/**
 * A scan of a SHARED table: the clusters' rows merged ({@link MergedRows}), each reconciled from
 * the clusters' copies; while enough clusters answer, the scan goes on.
 */
final class SharedScanner implements SecureResultScanner {
  private final MergedRows rows;
  private final ShareReconciler reconciler;
  private final ClientSideFilter filter;
  private final int limit;
  private int returned;

  /**
   * @param scanners one per cluster, null where the cluster did not answer
   * @param reversed whether the scan runs in descending row order
   * @param filter the caller's filter, run on decoded rows (null: none)
   * @param limit logical rows to return at most (0 or less: no limit)
   */
  SharedScanner(ResultScanner[] scanners, boolean reversed, ShareReconciler reconciler, ClientSideFilter filter,
      int limit) {
    this.rows = new MergedRows(scanners, reversed);
    this.reconciler = reconciler;
    this.filter = filter;
    this.limit = limit;
  }

  @Override
  public Result next() throws IOException {
    while ((limit <= 0 || returned < limit) && (filter == null || !filter.exhausted()) && rows.next()) {
      Result logical = reconciler.reconcile(rows.row(), rows.perCluster());
      if (filter != null && !logical.isEmpty()) {
        logical = filter.apply(logical);
      }
      if (logical != null && !logical.isEmpty()) {
        returned++;
        return logical;
      }
    }
    return null;
  }

  @Override
  public void close() {
    rows.close();
  }

  @Override
  public boolean renewLease() {
    return false;
  }

  @Override
  public ScanMetrics getScanMetrics() {
    return null;
  }

  @Override
  public long skippedRows() {
    return 0;
  }
}
