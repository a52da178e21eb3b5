package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyEncryptionKeyTest {
  private static final byte[] AD = "ad".getBytes(StandardCharsets.UTF_8);

  private static byte[] randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }

  /** A decoded temporary is zeroed once the AEAD holds its own copy, and the key still works. */
  @Test
  void temporaryKeyBytesAreWipedAfterUse() throws Exception {
    byte[] key = randomKey();
    byte[] temporary = key.clone();
    KeyEncryptionKey kek = RawKeyEncryptionKeys.fromTemporary(temporary, "test");
    assertArrayEquals(new byte[32], temporary);
    byte[] m = "keyset".getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(m, KeyEncryptionKey.fromBytes(key).aead().decrypt(kek.aead().encrypt(m, AD), AD));
  }

  @Test
  void temporaryKeyBytesAreWipedWhenRejected() {
    byte[] temporary = {1, 2, 3, 4, 5, 6, 7, 8};
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> RawKeyEncryptionKeys.fromTemporary(temporary, "test"));
    assertEquals("key-encryption key in test must be 32 bytes, got 8", e.getMessage());
    assertArrayEquals(new byte[8], temporary);
  }

  /** The caller's array is the caller's: copied, never wiped behind its back. */
  @Test
  void callerArraysAreCopiedNotWiped() {
    byte[] key = randomKey();
    byte[] before = key.clone();
    KeyEncryptionKey.fromBytes(key);
    assertArrayEquals(before, key);
  }

  @TempDir Path dir;

  private static byte[] roundTrip(KeyEncryptionKey a, KeyEncryptionKey b) throws Exception {
    byte[] m = "keyset".getBytes(StandardCharsets.UTF_8);
    return b.aead().decrypt(a.aead().encrypt(m, AD), AD);
  }

  @Test
  void readsFromAGivenEnvironment() throws Exception {
    byte[] key = randomKey();
    String base64 = Base64.getEncoder().encodeToString(key);
    KeyEncryptionKey kek = KeyEncryptionKey.fromEnvironment("MY_KEK", Map.of("MY_KEK", base64));
    assertArrayEquals("keyset".getBytes(StandardCharsets.UTF_8),
        roundTrip(kek, KeyEncryptionKey.fromBytes(key)));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KeyEncryptionKey.fromEnvironment("OTHER", Map.of()));
    assertEquals("environment variable OTHER is not set", e.getMessage());
  }

  private Path keyStoreWith(String alias, byte[] key, char[] password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, password);
    store.setEntry(alias, new KeyStore.SecretKeyEntry(new SecretKeySpec(key, "AES")),
        new KeyStore.PasswordProtection(password));
    Path file = dir.resolve("kek.p12");
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password);
    }
    return file;
  }

  @Test
  void readsAnAesKeyFromAPkcs12KeyStore() throws Exception {
    byte[] key = randomKey();
    char[] password = "changeit".toCharArray();
    Path file = keyStoreWith("cryptoworker-kek", key, password);
    KeyEncryptionKey kek = KeyEncryptionKey.fromKeyStore(file, password, "cryptoworker-kek", password);
    assertArrayEquals("keyset".getBytes(StandardCharsets.UTF_8),
        roundTrip(kek, KeyEncryptionKey.fromBytes(key)));

    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> KeyEncryptionKey.fromKeyStore(file, password, "other", password));
    assertEquals("keystore " + file + " has no entry other", missing.getMessage());
    assertThrows(IOException.class,
        () -> KeyEncryptionKey.fromKeyStore(file, "wrong".toCharArray(), "cryptoworker-kek", password));
  }

  @Test
  void refusesAKeyStoreKeyOfTheWrongLength() throws Exception {
    char[] password = "changeit".toCharArray();
    Path file = keyStoreWith("short", new byte[16], password);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KeyEncryptionKey.fromKeyStore(file, password, "short", password));
    assertEquals("key-encryption key in keystore " + file + " alias short must be 32 bytes, got 16",
        e.getMessage());
  }
}
