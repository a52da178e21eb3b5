package dev.cryptoworker.client.codec;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How messages name a protected stored row key: {@code stored key sha256:} and the first 8 bytes of
 * the key's SHA-256, in hex. It tells rows apart and lets an operator who can read the table find
 * the row (hash its stored keys), yet shows neither the plaintext's order (OPE) nor a ciphertext
 * that a key leaked later would open. Unkeyed on purpose: it needs no key to match, and the server
 * holds the stored key anyway. Whoever later holds the table's key can still confirm a guess of a
 * low-entropy row key (encrypt it, hash it, compare), as with the stored key itself.
 */
public final class StoredKeyFingerprint {
  private static final int BYTES = 8;

  private StoredKeyFingerprint() {}

  /** The fingerprint of stored row key {@code stored}, as messages print it. */
  public static String of(byte[] stored) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(stored);
      return "stored key sha256:" + HexFormat.of().formatHex(digest, 0, BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
