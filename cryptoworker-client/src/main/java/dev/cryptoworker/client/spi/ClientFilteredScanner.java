package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.SecureResultScanner;
import java.io.IOException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;

/**
 * A scanner that decodes rows on the client and applies the scan's limit and (opted-in) filter
 * there, for layouts whose servers cannot: subclasses give decoded rows one by one.
 */
public abstract class ClientFilteredScanner implements SecureResultScanner {
  private final ClientSideFilter filter;
  private final int limit;
  private int returned;

  /**
   * @param filter the caller's filter, run on decoded rows (null: none)
   * @param limit rows to return at most (0 or less: no limit)
   */
  public ClientFilteredScanner(ClientSideFilter filter, int limit) {
    this.filter = filter;
    this.limit = limit;
  }

  /** The next decoded row (empty or null-free: an empty one is skipped), or null at the end. */
  protected abstract Result nextRow() throws IOException;

  @Override
  public final Result next() throws IOException {
    while ((limit <= 0 || returned < limit) && (filter == null || !filter.exhausted())) {
      Result row = nextRow();
      if (row == null) {
        return null;
      }
      if (filter != null && !row.isEmpty()) {
        row = filter.apply(row);
      }
      if (row != null && !row.isEmpty()) {
        returned++;
        return row;
      }
    }
    return null;
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
