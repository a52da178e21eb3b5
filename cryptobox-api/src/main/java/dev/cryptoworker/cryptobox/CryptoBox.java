package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;

/**
 * One protection scheme bound to the keys of one column (or row key, or qualifier set).
 *
 * <p>Implementations draw their own nonces and bind {@code associatedData} to the ciphertext
 * where the scheme can (authenticated boxes): a ciphertext decrypted with different associated
 * data fails. Implementations are thread-safe.
 */
public interface CryptoBox {

  /** The scheme this box implements. */
  BoxKind kind();

  /**
   * Encrypts {@code plaintext}.
   *
   * @param associatedData bytes the ciphertext is bound to (cell coordinates); not encrypted
   */
  byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException;

  /**
   * Decrypts {@code ciphertext}.
   *
   * @throws GeneralSecurityException with a reason (unknown key id, truncated, authentication
   *     failed) when the ciphertext was not produced by this box under this associated data
   */
  byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException;
}
