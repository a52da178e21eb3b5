package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.OptionalInt;

/**
 * The 5-byte header of keyed ciphertexts: a format byte {@code 0x01} and the big-endian key id
 * (Tink's "TINK" output prefix). It lets a reader pick the right key after rotation and say
 * precisely when a ciphertext was made under a key it does not have.
 */
public final class KeyIdPrefix {
  /** Format byte of every keyed ciphertext. */
  public static final byte FORMAT = 0x01;
  /** Header length in bytes. */
  public static final int LENGTH = 5;

  private KeyIdPrefix() {}

  /** Whether {@code ciphertext} starts with {@code prefix} (a header from {@link #of}). */
  public static boolean isPrefixOf(byte[] prefix, byte[] ciphertext) {
    return ciphertext.length >= prefix.length
        && Arrays.equals(prefix, 0, prefix.length, ciphertext, 0, prefix.length);
  }

  /** The header of ciphertexts made under key {@code keyId}. */
  public static byte[] of(int keyId) {
    return new byte[] {FORMAT, (byte) (keyId >>> 24), (byte) (keyId >>> 16), (byte) (keyId >>> 8), (byte) keyId};
  }

  /**
   * The key id in {@code stored}'s header, if it starts with one (format byte and four id bytes);
   * says nothing about whether the rest is a valid ciphertext.
   */
  public static OptionalInt keyIdOf(byte[] stored) {
    if (stored.length < LENGTH || stored[0] != FORMAT) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(((stored[1] & 0xff) << 24) | ((stored[2] & 0xff) << 16) | ((stored[3] & 0xff) << 8)
        | (stored[4] & 0xff));
  }

  /**
   * Returns the key of {@code keys} that made {@code ciphertext}.
   *
   * @param minimumBodyLength the smallest valid ciphertext after the header (IV plus tag)
   * @throws GeneralSecurityException naming the reason: truncated, unknown format, unknown key id
   */
  public static VersionedKey keyFor(byte[] ciphertext, int minimumBodyLength, KeyRing keys)
      throws GeneralSecurityException {
    if (ciphertext.length < LENGTH + minimumBodyLength) {
      throw new GeneralSecurityException(
          "ciphertext truncated: " + ciphertext.length + " bytes, at least "
              + (LENGTH + minimumBodyLength) + " expected");
    }
    if (ciphertext[0] != FORMAT) {
      throw new GeneralSecurityException(
          "unknown ciphertext format byte 0x" + Integer.toHexString(ciphertext[0] & 0xff));
    }
    int keyId = keyIdOf(ciphertext).getAsInt();
    return keys.byId(keyId)
        .orElseThrow(
            () ->
                new GeneralSecurityException(
                    "ciphertext was made under key id "
                        + Integer.toUnsignedString(keyId, 16)
                        + ", which this key provider does not have (wrong key or keyset)"));
  }
}
