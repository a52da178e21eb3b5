package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeysetFilesTest {
  private static final KeyEncryptionKey KEK = KeyEncryptionKey.fromBytes(new byte[32]);

  @TempDir Path dir;

  private Path keysetWithThreeKeys() throws Exception {
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, KEK);
    KeysetFiles.rotate(file, KEK);
    KeysetFiles.rotate(file, KEK);
    return file;
  }

  private static IllegalArgumentException disableRefused(Path file, KeysetKey key, boolean force) {
    return assertThrows(
        IllegalArgumentException.class, () -> KeysetFiles.disable(file, KEK, key.id(), force));
  }

  @Test
  void describeListsKeysOldestFirstWithPrimaryAndOldest() throws Exception {
    Path file = keysetWithThreeKeys();
    List<KeysetKey> keys = KeysetFiles.describe(file, KEK);
    assertEquals(3, keys.size());
    assertTrue(keys.get(0).oldest());
    assertFalse(keys.get(0).primary());
    assertTrue(keys.get(2).primary());
    assertFalse(keys.get(2).oldest());
    for (KeysetKey key : keys) {
      assertEquals("ENABLED", key.status());
      assertEquals(String.format("%08x", key.id()), key.hexId());
    }
    assertThrows(UnsupportedOperationException.class, () -> keys.remove(0));
  }

  @Test
  void disableAndEnableAMiddleKey() throws Exception {
    Path file = keysetWithThreeKeys();
    int middle = KeysetFiles.describe(file, KEK).get(1).id();
    KeysetFiles.disable(file, KEK, middle, false);
    assertEquals("DISABLED", KeysetFiles.describe(file, KEK).get(1).status());
    KeysetFiles.enable(file, KEK, middle);
    assertEquals("ENABLED", KeysetFiles.describe(file, KEK).get(1).status());
  }

  @Test
  void refusesThePrimaryEvenWithForce() throws Exception {
    Path file = keysetWithThreeKeys();
    KeysetKey primary = KeysetFiles.describe(file, KEK).get(2);
    IllegalArgumentException e = disableRefused(file, primary, true);
    assertEquals("key " + primary.hexId() + " is the primary key; rotate first, then disable it",
        e.getMessage());
  }

  @Test
  void refusesTheOldestUnlessForced() throws Exception {
    Path file = keysetWithThreeKeys();
    KeysetKey oldest = KeysetFiles.describe(file, KEK).get(0);
    IllegalArgumentException e = disableRefused(file, oldest, false);
    assertTrue(e.getMessage().contains("oldest key"), e.getMessage());
    assertEquals("ENABLED", KeysetFiles.describe(file, KEK).get(0).status());

    KeysetFiles.disable(file, KEK, oldest.id(), true);
    List<KeysetKey> keys = KeysetFiles.describe(file, KEK);
    assertEquals("DISABLED", keys.get(0).status());
    assertTrue(keys.get(1).oldest(), "the next enabled key is now the oldest");
  }

  @Test
  void unknownKeyIdIsRefused() throws Exception {
    Path file = keysetWithThreeKeys();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KeysetFiles.enable(file, KEK, 7));
    assertEquals("keyset file " + file + " has no key 00000007", e.getMessage());
  }
}
