package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;

/**
 * Secret key material that never prints itself and is compared in constant time (after Tink's
 * {@code SecretBytes}).
 *
 * <p>Deliberately has no {@code hashCode} over the bytes and no {@code toString} showing them, so
 * keys cannot leak into logs or hash-based collections by accident. Raw bytes go in and out only
 * with a {@link SecretKeyAccess} token, so every such place can be found by a search.
 */
public final class SecretKeyBytes {
  /** What a primitive does with a temporary copy of the key bytes. */
  @FunctionalInterface
  public interface KeyUse<T> {
    /**
     * Builds something from {@code key}; must not keep the array (copy what it needs, as {@code
     * SecretKeySpec} does), since it is wiped afterwards.
     */
    T apply(byte[] key) throws GeneralSecurityException;
  }

  private final byte[] bytes;

  private SecretKeyBytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * Copies {@code key}; the caller may (and should) wipe its array afterwards.
   *
   * @param access {@link SecretKeyAccess#insecure()}: raw key bytes are for box implementations
   *     and key derivation only
   */
  public static SecretKeyBytes copyOf(byte[] key, SecretKeyAccess access) {
    Objects.requireNonNull(access, "access");
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("key material must not be empty");
    }
    return new SecretKeyBytes(key.clone());
  }

  /** Length in bytes. */
  public int length() {
    return bytes.length;
  }

  /**
   * A fresh copy of the key bytes; the caller wipes it once done (or uses {@link #withCopy}, which
   * does).
   *
   * @param access {@link SecretKeyAccess#insecure()}
   */
  public byte[] copyBytes(SecretKeyAccess access) {
    Objects.requireNonNull(access, "access");
    return bytes.clone();
  }

  /**
   * Applies {@code use} to a fresh copy of the key bytes and overwrites the copy with zeros
   * afterwards, whether {@code use} returns or throws: for building a primitive (for example a
   * JCE {@code SecretKeySpec}, which keeps its own copy) without leaving a loose copy behind.
   *
   * @param access {@link SecretKeyAccess#insecure()}
   */
  public <T> T withCopy(SecretKeyAccess access, KeyUse<T> use) throws GeneralSecurityException {
    Objects.requireNonNull(use, "use");
    byte[] copy = copyBytes(access);
    try {
      return use.apply(copy);
    } finally {
      Arrays.fill(copy, (byte) 0);
    }
  }

  /** Constant-time comparison. */
  public boolean equalsKey(SecretKeyBytes other) {
    return other != null && MessageDigest.isEqual(bytes, other.bytes);
  }

  /**
   * Overwrites the key bytes with zeros. Only for the sole holder of the key: a {@link KeyRing}
   * from a key provider is cached and shared, so boxes never destroy the keys they are given.
   */
  public void destroy() {
    Arrays.fill(bytes, (byte) 0);
  }

  @Override
  public String toString() {
    return "SecretKeyBytes[" + bytes.length + " bytes]";
  }
}
