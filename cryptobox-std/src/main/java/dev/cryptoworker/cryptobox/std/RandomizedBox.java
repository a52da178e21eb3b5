package dev.cryptoworker.cryptobox.std;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.aead.AesGcmParameters;
import com.google.crypto.tink.subtle.AesGcmJce;
import com.google.crypto.tink.util.SecretBytes;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.KeyIdPrefix;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.Map;

/**
 * STD: randomized authenticated encryption, AES-256-GCM through Tink.
 *
 * <p>Ciphertext: 5-byte key-id prefix, 12-byte random IV (drawn by Tink for every call), body,
 * 16-byte tag; 33 bytes of overhead. <b>Security:</b> IND-CPA and integrity; the associated data
 * binds the ciphertext to its cell. <b>Leaks:</b> the plaintext length. <b>Limit:</b> with random
 * 96-bit IVs, keep each key under 2^32 encryptions (one key per column makes this far away; rotate
 * the keyset well before).
 */
public final class RandomizedBox implements CryptoBox {
  /** Length of the keys this box takes from a {@link KeyRing}. */
  public static final int KEY_LENGTH_BYTES = 32;

  private static final int IV_AND_TAG = 12 + 16;

  private final KeyRing keys;
  private final Aead primary;
  private final Map<Integer, Aead> byId = new HashMap<>();

  private RandomizedBox(KeyRing keys) throws GeneralSecurityException {
    this.keys = keys;
    for (VersionedKey key : keys.keys()) {
      byId.put(key.keyId(), aeadFor(key));
    }
    this.primary = byId.get(keys.primary().keyId());
  }

  /** A box using the primary key of {@code keys} for writes and any of them for reads. */
  public static RandomizedBox create(KeyRing keys) throws GeneralSecurityException {
    return new RandomizedBox(keys);
  }

  private static Aead aeadFor(VersionedKey key) throws GeneralSecurityException {
    if (key.key().length() != KEY_LENGTH_BYTES) {
      throw new GeneralSecurityException(
          "STD needs " + KEY_LENGTH_BYTES + "-byte keys, got " + key.key().length());
    }
    AesGcmParameters parameters =
        AesGcmParameters.builder()
            .setKeySizeBytes(KEY_LENGTH_BYTES)
            .setIvSizeBytes(12)
            .setTagSizeBytes(16)
            .setVariant(AesGcmParameters.Variant.TINK)
            .build();
    return AesGcmJce.create(
        AesGcmKey.builder()
            .setParameters(parameters)
            .setKeyBytes(SecretBytes.copyFrom(key.key().copyBytes(), InsecureSecretKeyAccess.get()))
            .setIdRequirement(key.keyId())
            .build());
  }

  @Override
  public BoxKind kind() {
    return BoxKind.STD;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return primary.encrypt(plaintext, associatedData);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    VersionedKey key = KeyIdPrefix.keyFor(ciphertext, IV_AND_TAG, keys);
    try {
      return byId.get(key.keyId()).decrypt(ciphertext, associatedData);
    } catch (GeneralSecurityException e) {
      throw new GeneralSecurityException(
          "authentication failed: the ciphertext was altered, moved from another cell, or made"
              + " under a different key");
    }
  }
}
