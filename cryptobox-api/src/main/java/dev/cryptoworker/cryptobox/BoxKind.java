package dev.cryptoworker.cryptobox;

/**
 * The protection a schema can give a row key, qualifier or value, with what the server learns.
 *
 * <p>Each kind is implemented by one CryptoBox module. The server-side capabilities listed here
 * are what the client may push down to region servers; everything else is refused or, when the
 * caller opts in, evaluated on the client.
 */
public enum BoxKind {
  /** No protection. The server sees the value. */
  PLAIN(true, true),
  /**
   * Randomized authenticated encryption (AES-GCM). Leaks only the length (plus a fixed overhead);
   * equal values give unequal ciphertexts, so the server can do nothing with them.
   */
  STD(false, false),
  /**
   * Deterministic authenticated encryption (AES-SIV). Leaks equality, hence frequencies, and the
   * length. Supports point lookups and equality filters on the server.
   */
  DET(true, false),
  /** Order-preserving encryption. Leaks order and approximate distance. */
  OPE(true, true),
  /** Additively homomorphic encryption (Seabed ASHE): sums on the server. */
  ASHE(false, false),
  /** Searchable symmetric encryption index. */
  SSE(false, false),
  /**
   * SPLASHE (Seabed): a low-cardinality dimension stored as one ASHE 0/1 indicator per value, and
   * the ASHE measures it filters splayed into one column per value, so sums and counts per value
   * run on the server while every row stores the same cells: the dimension's frequencies do not
   * leak.
   */
  SPLASHE(false, false);

  private final boolean equalityOnServer;
  private final boolean orderOnServer;

  BoxKind(boolean equalityOnServer, boolean orderOnServer) {
    this.equalityOnServer = equalityOnServer;
    this.orderOnServer = orderOnServer;
  }

  /** Whether equal plaintexts give equal stored bytes, so the server can test equality. */
  public boolean supportsEqualityOnServer() {
    return equalityOnServer;
  }

  /** Whether stored bytes compare (unsigned) in plaintext order, so the server can test ranges. */
  public boolean supportsOrderOnServer() {
    return orderOnServer;
  }

  /** Whether this kind changes the stored bytes at all. */
  public boolean isProtected() {
    return this != PLAIN;
  }
}
