package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;

/**
 * One JCE cipher per thread for one key: the JDK keeps a cipher's AES key schedule while it is
 * re-initialised with the same key, so a box that owns its ciphers does not re-derive it per call.
 */
public final class ThreadLocalCiphers {
  private ThreadLocalCiphers() {}

  /**
   * Per-thread instances of {@code transformation}.
   *
   * @throws GeneralSecurityException now, rather than on first use, if the JDK lacks it
   */
  public static ThreadLocal<Cipher> of(String transformation) throws GeneralSecurityException {
    Cipher.getInstance(transformation);
    return ThreadLocal.withInitial(() -> {
      try {
        return Cipher.getInstance(transformation);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("this JDK has no " + transformation, e);
      }
    });
  }
}
