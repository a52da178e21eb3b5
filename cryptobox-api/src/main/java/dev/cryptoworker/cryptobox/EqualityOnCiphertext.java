package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.List;

/**
 * Capability of a box whose equal plaintexts are stored as equal bytes under one key, so region
 * servers can test equality (and group) on stored bytes.
 *
 * <p><b>Leaks:</b> equality, hence the frequency of each value. Ciphertexts of such a box must not
 * be bound to the row, or equal values in different rows would differ: callers give associated
 * data without the row.
 */
public interface EqualityOnCiphertext {

  /**
   * The stored form of {@code plaintext} under every key this box reads, primary first: what an
   * equality search must match, since rows written before a rotation keep their old ciphertexts.
   */
  List<byte[]> encryptUnderEveryKey(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException;
}
