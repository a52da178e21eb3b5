package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyProviderTest {
  private static byte[] master(int fill) {
    byte[] k = new byte[32];
    Arrays.fill(k, (byte) fill);
    return k;
  }

  private static final KeyScope NAME = KeyScope.column("patients", "identification", "name", BoxKind.STD);
  private static final SecretKeyAccess ACCESS = SecretKeyAccess.insecure();

  @Test
  void masterKeyDerivationIsStableAndScoped() throws Exception {
    KeyProvider a = KeyProvider.fromMasterKey(master(1));
    KeyProvider a2 = KeyProvider.fromMasterKey(master(1));
    KeyRing ring = a.keyRing(NAME, 32);
    assertEquals(32, ring.primary().key().length());
    assertTrue(ring.primary().key().equalsKey(a2.keyRing(NAME, 32).primary().key()));
    assertEquals(ring.primary().keyId(), a2.keyRing(NAME, 32).primary().keyId());

    // Every coordinate of the scope changes the key.
    for (KeyScope other :
        new KeyScope[] {
          KeyScope.column("patients2", "identification", "name", BoxKind.STD),
          KeyScope.column("patients", "contacts", "name", BoxKind.STD),
          KeyScope.column("patients", "identification", "surname", BoxKind.STD),
          KeyScope.column("patients", "identification", "name", BoxKind.DET),
          KeyScope.rowKey("patients", BoxKind.STD),
          KeyScope.qualifiers("patients", "identification", BoxKind.DET)
        }) {
      assertFalse(ring.primary().key().equalsKey(a.keyRing(other, 32).primary().key()), other.toString());
    }
    // Different lengths are different keys, not prefixes of each other.
    byte[] k32 = ring.primary().key().copyBytes(ACCESS);
    byte[] k64 = a.keyRing(NAME, 64).primary().key().copyBytes(ACCESS);
    assertFalse(Arrays.equals(k32, Arrays.copyOf(k64, 32)));
  }

  @Test
  void scopesThatPrintAlikeGetDifferentKeys() throws Exception {
    KeyProvider keys = KeyProvider.fromMasterKey(master(4));
    KeyScope a = KeyScope.column("t", "f, column=a", "b", BoxKind.STD);
    KeyScope b = KeyScope.column("t", "f", "a, column=b", BoxKind.STD);
    assertEquals(a.toString(), b.toString()); // what the ring cache was once keyed by
    KeyRing first = keys.keyRing(a, 32);
    assertFalse(first.primary().key().equalsKey(keys.keyRing(b, 32).primary().key()));
    assertFalse(first.primary().key().equalsKey(keys.keyRing(a, 16).primary().key()));
  }

  @Test
  void differentMasterKeysGiveDifferentKeysAndIds() throws Exception {
    VersionedKey k1 = KeyProvider.fromMasterKey(master(1)).keyRing(NAME, 32).primary();
    VersionedKey k2 = KeyProvider.fromMasterKey(master(2)).keyRing(NAME, 32).primary();
    assertFalse(k1.key().equalsKey(k2.key()));
    assertNotEquals(k1.keyId(), k2.keyId());
  }

  @Test
  void masterKeyMustBe32Bytes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KeyProvider.fromMasterKey(new byte[16]));
    assertTrue(e.getMessage().contains("32 bytes"));
  }

  @Test
  void keyMaterialNeverPrints() throws Exception {
    VersionedKey k = KeyProvider.fromMasterKey(master(3)).keyRing(NAME, 32).primary();
    String hex = HexFormat.of().formatHex(k.key().copyBytes(ACCESS));
    assertFalse(k.toString().contains(hex));
    assertFalse(k.key().toString().contains(hex.substring(0, 8)));
  }

  @Test
  void keysetFileRoundTripAndRotation(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(master(9));
    KeysetFiles.generate(file, kek);
    String stored = Files.readString(file, StandardCharsets.UTF_8);
    assertTrue(stored.contains("encryptedKeyset"), "the file holds only an encrypted keyset");

    KeyRing before = KeyProvider.fromKeysetFile(file, kek).keyRing(NAME, 32);
    assertEquals(1, before.keys().size());
    assertThrows(FileAlreadyExistsException.class, () -> KeysetFiles.generate(file, kek));

    KeysetFiles.rotate(file, kek);
    KeyRing after = KeyProvider.fromKeysetFile(file, kek).keyRing(NAME, 32);
    assertEquals(2, after.keys().size());
    assertNotEquals(before.primary().keyId(), after.primary().keyId());
    // The old key is still there, unchanged, for reading old data, and first in keyset order
    // (identities such as row keys stay under it), whatever the random key ids.
    VersionedKey old = after.byId(before.primary().keyId()).orElseThrow();
    assertArrayEquals(before.primary().key().copyBytes(ACCESS), old.key().copyBytes(ACCESS));
    assertEquals(before.primary().keyId(), after.keys().get(0).keyId());
    for (int i = 0; i < 5; i++) {
      KeysetFiles.rotate(file, kek);
    }
    KeyRing many = KeyProvider.fromKeysetFile(file, kek).keyRing(NAME, 32);
    assertEquals(7, many.keys().size());
    assertEquals(before.primary().keyId(), many.keys().get(0).keyId(), "the first key stays first");
    assertEquals(many.primary().keyId(), many.keys().get(6).keyId(), "the newest key is primary and last");
  }

  @Test
  void wrongKeyEncryptionKeyIsRefused(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, KeyEncryptionKey.fromBytes(master(9)));
    GeneralSecurityException e =
        assertThrows(
            GeneralSecurityException.class,
            () -> KeyProvider.fromKeysetFile(file, KeyEncryptionKey.fromBytes(master(8))));
    assertTrue(e.getMessage().contains("wrong key-encryption key"), e.getMessage());
  }

  @Test
  void keyEncryptionKeyFromFileAndBadInput(@TempDir Path dir) throws Exception {
    Path kekFile = dir.resolve("kek");
    Files.writeString(kekFile, KeyEncryptionKey.generateBase64() + "\n");
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, KeyEncryptionKey.fromFile(kekFile));
    KeyProvider.fromKeysetFile(file, KeyEncryptionKey.fromFile(kekFile)).keyRing(NAME, 64);

    Files.writeString(kekFile, Base64.getEncoder().encodeToString(new byte[16]));
    IllegalStateException shortKey =
        assertThrows(IllegalStateException.class, () -> KeyEncryptionKey.fromFile(kekFile));
    assertTrue(shortKey.getMessage().contains("must be 32 bytes"), shortKey.getMessage());
    Files.writeString(kekFile, "not base64 !!");
    assertThrows(IllegalStateException.class, () -> KeyEncryptionKey.fromFile(kekFile));
    assertThrows(
        IllegalStateException.class, () -> KeyEncryptionKey.fromEnvironment("CRYPTOWORKER_TEST_UNSET_VARIABLE"));
  }

  /**
   * Rings are cached and the same ring goes to every box of a scope, so boxes must never destroy
   * the keys they are given (they wipe only their own temporary copies).
   */
  @Test
  void ringsAreCachedAndShared() throws Exception {
    KeyProvider p = KeyProvider.fromMasterKey(master(4));
    assertSame(p.keyRing(NAME, 32), p.keyRing(NAME, 32));
  }
}
