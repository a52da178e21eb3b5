package dev.cryptoworker.sharing;

import java.security.GeneralSecurityException;

/**
 * Shares that do not decode to a value: too few, malformed, or disagreeing beyond what the code
 * corrects. Never a wrong value instead.
 */
public final class ShareDecodingException extends GeneralSecurityException {
  private static final long serialVersionUID = 1L;

  public ShareDecodingException(String message) {
    super(message);
  }
}
