package dev.cryptoworker.cryptobox;

import java.util.Objects;

/**
 * A key with the public identifier that ciphertexts carry, so old data still finds its key after
 * rotation.
 */
public final class VersionedKey {
  private final int keyId;
  private final SecretKeyBytes key;

  public VersionedKey(int keyId, SecretKeyBytes key) {
    this.keyId = keyId;
    this.key = Objects.requireNonNull(key, "key");
  }

  /** The identifier written into every ciphertext made with this key. */
  public int keyId() {
    return keyId;
  }

  public SecretKeyBytes key() {
    return key;
  }

  @Override
  public String toString() {
    return "VersionedKey[id=" + Integer.toUnsignedString(keyId, 16) + ", " + key + "]";
  }
}
