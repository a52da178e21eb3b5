package dev.cryptoworker.packs;

import java.io.IOException;

/** A stored pack (or APPEND-mode entry) that cannot be opened: tampered, moved to another pack id or table, truncated, malformed. */
public final class PackDecodingException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String reason;

  /** @param subject what did not open: "pack 'id'", or an APPEND entry with its row */
  PackDecodingException(String table, String subject, String reason, Throwable cause) {
    super("table " + table + ", " + subject + ": " + reason, cause);
    this.reason = reason;
  }

  /** Why the pack does not open, without the table and pack (for callers that name those their own way). */
  public String reason() {
    return reason;
  }
}
