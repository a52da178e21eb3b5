package dev.cryptoworker.cryptobox;

/**
 * The protection a schema can give a row key, qualifier or value, with what the server learns.
 *
 * <p>Each kind is implemented by one CryptoBox module. What the server can do with a kind's
 * stored bytes is not a property of the kind but of the configured box: ask the box for its
 * capabilities ({@link CryptoBox#capability}).
 */
public enum BoxKind {
  /** No protection. The server sees the value. */
  PLAIN,
  /**
   * Randomized authenticated encryption (AES-GCM). Leaks only the length (plus a fixed overhead);
   * equal values give unequal ciphertexts, so the server can do nothing with them.
   */
  STD,
  /**
   * Deterministic authenticated encryption (AES-SIV). Leaks equality, hence frequencies, and the
   * length. Supports point lookups and equality filters on the server.
   */
  DET,
  /** Order-preserving encryption. Leaks order and approximate distance. */
  OPE,
  /** Additively homomorphic encryption (Seabed ASHE): sums on the server. */
  ASHE,
  /** Searchable symmetric encryption index. */
  SSE,
  /**
   * SPLASHE (Seabed): a low-cardinality dimension stored as one ASHE 0/1 indicator per value, and
   * the ASHE measures it filters splayed into one column per value, so sums and counts per value
   * run on the server while every row stores the same cells: the dimension's frequencies do not
   * leak.
   */
  SPLASHE;

  /** Whether this kind changes the stored bytes at all. */
  public boolean isProtected() {
    return this != PLAIN;
  }
}
