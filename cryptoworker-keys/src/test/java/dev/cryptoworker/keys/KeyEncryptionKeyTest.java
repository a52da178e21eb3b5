package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

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
    KeyEncryptionKey kek = KeyEncryptionKey.fromTemporary(temporary, "test");
    assertArrayEquals(new byte[32], temporary);
    byte[] m = "keyset".getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(m, KeyEncryptionKey.fromBytes(key).aead().decrypt(kek.aead().encrypt(m, AD), AD));
  }

  @Test
  void temporaryKeyBytesAreWipedWhenRejected() {
    byte[] temporary = {1, 2, 3, 4, 5, 6, 7, 8};
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> KeyEncryptionKey.fromTemporary(temporary, "test"));
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
}
