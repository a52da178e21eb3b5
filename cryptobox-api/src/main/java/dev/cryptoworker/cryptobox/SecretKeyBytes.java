package dev.cryptoworker.cryptobox;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Secret key material that never prints itself and is compared in constant time.
 *
 * <p>Deliberately has no {@code hashCode} over the bytes and no {@code toString} showing them, so
 * keys cannot leak into logs or hash-based collections by accident.
 */
public final class SecretKeyBytes {
  private final byte[] bytes;

  private SecretKeyBytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Copies {@code key}; the caller may wipe its array afterwards. */
  public static SecretKeyBytes copyOf(byte[] key) {
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("key material must not be empty");
    }
    return new SecretKeyBytes(key.clone());
  }

  /** Length in bytes. */
  public int length() {
    return bytes.length;
  }

  /** A fresh copy of the key bytes, for handing to a primitive. */
  public byte[] copyBytes() {
    return bytes.clone();
  }

  /** Constant-time comparison. */
  public boolean equalsKey(SecretKeyBytes other) {
    return other != null && MessageDigest.isEqual(bytes, other.bytes);
  }

  /** Overwrites the key bytes with zeros. */
  public void destroy() {
    Arrays.fill(bytes, (byte) 0);
  }

  @Override
  public String toString() {
    return "SecretKeyBytes[" + bytes.length + " bytes]";
  }
}
