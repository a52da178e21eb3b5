package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.StoredFormat;
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
 * <p>Value: {@code 0x02 || key id (4) || HMAC-SHA256(k, table, stored format)[0..16)}, with k
 * derived for the table under the keyset's oldest key, the key of every row key and qualifier
 * name, so rotations do not change it. The check binds the table's stored format ({@code
 * cryptoworker.storedformat}), so a server that alters or removes that attribute is caught before
 * any cell is read in the wrong format. Checks of version 1 ({@code 0x01}, tables created before
 * format binding) cover the table name only; they are still accepted, and {@code cryptoworker
 * migrate} (its prepare step) rewrites them as version 2. A server that removes both the check and
 * the format attribute, or replays a version-1 check, makes the table look like one of an earlier
 * version: clients refuse it unless the table is named in {@code
 * SecureTableOptions.legacyKeyChecks}. Reveals the oldest key's id (as every ciphertext does) and
 * nothing else.
 */
public final class KeyCheck {
  public static final String ATTRIBUTE = "cryptoworker.keycheck";
  /** The descriptor attribute of the table's stored format, which the check binds. */
  public static final String FORMAT_ATTRIBUTE = "cryptoworker.storedformat";
  /** Version 1: the table name only (tables created before the check bound the stored format). */
  private static final byte TABLE_ONLY = 1;
  /** Version 2: the table name and its stored format. */
  private static final byte WITH_FORMAT = 2;

  private final String table;
  private final StoredFormat format;
  private final KeyedPrf.Tag expected;

  private final KeyProvider keys;

  private KeyCheck(String table, StoredFormat format, KeyedPrf.Tag expected, KeyProvider keys) {
    this.table = table;
    this.format = format;
    this.expected = expected;
    this.keys = keys;
  }

  /** The check of {@code table}, stored in {@code format}, under {@code keys}' oldest key. */
  static KeyCheck of(KeyProvider keys, String table, StoredFormat format) throws GeneralSecurityException {
    return new KeyCheck(table, format, KeyedPrf.of(keys, scope(table), message(table, format)), keys);
  }

  /** The check of {@code table} under key {@code keyId} (the identity key a migration moves rows to). */
  static KeyCheck of(KeyProvider keys, String table, StoredFormat format, int keyId) throws GeneralSecurityException {
    return new KeyCheck(table, format, KeyedPrf.of(keys, scope(table), message(table, format), keyId), keys);
  }

  private static KeyScope scope(String table) {
    return new KeyScope(table, "", "", "key-check", BoxKind.STD); // kind: key-derivation label
  }

  /** The MAC's input: the table, and (version 2) the stored format; null format: version 1. */
  private static byte[] message(String table, StoredFormat format) {
    byte[] name = table.getBytes(StandardCharsets.UTF_8);
    return format == null ? AssociatedData.of("cryptoworker-key-check", name)
        : AssociatedData.of("cryptoworker-key-check", name, ("format " + format.number()).getBytes(StandardCharsets.UTF_8));
  }

  private byte[] tag(int keyId, StoredFormat format) throws GeneralSecurityException {
    return KeyedPrf.of(keys, scope(table), message(table, format), keyId).tag();
  }

  /** The id of the key this check is under: the key of the table's row keys and qualifier names. */
  public int keyId() {
    return expected.keyId();
  }

  private boolean matches(byte[] tag, int keyId, StoredFormat other) {
    try {
      return MessageDigest.isEqual(tag, tag(keyId, other));
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** Whether a stored check is of version 1 (the table name only, not the stored format). */
  public static boolean isTableOnly(String stored) {
    return stored.startsWith("01");
  }

  /** The attribute value to store with the table. */
  public String encode() {
    return encode(WITH_FORMAT, expected.keyId(), expected.tag());
  }

  /** The version 1 value of this check, as versions before format binding wrote it. */
  String encodeTableOnly() throws GeneralSecurityException {
    return encode(TABLE_ONLY, expected.keyId(), tag(expected.keyId(), null));
  }

  private static String encode(byte version, int keyId, byte[] tag) {
    return HexFormat.of().formatHex(ByteBuffer.allocate(1 + 4 + KeyedPrf.TAG_BYTES).put(version).putInt(keyId)
        .put(tag).array());
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
    if (b == null || b.length != 1 + 4 + KeyedPrf.TAG_BYTES || b[0] != TABLE_ONLY && b[0] != WITH_FORMAT) {
      throw new KeyMismatchException(table, "malformed key check attribute " + ATTRIBUTE
          + " on the table (altered, or written by a newer version)");
    }
    boolean bindsFormat = b[0] == WITH_FORMAT;
    ByteBuffer in = ByteBuffer.wrap(b, 1, b.length - 1);
    int keyId = in.getInt();
    byte[] tag = new byte[KeyedPrf.TAG_BYTES];
    in.get(tag);
    if (keyId != expected.keyId()) {
      boolean known;
      try {
        known = MessageDigest.isEqual(tag, tag(keyId, bindsFormat ? format : null));
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
    byte[] wanted;
    try {
      wanted = bindsFormat ? expected.tag() : tag(keyId, null);
    } catch (GeneralSecurityException e) {
      throw new KeyMismatchException(table, "cannot derive the key check's key (" + e.getMessage() + ")");
    }
    if (!MessageDigest.isEqual(tag, wanted)) {
      if (bindsFormat) {
        for (StoredFormat other : StoredFormat.values()) {
          if (other != format && matches(tag, keyId, other)) {
            throw new KeyMismatchException(table, "the table was created in stored format " + other.number()
                + ", but its descriptor now says " + format.number() + " (" + FORMAT_ATTRIBUTE + " altered or removed):"
                + " refused before any cell is read in the wrong format; restore the attribute");
          }
        }
      }
      throw new KeyMismatchException(table, "key id " + Integer.toUnsignedString(keyId, 16)
          + " of this client is not the key the table was created with: wrong key material");
    }
  }
}
