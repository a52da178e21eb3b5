package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
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

  /** Stored format 2 keeps only a key id's last byte: rotation never repeats one. */
  @Test
  void rotatedKeysDifferInTheirLastByte() throws Exception {
    Path file = dir.resolve("many.json");
    KeysetFiles.generate(file, KEK);
    for (int i = 0; i < 40; i++) {
      KeysetFiles.rotate(file, KEK);
    }
    List<KeysetKey> keys = KeysetFiles.describe(file, KEK);
    assertEquals(41, keys.size());
    assertEquals(41, keys.stream().map(k -> k.id() & 0xff).distinct().count());
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

  @Test
  void creationTimesAreRecordedAndBoundToTheKeyset() throws Exception {
    Instant before = Instant.now().minusSeconds(1);
    Path file = dir.resolve("created.json");
    KeysetFiles.generate(file, KEK);
    KeysetFiles.rotate(file, KEK);
    Instant after = Instant.now().plusSeconds(1);
    List<KeysetKey> keys = KeysetFiles.describe(file, KEK);
    for (KeysetKey key : keys) {
      Instant created = key.created().orElseThrow();
      assertTrue(!created.isBefore(before) && !created.isAfter(after), created.toString());
    }
    assertFalse(keys.get(1).created().get().isBefore(keys.get(0).created().get()));

    // An altered creation time makes the file undecryptable, like any other tampering.
    String json = Files.readString(file);
    String first = keys.get(0).created().get().toString();
    Files.writeString(file, json.replace(first, Instant.parse(first).minusSeconds(86_400).toString()));
    java.security.GeneralSecurityException e = assertThrows(java.security.GeneralSecurityException.class,
        () -> KeysetFiles.describe(file, KEK));
    assertTrue(e.getMessage().contains("corrupt or tampered"), e.getMessage());
  }

  @Test
  void keysetFilesOfTheFirstFormatStillReadWithoutCreationTimes() throws Exception {
    Path file = dir.resolve("v1.json");
    KeysetHandle handle = KeysetHandle.newBuilder().addEntry(
        KeysetHandle.generateEntryFromParameters(PrfSetKeyProvider.rootKeyParameters()).withRandomId().makePrimary())
        .build();
    Files.writeString(file, TinkJsonProtoKeysetFormat.serializeEncryptedKeyset(handle, KEK.aead(),
        "cryptoworker-keyset-v1".getBytes(StandardCharsets.UTF_8)));
    KeysetKey only = KeysetFiles.describe(file, KEK).get(0);
    assertEquals(handle.getPrimary().getId(), only.id());
    assertTrue(only.created().isEmpty());
    assertEquals(1, KeyProvider.fromKeysetFile(file, KEK).keyRing(KeyScope.rowKey("t",
        dev.cryptoworker.cryptobox.BoxKind.DET), 32).keys().size());
    // The next change writes the current format; the old key stays without a time, the new one gets one.
    KeysetFiles.rotate(file, KEK);
    List<KeysetKey> keys = KeysetFiles.describe(file, KEK);
    assertTrue(keys.get(0).created().isEmpty());
    assertTrue(keys.get(1).created().isPresent());
  }
}
