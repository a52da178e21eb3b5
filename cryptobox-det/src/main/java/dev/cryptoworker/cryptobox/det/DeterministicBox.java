package dev.cryptoworker.cryptobox.det;

import com.google.crypto.tink.DeterministicAead;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.KeyedPrimitives;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.det.internal.AesSivAead;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

/**
 * DET: deterministic authenticated encryption, AES-SIV (RFC 5297, 512-bit key) in Tink's format
 * (see {@link AesSivAead}).
 *
 * <p>Ciphertext: 5-byte key-id prefix, 16-byte synthetic IV, body; 21 bytes of overhead. In stored
 * format 2: a 1-byte key header, and values of at most 8 bytes as one enciphered 16-byte block
 * (integrity of at least 60 bits for those, 128 for SIV), longer ones as SIV and body.
 * <b>Security:</b> equal (plaintext, associated data) pairs give equal ciphertexts, so the server
 * can match row keys and equality filters; integrity as for any AEAD. <b>Leaks:</b> equality and
 * hence frequencies, and the length. Safe for high-entropy values (ids), weak for low-cardinality
 * ones. New writes use the primary key only, so equality holds only among values written under
 * the same key.
 */
public final class DeterministicBox implements CryptoBox, EqualityOnCiphertext {
  /** Length of the keys this box takes from a {@link KeyRing}. */
  public static final int KEY_LENGTH_BYTES = 64;

  private static final int SIV_LENGTH = 16;

  private final KeyedPrimitives<DeterministicAead> daeads;

  private DeterministicBox(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    this.daeads = KeyedPrimitives.create(keys, format, "DET", KEY_LENGTH_BYTES, SIV_LENGTH,
        k -> AesSivAead.create(k, format));
  }

  /**
   * A box in stored format 1 using the primary key of {@code keys} for writes and any of them for
   * reads.
   */
  public static DeterministicBox create(KeyRing keys) throws GeneralSecurityException {
    return new DeterministicBox(keys, StoredFormat.V1);
  }

  /** A box whose ciphertexts are in {@code format}. */
  public static DeterministicBox create(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    return new DeterministicBox(keys, format);
  }

  @Override
  public BoxKind kind() {
    return BoxKind.DET;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return daeads.primary().encryptDeterministically(plaintext, associatedData);
  }

  /**
   * The ciphertext of {@code plaintext} under every key of the ring, primary first: what an
   * equality search must look for after a rotation, since old rows keep their old ciphertexts.
   */
  @Override
  public List<byte[]> encryptUnderEveryKey(byte[] plaintext, byte[] associatedData)
      throws GeneralSecurityException {
    List<byte[]> out = new ArrayList<>();
    for (DeterministicAead daead : daeads.all()) {
      out.add(daead.encryptDeterministically(plaintext, associatedData));
    }
    return out;
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    DeterministicAead daead = daeads.forCiphertext(ciphertext);
    try {
      return daead.decryptDeterministically(ciphertext, associatedData);
    } catch (GeneralSecurityException e) {
      throw new GeneralSecurityException(
          "authentication failed: the ciphertext was altered, moved from another column, or made"
              + " under a different key");
    }
  }
}
