package dev.cryptoworker.cryptobox.std.internal;

import dev.cryptoworker.cryptobox.KeyIdPrefix;
import java.security.GeneralSecurityException;
import java.security.Key;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * AES-GCM calls on a JDK {@link Cipher} for ciphertexts laid out as {@code header | nonce | body |
 * tag}, in place: the IV is read from the array, the body written into it. Shared by {@link
 * AesGcmAead} and {@link XAesGcmAead}, whose nonces differ only before the 12-byte GCM IV.
 */
final class HeaderedGcm {
  static final int IV_LENGTH = 12;
  static final int TAG_LENGTH = 16;

  private HeaderedGcm() {}

  /**
   * An array for the ciphertext of {@code plaintextLength} bytes after {@code headerLength} bytes
   * of header and nonce, starting with {@code prefix}.
   */
  static byte[] output(byte[] prefix, int headerLength, int plaintextLength) throws GeneralSecurityException {
    if (plaintextLength > Integer.MAX_VALUE - headerLength - TAG_LENGTH) {
      throw new GeneralSecurityException("plaintext too long");
    }
    byte[] out = new byte[headerLength + plaintextLength + TAG_LENGTH];
    System.arraycopy(prefix, 0, out, 0, prefix.length);
    return out;
  }

  /**
   * As {@link #output}, with the caller's {@code nonce} written after the prefix; for known-answer
   * tests only.
   */
  static byte[] outputWithNonce(byte[] prefix, int headerLength, byte[] nonce, int plaintextLength)
      throws GeneralSecurityException {
    int expected = headerLength - prefix.length;
    if (nonce.length != expected) {
      throw new GeneralSecurityException("this AEAD takes " + expected + "-byte nonces, got " + nonce.length);
    }
    byte[] out = output(prefix, headerLength, plaintextLength);
    System.arraycopy(nonce, 0, out, prefix.length, nonce.length);
    return out;
  }

  /** Refuses a ciphertext too short for its header and tag, or that does not start with {@code prefix}. */
  static void requireFrame(byte[] ciphertext, byte[] prefix, int headerLength) throws GeneralSecurityException {
    if (ciphertext.length < headerLength + TAG_LENGTH) {
      throw new GeneralSecurityException("ciphertext too short");
    }
    if (!KeyIdPrefix.isPrefixOf(prefix, ciphertext)) {
      throw new GeneralSecurityException("wrong key id prefix");
    }
  }

  /** Encrypts into {@code out} after {@code headerLength} bytes, under the IV at {@code ivOffset}. */
  static byte[] seal(Cipher cipher, Key key, byte[] out, int ivOffset, int headerLength, byte[] plaintext,
      byte[] associatedData) throws GeneralSecurityException {
    cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(8 * TAG_LENGTH, out, ivOffset, IV_LENGTH));
    if (associatedData != null) {
      cipher.updateAAD(associatedData);
    }
    int written = cipher.doFinal(plaintext, 0, plaintext.length, out, headerLength);
    if (written != plaintext.length + TAG_LENGTH) {
      throw new GeneralSecurityException("AES-GCM wrote " + written + " bytes, expected " + (plaintext.length + TAG_LENGTH));
    }
    return out;
  }

  /** Decrypts what follows {@code headerLength} bytes of {@code ciphertext}, under the IV at {@code ivOffset}. */
  static byte[] open(Cipher cipher, Key key, byte[] ciphertext, int ivOffset, int headerLength,
      byte[] associatedData) throws GeneralSecurityException {
    cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(8 * TAG_LENGTH, ciphertext, ivOffset, IV_LENGTH));
    if (associatedData != null) {
      cipher.updateAAD(associatedData);
    }
    return cipher.doFinal(ciphertext, headerLength, ciphertext.length - headerLength);
  }
}
