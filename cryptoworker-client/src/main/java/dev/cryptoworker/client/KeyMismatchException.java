package dev.cryptoworker.client;

import java.io.IOException;

/**
 * The keys of this client are not the keys a table was created with (a wrong master key, keyset
 * or key-encryption key, or a keyset without the table's key): refused before any read, which
 * would otherwise find nothing rather than fail.
 */
public final class KeyMismatchException extends IOException {
  private static final long serialVersionUID = 1L;
  private final String table;

  public KeyMismatchException(String table, String reason) {
    super("table " + table + ": " + reason);
    this.table = table;
  }

  /** The table whose key check failed. */
  public String table() {
    return table;
  }
}
