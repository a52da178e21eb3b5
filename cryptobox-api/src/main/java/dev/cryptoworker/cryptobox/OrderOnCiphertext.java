package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.List;

/**
 * Capability of a box whose stored bytes compare (unsigned, lexicographically) in plaintext order
 * within one key version, so region servers can test ranges and row ranges on stored bytes.
 *
 * <p><b>Leaks:</b> order, and what the scheme says about distance. {@link CryptoBox#encrypt} of such
 * a box is monotone under the primary key.
 */
public interface OrderOnCiphertext {

  /**
   * The bounds of {@code plaintext} under every key this box reads, primary first.
   *
   * @throws IllegalArgumentException if {@code plaintext} is not a value of the box's type
   */
  List<RangeBounds> rangeBounds(byte[] plaintext) throws GeneralSecurityException;
}
