package dev.cryptoworker.cryptobox.det.internal;

import com.google.crypto.tink.subtle.Hkdf;
import dev.cryptoworker.cryptobox.ThreadLocalCiphers;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Deterministic authenticated encryption of values of at most {@value #MAX_PLAINTEXT} bytes into
 * one 16-byte block, for stored format 2: encode-then-encipher (Bellare and Rogaway, "Encode-then-
 * encipher encryption", ASIACRYPT 2000). The value is padded with zeros and its length in the last
 * byte, then enciphered by a tweakable block cipher whose tweak is the associated data: {@code C =
 * AES_K1(block xor D) xor D} with {@code D = CMAC_K2(associated data)} (LRW with a PRF mask, a strong
 * tweakable PRP).
 *
 * <p>Against AES-SIV (16 + n bytes): equal (value, associated data) pairs still give equal blocks,
 * and nothing else is learnt; a forged or altered block decodes only if its at least 7 zero bytes
 * and length byte come out right, probability below 2^-60 per try, where SIV's tag gives 2^-128.
 * K1 and K2 are derived from the DET key with HKDF-SHA256, so they are used for nothing else.
 */
final class OneBlockDeterministic {
  /** The longest value this form takes. */
  static final int MAX_PLAINTEXT = 8;
  private static final int BLOCK = AesCmac.BLOCK;
  private static final byte[] INFO = "cryptoworker DET one-block v2".getBytes(StandardCharsets.UTF_8);

  private final SecretKeySpec cipherKey;
  private final AesCmac tweak;
  private final ThreadLocal<Cipher> encryptors;
  private final ThreadLocal<Cipher> decryptors;

  /** Derives both keys from {@code detKey}; keeps no reference to it. */
  OneBlockDeterministic(byte[] detKey) throws GeneralSecurityException {
    byte[] derived = Hkdf.computeHkdf("HMACSHA256", detKey, new byte[0], INFO, 64);
    try {
      this.cipherKey = new SecretKeySpec(derived, 0, 32, "AES");
      this.tweak = new AesCmac(new SecretKeySpec(derived, 32, 32, "AES"));
    } finally {
      Arrays.fill(derived, (byte) 0);
    }
    this.encryptors = ThreadLocalCiphers.of("AES/ECB/NoPadding");
    this.decryptors = ThreadLocalCiphers.of("AES/ECB/NoPadding");
  }

  /** Writes the block of {@code plaintext} (at most 8 bytes) at {@code out[at]}. */
  void encrypt(byte[] plaintext, byte[] associatedData, byte[] out, int at) throws GeneralSecurityException {
    if (plaintext.length > MAX_PLAINTEXT) {
      throw new IllegalArgumentException("one-block DET takes at most " + MAX_PLAINTEXT + " bytes");
    }
    byte[] mask = tweak.mac(associatedData);
    byte[] block = new byte[BLOCK];
    System.arraycopy(plaintext, 0, block, 0, plaintext.length);
    block[BLOCK - 1] = (byte) plaintext.length;
    AesCmac.xorInto(block, 0, mask);
    Cipher c = encryptors.get();
    c.init(Cipher.ENCRYPT_MODE, cipherKey);
    c.doFinal(block, 0, BLOCK, out, at);
    AesCmac.xorInto(out, at, mask);
  }

  /**
   * The value of the block at {@code in[at]}.
   *
   * @throws GeneralSecurityException if the block does not decode (altered, moved, other key)
   */
  byte[] decrypt(byte[] in, int at, byte[] associatedData) throws GeneralSecurityException {
    byte[] mask = tweak.mac(associatedData);
    byte[] block = Arrays.copyOfRange(in, at, at + BLOCK);
    AesCmac.xorInto(block, 0, mask);
    Cipher c = decryptors.get();
    c.init(Cipher.DECRYPT_MODE, cipherKey);
    byte[] encoded = c.doFinal(block);
    AesCmac.xorInto(encoded, 0, mask);
    int length = encoded[BLOCK - 1];
    int nonZero = 0;
    for (int i = Math.max(0, Math.min(length, MAX_PLAINTEXT)); i < BLOCK - 1; i++) {
      nonZero |= encoded[i];
    }
    if (length < 0 || length > MAX_PLAINTEXT || nonZero != 0) {
      throw new GeneralSecurityException("integrity check failed");
    }
    return Arrays.copyOf(encoded, length);
  }
}
