package dev.cryptoworker.cryptobox.std.internal;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.prf.Prf;
import com.google.crypto.tink.subtle.PrfAesCmac;
import dev.cryptoworker.cryptobox.RandomNonces;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.ThreadLocalCiphers;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * XAES-256-GCM (C2SP's specification; Tink's {@code XAesGcm} with a 12-byte salt reads and writes
 * the same bytes after the header): {@code key header | 24-byte nonce | ciphertext | 16-byte tag}.
 * The nonce's first 12 bytes (the salt) pick an AES-256-GCM key derived from the box's key by
 * AES-CMAC (Tink's {@link PrfAesCmac}); its last 12 are that key's GCM IV.
 *
 * <p>How this writer picks nonces: a salt is drawn from the system with prediction resistance
 * ({@link RandomNonces#fillFresh}) and used for {@value #SALT_MESSAGES} messages, each under a
 * random 12-byte IV; then a new salt. So a derived key serves at most {@value #SALT_MESSAGES}
 * random IVs, all drawn in this process and counted here (the chance that two repeat is below
 * 2^-73 per salt), and other processes and restarts draw salts of their own: no count outside the
 * process is needed. Across all writers, a nonce repeats under one key with probability at most
 * about N * {@value #SALT_MESSAGES} / 2^97 for N messages (2^-33 at N = 2^52). Why not a fresh
 * salt per message, as XAES allows: a derived key per message costs two CMACs and a key schedule
 * per message (about 3x an AES-GCM call under a fixed key, measured here); spread over
 * {@value #SALT_MESSAGES} messages they cost nothing measurable.
 *
 * <p>Decryption derives the key of each ciphertext's salt; a thread remembers the last one, so
 * consecutive reads of values written under one salt derive it once.
 */
public final class XAesGcmAead implements Aead {
  /** Messages under one salt before the next: small enough that a salt is no budget to watch. */
  static final int SALT_MESSAGES = 1 << 12;

  private static final int SALT_LENGTH = 12;
  private static final int IV_LENGTH = HeaderedGcm.IV_LENGTH;
  private static final int NONCE_LENGTH = SALT_LENGTH + IV_LENGTH;
  private static final int DERIVED_KEY_LENGTH = 32;

  private final Prf derivation;
  private final byte[] prefix;
  private final int header;
  private final String owner;
  private final ThreadLocal<Cipher> ciphers;
  private final AtomicReference<Salt> writing = new AtomicReference<>();
  private final ThreadLocal<Salt> lastRead = new ThreadLocal<>();

  /** With {@code format}'s key header. */
  public XAesGcmAead(VersionedKey key, StoredFormat format) throws GeneralSecurityException {
    if (key.key().length() != 32) {
      throw new GeneralSecurityException("XAES-256-GCM needs a 32-byte key, got " + key.key().length());
    }
    // Tink's CMAC keeps its own copy; withCopy wipes the temporary one.
    this.derivation = key.key().withCopy(SecretKeyAccess.insecure(), PrfAesCmac::new);
    this.prefix = format.header(key.keyId());
    this.header = prefix.length + NONCE_LENGTH;
    this.owner = "XAES-256-GCM key " + key.keyId();
    this.ciphers = ThreadLocalCiphers.of("AES/GCM/NoPadding");
  }

  /** Encrypts under the current salt and a fresh random IV. */
  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    byte[] out = HeaderedGcm.output(prefix, header, plaintext.length);
    Salt salt = drawIv(out, prefix.length + SALT_LENGTH);
    System.arraycopy(salt.bytes, 0, out, prefix.length, SALT_LENGTH);
    return HeaderedGcm.seal(ciphers.get(), salt.key, out, prefix.length + SALT_LENGTH, header, plaintext,
        associatedData);
  }

  /**
   * Encrypts under the caller's 24-byte nonce; for known-answer tests only, as Tink keeps such
   * methods apart: a nonce used twice reveals the XOR of the two plaintexts and lets whoever holds
   * both forge under that nonce's derived key.
   */
  byte[] insecureEncryptWithNonce(byte[] nonce, byte[] plaintext, byte[] associatedData)
      throws GeneralSecurityException {
    byte[] out = HeaderedGcm.outputWithNonce(prefix, header, nonce, plaintext.length);
    return HeaderedGcm.seal(ciphers.get(), derive(Arrays.copyOf(nonce, SALT_LENGTH)).key, out,
        prefix.length + SALT_LENGTH, header, plaintext, associatedData);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    HeaderedGcm.requireFrame(ciphertext, prefix, header);
    return HeaderedGcm.open(ciphers.get(), readKey(ciphertext), ciphertext, prefix.length + SALT_LENGTH, header,
        associatedData);
  }

  /** Writes a fresh IV into {@code out} at {@code offset}, under the salt it returns. */
  private Salt drawIv(byte[] out, int offset) throws GeneralSecurityException {
    while (true) {
      Salt salt = writing.get();
      if (salt != null && salt.ivs.tryFill(out, offset, IV_LENGTH)) {
        return salt;
      }
      synchronized (writing) { // one new salt per spent one, however many threads find it spent
        if (writing.get() == salt) {
          byte[] fresh = new byte[SALT_LENGTH];
          RandomNonces.fillFresh(fresh, 0, SALT_LENGTH);
          writing.set(derive(fresh));
        }
      }
    }
  }

  /** The derived key of the salt {@code ciphertext} was made under, from this thread's last read if it matches. */
  private SecretKeySpec readKey(byte[] ciphertext) throws GeneralSecurityException {
    Salt last = lastRead.get();
    if (last != null && Arrays.equals(last.bytes, 0, SALT_LENGTH, ciphertext, prefix.length,
        prefix.length + SALT_LENGTH)) {
      return last.key;
    }
    Salt salt = derive(Arrays.copyOfRange(ciphertext, prefix.length, prefix.length + SALT_LENGTH));
    lastRead.set(salt);
    return salt.key;
  }

  /** XAES-256-GCM's key derivation: CMAC of {@code 0x00 0x0i 'X' 0x00 || salt} for i = 1, 2. */
  private Salt derive(byte[] salt) throws GeneralSecurityException {
    byte[] key = new byte[DERIVED_KEY_LENGTH];
    byte[] block = new byte[4 + SALT_LENGTH];
    block[2] = 'X';
    System.arraycopy(salt, 0, block, 4, SALT_LENGTH);
    try {
      for (int half = 0; half < 2; half++) {
        block[1] = (byte) (half + 1);
        byte[] mac = derivation.compute(block, 16);
        System.arraycopy(mac, 0, key, 16 * half, 16);
        Arrays.fill(mac, (byte) 0);
      }
      return new Salt(salt, new SecretKeySpec(key, "AES"), RandomNonces.withBudget(SALT_MESSAGES, owner));
    } finally {
      Arrays.fill(key, (byte) 0); // the JCE key object holds its own copy
    }
  }

  /** A salt, its derived key, and the IVs drawn under it. */
  private record Salt(byte[] bytes, SecretKeySpec key, RandomNonces ivs) {}
}
