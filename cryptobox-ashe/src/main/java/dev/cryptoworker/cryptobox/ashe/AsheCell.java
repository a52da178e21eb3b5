package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.KeyIdPrefix;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The stored form of one ASHE value, readable without a key. Two layouts, told apart by length
 * behind the same 5-byte key-id header (so every tool that reads key ids reads both):
 *
 * <ul>
 *   <li>leased, written since lease nonces exist: {@code 0x01 || keyId (4) || c (8) || nonce (8)
 *       || id (8)}, 29 bytes, nonce never 0;
 *   <li>legacy, written before: {@code 0x01 || keyId (4) || c (8) || id (8)}, 21 bytes, read as
 *       nonce 0 (its PRF input was the nonce-0 block all along).
 * </ul>
 *
 * <p>The coprocessor parses cells to add them; it never sees a key. Earlier coprocessors and
 * clients refuse a leased cell by its length rather than add it wrongly.
 *
 * @param keyId the key version the value was encrypted under (sums only combine within one)
 * @param ciphertext c = m - F(nonce, id) + F(nonce, id - 1) mod 2^64
 * @param nonce the random nonce of the writer's lease, 0 for legacy cells
 * @param id the value's identifier, unique under its nonce
 */
public record AsheCell(int keyId, long ciphertext, long nonce, long id) {
  /** Length of a legacy (nonce 0) stored value. */
  public static final int LEGACY_LENGTH = KeyIdPrefix.LENGTH + 16;
  /** Length of a stored value with its lease nonce. */
  public static final int LEASED_LENGTH = LEGACY_LENGTH + 8;

  /**
   * Parses a stored value.
   *
   * @throws IllegalArgumentException if it is not an ASHE cell
   */
  public static AsheCell parse(byte[] stored) {
    return parse(ByteBuffer.wrap(stored));
  }

  /**
   * Parses a stored value, the bytes from {@code stored}'s position to its limit (read where they
   * are: a region adding a million values copies none of them; the position does not move).
   *
   * @throws IllegalArgumentException if it is not an ASHE cell
   */
  public static AsheCell parse(ByteBuffer value) {
    ByteBuffer stored = value.order() == ByteOrder.BIG_ENDIAN ? value : value.duplicate().order(ByteOrder.BIG_ENDIAN);
    int at = stored.position();
    int length = stored.remaining();
    if ((length != LEGACY_LENGTH && length != LEASED_LENGTH) || stored.get(at) != KeyIdPrefix.FORMAT) {
      throw new IllegalArgumentException(
          "not an ASHE value: " + length + " bytes" + (length > 0 ? ", format " + stored.get(at) : ""));
    }
    int keyId = stored.getInt(at + 1);
    long c = stored.getLong(at + 5);
    long nonce = length == LEASED_LENGTH ? stored.getLong(at + 13) : 0;
    long id = stored.getLong(at + length - 8);
    if (length == LEASED_LENGTH && nonce == 0) {
      throw new IllegalArgumentException("not an ASHE value: a 29-byte value with lease nonce 0");
    }
    if (id <= 0) {
      throw new IllegalArgumentException("not an ASHE value: identifier " + id);
    }
    return new AsheCell(keyId, c, nonce, id);
  }

  /** The stored form: leased, or legacy for nonce 0. */
  public byte[] toBytes() {
    ByteBuffer b = ByteBuffer.allocate(nonce == 0 ? LEGACY_LENGTH : LEASED_LENGTH)
        .put(KeyIdPrefix.FORMAT).putInt(keyId).putLong(ciphertext);
    if (nonce != 0) {
      b.putLong(nonce);
    }
    return b.putLong(id).array();
  }
}
