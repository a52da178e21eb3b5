package dev.cryptoworker.sharing;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The randomness of shares: AES-256 in counter mode over zeros, keyed from the operating system's
 * CSPRNG ({@link SecureRandom}) and re-keyed every {@value #RESEED_BYTES} bytes, as the thesis
 * recommends (drawing every share byte from {@code SecureRandom} is orders of magnitude slower). One
 * per thread; not thread-safe.
 */
final class AesCtrRandom {
  private static final long RESEED_BYTES = 1L << 32;
  private static final SecureRandom SEEDS = new SecureRandom();

  private Cipher cipher;
  private long sinceSeed;

  AesCtrRandom() {
    reseed();
  }

  private void reseed() {
    byte[] key = new byte[32];
    byte[] iv = new byte[16];
    SEEDS.nextBytes(key);
    SEEDS.nextBytes(iv);
    try {
      Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
      cipher = c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK has no AES/CTR", e);
    } finally {
      Arrays.fill(key, (byte) 0);
    }
    sinceSeed = 0;
  }

  /** Fills {@code out[offset..offset+length)} with fresh random bytes. */
  void nextBytes(byte[] out, int offset, int length) {
    if (sinceSeed + length > RESEED_BYTES) {
      reseed();
    }
    try {
      CounterModeSlices.keystream(cipher, out, offset, length);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/CTR failed", e);
    }
    sinceSeed += length;
  }
}
