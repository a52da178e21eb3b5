package dev.cryptoworker.cryptobox.std.internal;

import com.google.crypto.tink.Aead;
import dev.cryptoworker.cryptobox.RandomNonces;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.ThreadLocalCiphers;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM as a Tink {@link Aead}, byte for byte in the format of Tink's {@code AesGcmJce}
 * with the TINK output prefix: {@code 0x01 | key id | 12-byte random IV | ciphertext | 16-byte
 * tag}, the prefix not authenticated. In stored format 2 the prefix is the key id's low byte only
 * (see {@link StoredFormat}). Tink's {@code AesGcmJceUtil} and this class produce and
 * accept the same bytes (a test checks both directions), and it reproduces or rejects every
 * Wycheproof AES-GCM vector with its parameters (256-bit key, 96-bit IV, 128-bit tag).
 *
 * <p>Why not Tink's class: it keeps one JCE {@link Cipher} per thread for all keys, so a thread
 * that alternates between keys (CryptoWorker has one per column) recomputes the AES key schedule
 * on every call, a quarter of a row's encoding time. Here each key has its own per-thread Cipher,
 * whose schedule the JDK reuses while the key stays the same. The cipher itself is the JDK's. Cost:
 * one JCE cipher (a few KB) per key version, column and thread that uses it.
 */
public final class AesGcmAead implements Aead {
  private static final int IV_LENGTH = HeaderedGcm.IV_LENGTH;
  /** NIST SP 800-38D's limit for random 96-bit IVs under one key. */
  static final long IV_BUDGET = 1L << 32;

  private final SecretKeySpec key;
  private final byte[] prefix;
  private final int header;
  private final ThreadLocal<Cipher> ciphers;
  private final RandomNonces ivs;

  /** Tink's format: the 5-byte TINK prefix. */
  public AesGcmAead(VersionedKey key) throws GeneralSecurityException {
    this(key, StoredFormat.V1);
  }

  /** With {@code format}'s key header. */
  public AesGcmAead(VersionedKey key, StoredFormat format) throws GeneralSecurityException {
    if (key.key().length() != 32) {
      throw new GeneralSecurityException("AES-256-GCM needs a 32-byte key, got " + key.key().length());
    }
    // The JCE key object keeps its own copy; withCopy wipes the temporary one.
    this.key = key.key().withCopy(SecretKeyAccess.insecure(), raw -> new SecretKeySpec(raw, "AES"));
    this.prefix = format.header(key.keyId());
    this.header = prefix.length + IV_LENGTH;
    this.ciphers = ThreadLocalCiphers.of("AES/GCM/NoPadding");
    this.ivs = RandomNonces.forKey(key.key(), IV_BUDGET, "AES-GCM key " + key.keyId());
  }

  /** Encrypts under a fresh random 12-byte IV. */
  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    byte[] out = HeaderedGcm.output(prefix, header, plaintext.length);
    ivs.fill(out, prefix.length, IV_LENGTH);
    return HeaderedGcm.seal(ciphers.get(), key, out, prefix.length, header, plaintext, associatedData);
  }

  /**
   * Encrypts under the caller's IV; for known-answer tests only (Wycheproof), as Tink keeps it
   * apart in {@code InsecureNonceAesGcmJce}. An IV used twice under one key reveals the
   * authentication key and the XOR of the two plaintexts, which is why it is package-private and
   * the box calls {@link #encrypt}.
   */
  byte[] insecureEncryptWithNonce(byte[] iv, byte[] plaintext, byte[] associatedData)
      throws GeneralSecurityException {
    byte[] out = HeaderedGcm.outputWithNonce(prefix, header, iv, plaintext.length);
    return HeaderedGcm.seal(ciphers.get(), key, out, prefix.length, header, plaintext, associatedData);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    HeaderedGcm.requireFrame(ciphertext, prefix, header);
    return HeaderedGcm.open(ciphers.get(), key, ciphertext, prefix.length, header, associatedData);
  }
}
