package dev.cryptoworker.packs;

import java.io.IOException;

/** A stored pack that cannot be opened: tampered, moved to another pack id or table, truncated, malformed. */
public final class PackDecodingException extends IOException {
  private static final long serialVersionUID = 1L;

  public PackDecodingException(String message) {
    super(message);
  }

  public PackDecodingException(String message, Throwable cause) {
    super(message, cause);
  }
}
