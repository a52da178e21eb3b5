package dev.cryptoworker.layout.shared;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;

/**
 * A cluster's scanner whose first row was read when it was opened, inside the call that the
 * cluster timeout bounds: a cluster that is down fails there (and is skipped from then on), not in
 * the merged walk, which waits on each cluster in turn.
 */
final class FirstRowScanner implements ResultScanner {
  private final ResultScanner scanner;
  private Result first;
  private boolean firstGiven;

  private FirstRowScanner(ResultScanner scanner, Result first) {
    this.scanner = scanner;
    this.first = first;
  }

  /** Reads {@code scanner}'s first row; closes it if that fails. */
  static FirstRowScanner open(ResultScanner scanner) throws IOException {
    try {
      return new FirstRowScanner(scanner, scanner.next());
    } catch (IOException | RuntimeException e) {
      scanner.close();
      throw e;
    }
  }

  @Override
  public Result next() throws IOException {
    if (!firstGiven) {
      firstGiven = true;
      Result r = first;
      first = null;
      return r;
    }
    return scanner.next();
  }

  @Override
  public void close() {
    scanner.close();
  }

  @Override
  public boolean renewLease() {
    return scanner.renewLease();
  }

  @Override
  public ScanMetrics getScanMetrics() {
    return scanner.getScanMetrics();
  }
}
