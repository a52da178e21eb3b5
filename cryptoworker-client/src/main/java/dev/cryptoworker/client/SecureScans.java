package dev.cryptoworker.client;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.client.Query;
import org.apache.hadoop.hbase.client.Scan;

/** Per-query options of CryptoWorker, carried as operation attributes (stripped before sending). */
public final class SecureScans {
  public static final String CLIENT_SIDE_ATTRIBUTE = "cryptoworker.client-side-evaluation";
  public static final String SKIP_UNDECODABLE_ATTRIBUTE = "cryptoworker.skip-undecodable-rows";

  private SecureScans() {}

  /**
   * Lets this scan or get evaluate on the client whatever the boxes cannot evaluate on ciphertext
   * (the scan then fetches and decrypts more than it returns, and a warning is logged). Returns
   * {@code query} for chaining.
   */
  public static <Q extends Query> Q allowClientSideEvaluation(Q query) {
    query.setAttribute(CLIENT_SIDE_ATTRIBUTE, "true".getBytes(StandardCharsets.US_ASCII));
    return query;
  }

  /**
   * Makes this scan skip stored rows that do not decode (written by a plain client, left by a
   * failed migration, altered) instead of throwing {@link CellDecodingException}; the scanner
   * counts them ({@link SecureResultScanner#skippedRows()}) and logs each at WARN, naming table,
   * column and reason but neither key material nor plaintext. Returns {@code scan} for chaining.
   */
  public static Scan skipUndecodableRows(Scan scan) {
    scan.setAttribute(SKIP_UNDECODABLE_ATTRIBUTE, "true".getBytes(StandardCharsets.US_ASCII));
    return scan;
  }

  public static boolean skipsUndecodableRows(Scan scan, SecureTableOptions options) {
    return options.skipUndecodableRows() || scan.getAttribute(SKIP_UNDECODABLE_ATTRIBUTE) != null;
  }

  /** Whether {@code name} is one of these options (never sent to HBase). */
  public static boolean isOption(String name) {
    return name.equals(CLIENT_SIDE_ATTRIBUTE) || name.equals(SKIP_UNDECODABLE_ATTRIBUTE);
  }

  public static boolean allowsClientSideEvaluation(Query query, SecureTableOptions options) {
    return options.clientSideEvaluation() || query.getAttribute(CLIENT_SIDE_ATTRIBUTE) != null;
  }
}
