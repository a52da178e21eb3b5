package dev.cryptoworker.keys;

import com.google.crypto.tink.Aead;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * AES-GCM computed by a PKCS#11 token on a key it holds: {@code iv (12 bytes) || ciphertext ||
 * tag (16 bytes)}, the layout of Tink's AES-GCM. The random IV is drawn here, so the token's own
 * generator need not be trusted with nonces.
 */
final class Pkcs11Aead implements Aead {
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Provider provider;
  private final SecretKey key;

  Pkcs11Aead(Provider provider, SecretKey key) {
    this.provider = provider;
    this.key = key;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    byte[] iv = new byte[IV_BYTES];
    RANDOM.nextBytes(iv);
    Cipher cipher = cipher(Cipher.ENCRYPT_MODE, iv, associatedData);
    byte[] sealed = cipher.doFinal(plaintext);
    return ByteBuffer.allocate(IV_BYTES + sealed.length).put(iv).put(sealed).array();
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    if (ciphertext.length < IV_BYTES + TAG_BITS / 8) {
      throw new GeneralSecurityException("ciphertext too short");
    }
    byte[] iv = java.util.Arrays.copyOf(ciphertext, IV_BYTES);
    return cipher(Cipher.DECRYPT_MODE, iv, associatedData).doFinal(ciphertext, IV_BYTES, ciphertext.length - IV_BYTES);
  }

  private Cipher cipher(int mode, byte[] iv, byte[] associatedData) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding", provider);
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, iv));
    if (associatedData != null) {
      cipher.updateAAD(associatedData);
    }
    return cipher;
  }
}
