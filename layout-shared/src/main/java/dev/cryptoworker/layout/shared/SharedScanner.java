package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.spi.ClientFilteredScanner;
import dev.cryptoworker.client.spi.ClientSideFilter;
import dev.cryptoworker.client.spi.MergedRows;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;

/**
 * A scan of a SHARED table: the clusters' rows merged ({@link MergedRows}), each reconciled from
 * the clusters' copies; while enough clusters answer, the scan goes on.
 */
final class SharedScanner extends ClientFilteredScanner {
  private final MergedRows rows;
  private final ShareReconciler reconciler;

  /**
   * @param scanners one per cluster, null where the cluster did not answer
   * @param reversed whether the scan runs in descending row order
   * @param filter the caller's filter, run on decoded rows (null: none)
   * @param limit logical rows to return at most (0 or less: no limit)
   */
  SharedScanner(ResultScanner[] scanners, boolean reversed, ShareReconciler reconciler, ClientSideFilter filter,
      int limit) {
    super(filter, limit);
    this.rows = new MergedRows(scanners, reversed);
    this.reconciler = reconciler;
  }

  @Override
  protected Result nextRow() throws IOException {
    return rows.next() ? reconciler.reconcile(rows.row(), rows.perCluster()) : null;
  }

  @Override
  public void close() {
    rows.close();
  }
}
