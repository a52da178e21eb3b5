package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.KeyRing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KeysetFiles#rewrap}: the same keys under a new key-encryption key, and only under it. */
class KeysetRewrapTest {
  @TempDir Path dir;

  private static KeyEncryptionKey randomKek() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return KeyEncryptionKey.fromBytes(key);
  }

  @Test
  void rewrapKeepsTheKeysAndTheOldKekNoLongerOpensTheFile() throws Exception {
    KeyEncryptionKey oldKek = randomKek();
    KeyEncryptionKey newKek = randomKek();
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, oldKek);
    KeysetFiles.rotate(file, oldKek);
    KeysetFiles.disable(file, oldKek, KeysetFiles.describe(file, oldKek).get(0).id(), true);
    var before = KeysetFiles.describe(file, oldKek);
    KeyScope scope = KeyScope.column("t", "f", "q", dev.cryptoworker.cryptobox.BoxKind.STD);
    KeyRing ringBefore = KeyProvider.fromKeysetFile(file, oldKek).keyRing(scope, 32);

    KeysetFiles.rewrap(file, oldKek, newKek);

    assertEquals(before, KeysetFiles.describe(file, newKek));
    KeyRing ringAfter = KeyProvider.fromKeysetFile(file, newKek).keyRing(scope, 32);
    assertTrue(ringBefore.primary().key().equalsKey(ringAfter.primary().key()));
    assertEquals(ringBefore.primary().keyId(), ringAfter.primary().keyId());
    GeneralSecurityException refused = assertThrows(GeneralSecurityException.class,
        () -> KeyProvider.fromKeysetFile(file, oldKek));
    assertEquals("cannot decrypt keyset file " + file
        + ": wrong key-encryption key, or the file is corrupt or tampered", refused.getMessage());
    assertEquals(1, Files.list(dir).count(), "no temporary file left beside the keyset");
  }

  @Test
  void rewrapWithTheWrongKekLeavesTheFileAsItWas() throws Exception {
    KeyEncryptionKey kek = randomKek();
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, kek);
    String text = Files.readString(file);
    assertThrows(GeneralSecurityException.class, () -> KeysetFiles.rewrap(file, randomKek(), randomKek()));
    assertEquals(text, Files.readString(file));
  }
}
