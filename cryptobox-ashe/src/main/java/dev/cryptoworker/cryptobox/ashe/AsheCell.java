package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.KeyIdPrefix;
import java.nio.ByteBuffer;

/**
 * The stored form of one ASHE value, readable without a key: {@code 0x01 || keyId (4) || c (8) ||
 * id (8)}, 21 bytes. The coprocessor parses cells to add them; it never sees a key.
 *
 * @param keyId the key version the value was encrypted under (sums only combine within one)
 * @param ciphertext c = m - F(id) + F(id - 1) mod 2^64
 * @param id the value's unique identifier
 */
public record AsheCell(int keyId, long ciphertext, long id) {
  /** Length of a stored ASHE value. */
  public static final int LENGTH = KeyIdPrefix.LENGTH + 16;

  /**
   * Parses a stored value.
   *
   * @throws IllegalArgumentException if it is not an ASHE cell
   */
  public static AsheCell parse(byte[] stored) {
    if (stored.length != LENGTH || stored[0] != KeyIdPrefix.FORMAT) {
      throw new IllegalArgumentException(
          "not an ASHE value: " + stored.length + " bytes" + (stored.length > 0 ? ", format " + stored[0] : ""));
    }
    ByteBuffer b = ByteBuffer.wrap(stored, 1, LENGTH - 1);
    int keyId = b.getInt();
    long c = b.getLong();
    long id = b.getLong();
    if (id <= 0) {
      throw new IllegalArgumentException("not an ASHE value: identifier " + id);
    }
    return new AsheCell(keyId, c, id);
  }

  public byte[] toBytes() {
    return ByteBuffer.allocate(LENGTH).put(KeyIdPrefix.FORMAT).putInt(keyId).putLong(ciphertext).putLong(id).array();
  }
}
