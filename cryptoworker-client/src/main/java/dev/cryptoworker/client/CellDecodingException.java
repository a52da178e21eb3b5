package dev.cryptoworker.client;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * A stored row key, qualifier or value did not decode: it was altered, truncated, moved from
 * another row or column, or written under a key this client does not have. CryptoWorker never
 * returns such a cell; it throws this instead.
 *
 * <p>The message names the table, row, column and reason, for example {@code table patients, row
 * 'stored key sha256:3fa2c1d09b7e4410', column identification:name (STD): authentication failed:
 * the ciphertext was altered, moved from another cell, or made under a different key}. A row whose
 * key is protected is named by a fingerprint of its stored key ({@code StoredKeyFingerprint}),
 * never by its plaintext or its stored bytes (messages end up in logs); rows of PLAIN row keys are
 * named as they are.
 */
public final class CellDecodingException extends DoNotRetryIOException {
  private static final long serialVersionUID = 1L;

  private final String table;
  private final String row;
  private final String column;
  private final String reason;

  public CellDecodingException(String table, String row, String column, String reason) {
    super("table " + table + ", row '" + row + "', " + column + ": " + reason);
    this.table = table;
    this.row = row;
    this.column = column;
    this.reason = reason;
  }

  /** The table name. */
  public String table() {
    return table;
  }

  /** The row as the message names it ({@code Bytes.toStringBinary}; a stored key's fingerprint for protected row keys). */
  public String row() {
    return row;
  }

  /** What failed: {@code row key (DET)}, {@code column f:q (STD)} or {@code qualifier in f (DET)}. */
  public String column() {
    return column;
  }

  /** Why it failed. */
  public String reason() {
    return reason;
  }
}
