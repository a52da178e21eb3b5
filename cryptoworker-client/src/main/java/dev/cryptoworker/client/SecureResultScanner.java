package dev.cryptoworker.client;

import org.apache.hadoop.hbase.client.ResultScanner;

/** The scanner of a {@link SecureTable}: decoded rows, and what it had to skip. */
public interface SecureResultScanner extends ResultScanner {

  /**
   * How many stored rows this scanner skipped because they did not decode; always 0 unless the
   * scan asked to skip them ({@link SecureScans#skipUndecodableRows}, or {@link
   * SecureTableOptions#skipUndecodableRows()}).
   */
  long skippedRows();
}
