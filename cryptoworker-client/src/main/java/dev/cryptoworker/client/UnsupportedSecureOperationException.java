package dev.cryptoworker.client;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * An operation cannot be carried out on ciphertext: a filter or comparison a box does not support
 * on the server, an increment of an encrypted column, a range scan over encrypted row keys. It is
 * refused rather than silently downloading and filtering the table; where client-side evaluation
 * is possible, the message says how to opt in.
 */
public final class UnsupportedSecureOperationException extends DoNotRetryIOException {
  private static final long serialVersionUID = 1L;

  private final String table;
  private final String column;
  private final String reason;

  public UnsupportedSecureOperationException(String table, String column, String reason) {
    super("table " + table + ", " + column + ": " + reason);
    this.table = table;
    this.column = column;
    this.reason = reason;
  }

  public String table() {
    return table;
  }

  /** The column (with its box) or {@code row key (BOX)} the operation touched. */
  public String column() {
    return column;
  }

  public String reason() {
    return reason;
  }
}
