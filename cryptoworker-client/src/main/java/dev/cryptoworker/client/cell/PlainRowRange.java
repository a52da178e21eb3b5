package dev.cryptoworker.client.cell;

import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A Scan's row range, checked on the client: a plaintext range on decoded rows when keys are stored
 * encrypted, or a stored range on the rows a search returns (the servers' word).
 */
public record PlainRowRange(byte[] start, boolean startInclusive, byte[] stop, boolean stopInclusive) {

  public static PlainRowRange of(Scan scan) {
    // In a reversed scan the start row is the high end.
    return scan.isReversed()
        ? new PlainRowRange(scan.getStopRow(), scan.includeStopRow(), scan.getStartRow(), scan.includeStartRow())
        : new PlainRowRange(scan.getStartRow(), scan.includeStartRow(), scan.getStopRow(), scan.includeStopRow());
  }

  boolean contains(byte[] row) {
    if (start.length > 0) {
      int c = Bytes.compareTo(row, start);
      if (c < 0 || (c == 0 && !startInclusive)) {
        return false;
      }
    }
    if (stop.length > 0) {
      int c = Bytes.compareTo(row, stop);
      if (c > 0 || (c == 0 && !stopInclusive)) {
        return false;
      }
    }
    return true;
  }
}
