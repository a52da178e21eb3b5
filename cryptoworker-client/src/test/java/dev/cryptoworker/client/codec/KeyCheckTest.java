package dev.cryptoworker.client.codec;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.keys.KeyProvider;
import org.junit.jupiter.api.Test;

/** The key check binds the table's stored format; checks written before that still verify. */
class KeyCheckTest {
  private final KeyProvider keys = SecureFixture.randomKeys();

  @Test
  void aCheckBindsItsTableAndStoredFormat() throws Exception {
    KeyCheck v2 = KeyCheck.of(keys, "t", StoredFormat.V2);
    String stored = v2.encode();
    assertDoesNotThrow(() -> v2.verify(stored));
    assertNotEquals(stored, KeyCheck.of(keys, "t", StoredFormat.V1).encode());
    // A descriptor whose format attribute was changed to 1: the client builds a format-1 codec.
    KeyMismatchException altered = assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(keys, "t", StoredFormat.V1).verify(stored));
    assertTrue(altered.getMessage().contains("created in stored format 2, but its descriptor now says 1"),
        altered.getMessage());
    KeyMismatchException otherTable = assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(keys, "u", StoredFormat.V2).verify(stored));
    assertTrue(otherTable.getMessage().contains("wrong key material"), otherTable.getMessage());
    KeyMismatchException otherKeys = assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(SecureFixture.randomKeys(), "t", StoredFormat.V2).verify(stored));
    assertTrue(otherKeys.getMessage().contains("wrong master key or keyset file"), otherKeys.getMessage());
  }

  @Test
  void checksOfEarlierVersionsCoverTheTableOnlyAndStillVerify() throws Exception {
    String v1 = KeyCheck.of(keys, "t", StoredFormat.V2).encodeTableOnly();
    assertTrue(v1.startsWith("01"), v1);
    for (StoredFormat format : StoredFormat.values()) {
      assertDoesNotThrow(() -> KeyCheck.of(keys, "t", format).verify(v1));
    }
    assertThrows(KeyMismatchException.class, () -> KeyCheck.of(keys, "u", StoredFormat.V2).verify(v1));
    assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(SecureFixture.randomKeys(), "t", StoredFormat.V2).verify(v1));
  }
}
