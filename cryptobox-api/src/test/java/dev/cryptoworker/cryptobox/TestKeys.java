package dev.cryptoworker.cryptobox;

import java.security.SecureRandom;
import java.util.Arrays;

/** Keys and random inputs for the boxes' tests (published as this module's test jar). */
public final class TestKeys {
  private static final SecureRandom RANDOM = new SecureRandom();

  private TestKeys() {}

  /** A fresh random key of {@code lengthBytes} bytes with id {@code keyId}. */
  public static VersionedKey random(int keyId, int lengthBytes) {
    byte[] k = new byte[lengthBytes];
    RANDOM.nextBytes(k);
    try {
      return of(keyId, k);
    } finally {
      Arrays.fill(k, (byte) 0);
    }
  }

  /** The key {@code key} (copied) with id {@code keyId}. */
  public static VersionedKey of(int keyId, byte[] key) {
    return new VersionedKey(keyId, SecretKeyBytes.copyOf(key, SecretKeyAccess.insecure()));
  }

  /** The raw bytes of {@code key}, for comparing with a reference implementation. */
  public static byte[] bytesOf(VersionedKey key) {
    return key.key().copyBytes(SecretKeyAccess.insecure());
  }

  /** {@code n} random bytes, for messages and associated data. */
  public static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  /** Whether every byte of {@code b} is zero. */
  public static boolean isWiped(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }
}
