package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.Optional;

/**
 * One protection scheme bound to the keys of one column (or row key, or qualifier set).
 *
 * <p>Implementations draw their own nonces and bind {@code associatedData} to the ciphertext
 * where the scheme can (authenticated boxes): a ciphertext decrypted with different associated
 * data fails. Implementations are thread-safe.
 *
 * <p>What a box can do beyond encrypt and decrypt (equality or order on ciphertext, additive
 * aggregation, ...) is a capability: a small interface the client asks for with {@link
 * #capability}, never a cast to a concrete box.
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

  /**
   * This box as capability {@code type} (for example {@link EqualityOnCiphertext}), if it has it.
   * A box may withhold a capability its class implements when its configuration breaks it (an
   * order-preserving box with a randomized companion stores equal values as different bytes).
   */
  default <C> Optional<C> capability(Class<C> type) {
    return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
  }
}
