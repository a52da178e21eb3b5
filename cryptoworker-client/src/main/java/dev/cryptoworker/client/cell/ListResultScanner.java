package dev.cryptoworker.client.cell;

import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;

/** Rows already fetched (every region's answer to a search), as a scanner. */
final class ListResultScanner implements ResultScanner {
  private final Iterator<Result> rows;

  ListResultScanner(List<Result> rows) {
    this.rows = rows.iterator();
  }

  @Override
  public Result next() {
    return rows.hasNext() ? rows.next() : null;
  }

  @Override
  public void close() {}

  @Override
  public boolean renewLease() {
    return true;
  }

  @Override
  public ScanMetrics getScanMetrics() {
    return null;
  }
}
