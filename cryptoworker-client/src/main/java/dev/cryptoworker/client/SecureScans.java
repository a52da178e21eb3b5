package dev.cryptoworker.client;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.client.Query;

/** Per-query options of CryptoWorker, carried as operation attributes (stripped before sending). */
public final class SecureScans {
  static final String CLIENT_SIDE_ATTRIBUTE = "cryptoworker.client-side-evaluation";

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

  static boolean allowsClientSideEvaluation(Query query, SecureTableOptions options) {
    return options.clientSideEvaluation() || query.getAttribute(CLIENT_SIDE_ATTRIBUTE) != null;
  }
}
