package dev.cryptoworker.cryptobox.std;

import com.google.crypto.tink.Aead;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.KeyedPrimitives;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.std.internal.AesGcmAead;
import dev.cryptoworker.cryptobox.std.internal.XAesGcmAead;
import java.security.GeneralSecurityException;

/**
 * STD: randomized authenticated encryption. Stored formats 1 to 3: AES-256-GCM in Tink's format
 * (see {@link AesGcmAead}); format 4: XAES-256-GCM (see {@link XAesGcmAead}).
 *
 * <p>Ciphertext: key header (5 bytes in stored format 1, 1 from format 2 on), nonce (drawn by the
 * box for every call: a random 12-byte IV, in format 4 a 24-byte nonce), body, 16-byte tag; 33, 29
 * or (format 4) 41 bytes of overhead. <b>Security:</b> IND-CPA and integrity; the associated data
 * binds the ciphertext to its cell. <b>Leaks:</b> the plaintext length. <b>Limit:</b> formats 1 to 3
 * use random 96-bit IVs, so keep each key under 2^32 encryptions across every process that uses it
 * (each process counts only its own); format 4 needs no count: about 2^52 encryptions per key keep
 * the chance of a repeated nonce under 2^-33.
 */
public final class RandomizedBox implements CryptoBox {
  /** Length of the keys this box takes from a {@link KeyRing}. */
  public static final int KEY_LENGTH_BYTES = 32;

  private static final int IV_AND_TAG = 12 + 16;
  private static final int NONCE_AND_TAG = 24 + 16;

  private final KeyedPrimitives<Aead> aeads;
  /**
   * XAES boxes only: AES-GCM under the same headers, as earlier formats wrote, to name such
   * a value when it turns up (a table keeps its format, so none should).
   */
  private final KeyedPrimitives<Aead> earlierForm;

  private RandomizedBox(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    this(keys, format, format.extendedNonces());
  }

  /** {@code format} gives the key header; {@code extendedNonces} picks XAES-256-GCM over AES-256-GCM. */
  private RandomizedBox(KeyRing keys, StoredFormat format, boolean extendedNonces) throws GeneralSecurityException {
    if (extendedNonces) {
      this.aeads = KeyedPrimitives.create(keys, format, "STD", KEY_LENGTH_BYTES, NONCE_AND_TAG,
          k -> new XAesGcmAead(k, format));
      this.earlierForm = aesGcm(keys, format == StoredFormat.V1 ? StoredFormat.V1 : StoredFormat.V3);
    } else {
      this.aeads = aesGcm(keys, format);
      this.earlierForm = null;
    }
  }

  private static KeyedPrimitives<Aead> aesGcm(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    return KeyedPrimitives.create(keys, format, "STD", KEY_LENGTH_BYTES, IV_AND_TAG, k -> new AesGcmAead(k, format));
  }

  /**
   * A box in stored format 1 using the primary key of {@code keys} for writes and any of them for
   * reads.
   */
  public static RandomizedBox create(KeyRing keys) throws GeneralSecurityException {
    return new RandomizedBox(keys, StoredFormat.V1);
  }

  /** A box whose ciphertexts carry {@code format}'s key header, under {@code format}'s AEAD. */
  public static RandomizedBox create(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    return new RandomizedBox(keys, format);
  }

  /**
   * A box whose ciphertexts carry format 1's 5-byte key-id prefix, for boxes whose cells keep that
   * header in every format (SSE), under XAES-256-GCM if {@code extendedNonces}, else AES-256-GCM.
   */
  public static RandomizedBox createWithKeyIdPrefix(KeyRing keys, boolean extendedNonces)
      throws GeneralSecurityException {
    return new RandomizedBox(keys, StoredFormat.V1, extendedNonces);
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
    Aead aead;
    try {
      aead = aeads.forCiphertext(ciphertext);
    } catch (GeneralSecurityException e) {
      refuseEarlierForm(ciphertext, associatedData);
      throw e;
    }
    try {
      return aead.decrypt(ciphertext, associatedData);
    } catch (GeneralSecurityException e) {
      refuseEarlierForm(ciphertext, associatedData);
      throw new GeneralSecurityException(
          "authentication failed: the ciphertext was altered, moved from another cell, or made"
              + " under a different key");
    }
  }

  /**
   * Throws, naming the form, if {@code ciphertext} is a valid value of this cell in the AES-GCM form
   * of earlier formats: an XAES table never writes one, so it is refused, but as what it is
   * rather than as an alteration.
   */
  private void refuseEarlierForm(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    if (earlierForm == null) {
      return;
    }
    try {
      earlierForm.forCiphertext(ciphertext).decrypt(ciphertext, associatedData);
    } catch (GeneralSecurityException notThatEither) {
      return;
    }
    throw new GeneralSecurityException("a value in the AES-GCM form of earlier stored formats, which this"
        + " table's format (XAES-256-GCM) does not write (copied from a table of an earlier format, or written by a"
        + " client that ignored this table's format): refused");
  }
}
