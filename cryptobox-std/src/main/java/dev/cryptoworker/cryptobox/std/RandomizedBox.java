package dev.cryptoworker.cryptobox.std;

import com.google.crypto.tink.Aead;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.KeyedPrimitives;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.std.internal.AesGcmAead;
import java.security.GeneralSecurityException;

/**
 * STD: randomized authenticated encryption, AES-256-GCM in Tink's format (see {@link AesGcmAead}).
 *
 * <p>Ciphertext: key header (5 bytes in stored format 1, 1 in format 2), 12-byte random IV (drawn by
 * the box for every call), body, 16-byte tag; 33 or 29 bytes of overhead. <b>Security:</b> IND-CPA and integrity; the associated data
 * binds the ciphertext to its cell. <b>Leaks:</b> the plaintext length. <b>Limit:</b> with random
 * 96-bit IVs, keep each key under 2^32 encryptions (one key per column makes this far away; rotate
 * the keyset well before).
 */
public final class RandomizedBox implements CryptoBox {
  /** Length of the keys this box takes from a {@link KeyRing}. */
  public static final int KEY_LENGTH_BYTES = 32;

  private static final int IV_AND_TAG = 12 + 16;

  private final KeyedPrimitives<Aead> aeads;

  private RandomizedBox(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    this.aeads = KeyedPrimitives.create(keys, format, "STD", KEY_LENGTH_BYTES, IV_AND_TAG,
        k -> new AesGcmAead(k, format));
  }

  /**
   * A box in stored format 1 using the primary key of {@code keys} for writes and any of them for
   * reads.
   */
  public static RandomizedBox create(KeyRing keys) throws GeneralSecurityException {
    return new RandomizedBox(keys, StoredFormat.V1);
  }

  /** A box whose ciphertexts carry {@code format}'s key header. */
  public static RandomizedBox create(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    return new RandomizedBox(keys, format);
  }

  @Override
  public BoxKind kind() {
    return BoxKind.STD;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return aeads.primary().encrypt(plaintext, associatedData);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    Aead aead = aeads.forCiphertext(ciphertext);
    try {
      return aead.decrypt(ciphertext, associatedData);
    } catch (GeneralSecurityException e) {
      throw new GeneralSecurityException(
          "authentication failed: the ciphertext was altered, moved from another cell, or made"
              + " under a different key");
    }
  }
}
