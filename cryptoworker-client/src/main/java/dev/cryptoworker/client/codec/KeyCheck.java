package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * A table's key check: an attribute of the table descriptor ({@value #ATTRIBUTE}) that {@code
 * createTable} writes and every client verifies when it first opens the table. Without it, a wrong
 * key is silent: DET row keys and operands encrypt differently, so gets, exists and equality scans
 * just find nothing.
 *
 * <p>Value: {@code 0x01 || key id (4) || HMAC-SHA256(k, table)[0..16)}, with k derived for the
 * table under the keyset's oldest key, the key of every row key and qualifier name, so rotations
 * do not change it. Reveals the oldest key's id (as every ciphertext does) and nothing else.
 */
public final class KeyCheck {
  public static final String ATTRIBUTE = "cryptoworker.keycheck";
  private static final byte FORMAT = 1;

  private final String table;
  private final KeyedPrf.Tag expected;

  private final KeyProvider keys;

  private KeyCheck(String table, KeyedPrf.Tag expected, KeyProvider keys) {
    this.table = table;
    this.expected = expected;
    this.keys = keys;
  }

  /** The check of {@code table} under {@code keys}' oldest key. */
  static KeyCheck of(KeyProvider keys, String table) throws GeneralSecurityException {
    return new KeyCheck(table, KeyedPrf.of(keys, scope(table), message(table)), keys);
  }

  /** The check of {@code table} under key {@code keyId} (the identity key a migration moves rows to). */
  static KeyCheck of(KeyProvider keys, String table, int keyId) throws GeneralSecurityException {
    return new KeyCheck(table, KeyedPrf.of(keys, scope(table), message(table), keyId), keys);
  }

  private static KeyScope scope(String table) {
    return new KeyScope(table, "", "", "key-check", BoxKind.STD); // kind: key-derivation label
  }

  private static byte[] message(String table) {
    return AssociatedData.of("cryptoworker-key-check", table.getBytes(StandardCharsets.UTF_8));
  }

  /** The id of the key this check is under: the key of the table's row keys and qualifier names. */
  public int keyId() {
    return expected.keyId();
  }

  /** The attribute value to store with the table. */
  public String encode() {
    return HexFormat.of().formatHex(ByteBuffer.allocate(1 + 4 + KeyedPrf.TAG_BYTES).put(FORMAT)
        .putInt(expected.keyId()).put(expected.tag()).array());
  }

  /**
   * Compares with the stored attribute value.
   *
   * @throws KeyMismatchException naming the table and the key id, if the keys differ or the stored
   *     value is malformed
   */
  void verify(String stored) throws KeyMismatchException {
    byte[] b;
    try {
      b = HexFormat.of().parseHex(stored);
    } catch (IllegalArgumentException e) {
      b = null;
    }
    if (b == null || b.length != 1 + 4 + KeyedPrf.TAG_BYTES || b[0] != FORMAT) {
      throw new KeyMismatchException(table, "malformed key check attribute " + ATTRIBUTE
          + " on the table (altered, or written by a newer version)");
    }
    ByteBuffer in = ByteBuffer.wrap(b, 1, b.length - 1);
    int keyId = in.getInt();
    byte[] tag = new byte[KeyedPrf.TAG_BYTES];
    in.get(tag);
    if (keyId != expected.keyId()) {
      boolean known;
      try {
        known = MessageDigest.isEqual(tag, KeyedPrf.of(keys, scope(table), message(table), keyId).tag());
      } catch (GeneralSecurityException e) {
        known = false;
      }
      throw new KeyMismatchException(table, known
          ? "the table's row keys and qualifier names are under key id " + Integer.toUnsignedString(keyId, 16)
              + " (a re-key moved them), but this client names rows under " + Integer.toUnsignedString(expected.keyId(), 16)
              + ": disable the retired keys in this client's keyset, or open the table in migration mode"
              + " (every read would find nothing)"
          : "the table's key check is under key id " + Integer.toUnsignedString(keyId, 16)
              + ", which this client's keys do not have (its identity key is "
              + Integer.toUnsignedString(expected.keyId(), 16)
              + "): wrong master key or keyset file (every read would find nothing)");
    }
    if (!MessageDigest.isEqual(tag, expected.tag())) {
      throw new KeyMismatchException(table, "key id " + Integer.toUnsignedString(keyId, 16)
          + " of this client is not the key the table was created with: wrong key material");
    }
  }
}
