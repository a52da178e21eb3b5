package dev.cryptoworker.cryptobox.std;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class RandomizedBoxTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] AD = AssociatedData.of("value", "t".getBytes(), "row".getBytes());

  private static VersionedKey key(int id) {
    return TestKeys.random(id, RandomizedBox.KEY_LENGTH_BYTES);
  }

  @Test
  void roundTripsAllSizes() throws Exception {
    RandomizedBox box = RandomizedBox.create(KeyRing.of(key(7)));
    for (int n : new int[] {0, 1, 14, 15, 16, 17, 64, 256, 1024, 1 << 20}) {
      byte[] m = new byte[n];
      RANDOM.nextBytes(m);
      byte[] c = box.encrypt(m, AD);
      assertEquals(n + 5 + 12 + 16, c.length, "overhead is prefix + IV + tag");
      assertArrayEquals(m, box.decrypt(c, AD));
    }
  }

  @Test
  void isRandomizedNeverRepeatingNonces() throws Exception {
    RandomizedBox box = RandomizedBox.create(KeyRing.of(key(7)));
    Set<String> ivs = new HashSet<>();
    byte[] m = "same".getBytes();
    for (int i = 0; i < 10_000; i++) {
      byte[] c = box.encrypt(m, AD);
      assertTrue(ivs.add(Arrays.toString(Arrays.copyOfRange(c, 5, 17))), "IV repeated");
    }
  }

  /** The body after the 5-byte prefix is standard AES-256-GCM (IV || ciphertext || tag). */
  @Test
  void interoperatesWithJdkAesGcm() throws Exception {
    VersionedKey k = key(0x01020304);
    byte[] m = "interop check".getBytes();
    byte[] c = RandomizedBox.create(KeyRing.of(k)).encrypt(m, AD);
    assertArrayEquals(new byte[] {1, 1, 2, 3, 4}, Arrays.copyOf(c, 5));
    Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
    gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(TestKeys.bytesOf(k), "AES"),
        new GCMParameterSpec(128, c, 5, 12));
    // Tink's TINK variant authenticates the prefix implicitly via key choice only; AD is the caller's.
    gcm.updateAAD(AD);
    assertArrayEquals(m, gcm.doFinal(c, 17, c.length - 17));
  }

  @Test
  void bindsAssociatedData() throws Exception {
    RandomizedBox box = RandomizedBox.create(KeyRing.of(key(7)));
    byte[] c = box.encrypt("x".getBytes(), AD);
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> box.decrypt(c, AssociatedData.of("value", "t".getBytes(), "other-row".getBytes())));
    assertTrue(e.getMessage().contains("authentication failed"));
  }

  @Test
  void detectsEveryBitFlip() throws Exception {
    RandomizedBox box = RandomizedBox.create(KeyRing.of(key(7)));
    byte[] c = box.encrypt("patient record".getBytes(), AD);
    CiphertextChecks.assertAlterationsRejected(c, t -> box.decrypt(t, AD));
  }

  @Test
  void rotationReadsOldKeysAndWritesWithPrimary() throws Exception {
    VersionedKey old = key(1);
    VersionedKey current = key(2);
    byte[] oldCiphertext = RandomizedBox.create(KeyRing.of(old)).encrypt("old".getBytes(), AD);
    RandomizedBox rotated = RandomizedBox.create(new KeyRing(current, List.of(old, current)));
    assertArrayEquals("old".getBytes(), rotated.decrypt(oldCiphertext, AD));
    assertEquals(2, rotated.encrypt("new".getBytes(), AD)[4]);
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> RandomizedBox.create(KeyRing.of(current)).decrypt(oldCiphertext, AD));
    assertTrue(e.getMessage().contains("key id 1"), e.getMessage());
  }

  @Test
  void refusesWrongKeySize() {
    assertThrows(GeneralSecurityException.class,
        () -> RandomizedBox.create(KeyRing.of(TestKeys.of(1, new byte[16]))));
  }

  @Test
  void sameKeyDifferentBoxesAgree() throws Exception {
    VersionedKey k = key(3);
    byte[] c = RandomizedBox.create(KeyRing.of(k)).encrypt("a".getBytes(), AD);
    assertArrayEquals("a".getBytes(), RandomizedBox.create(KeyRing.of(k)).decrypt(c, AD));
    assertFalse(Arrays.equals(c, RandomizedBox.create(KeyRing.of(k)).encrypt("a".getBytes(), AD)));
  }

  /** The box wipes its temporary key copies only: the ring's keys, shared by the provider's cache, stay intact. */
  @Test
  void leavesTheRingsKeysIntact() throws Exception {
    VersionedKey current = key(2);
    CiphertextChecks.assertKeysLeftIntact(new KeyRing(current, List.of(key(1), current)), RandomizedBox::create,
        "x".getBytes());
  }

  @Test
  void storedFormat2HasAOneByteHeaderAndReadsBackAcrossRotations() throws Exception {
    assertOneByteHeaderReadsBackAcrossRotations(StoredFormat.V2, 12 + 16);
  }

  /**
   * In {@code format}, values carry a one-byte header and {@code nonceAndTag} more bytes, and
   * read back after a rotation; returns a value of the old key.
   */
  private static byte[] assertOneByteHeaderReadsBackAcrossRotations(StoredFormat format, int nonceAndTag)
      throws Exception {
    VersionedKey old = key(0x7701);
    VersionedKey current = key(0x7702);
    RandomizedBox before = RandomizedBox.create(KeyRing.of(old), format);
    RandomizedBox after = RandomizedBox.create(new KeyRing(current, List.of(old, current)), format);
    for (int n : new int[] {0, 1, 16, 100, 1 << 20}) {
      byte[] m = new byte[n];
      RANDOM.nextBytes(m);
      byte[] c = before.encrypt(m, AD);
      assertEquals(n + 1 + nonceAndTag, c.length, "overhead is 1-byte header + nonce + tag");
      assertEquals((byte) 0x01, c[0]);
      assertArrayEquals(m, after.decrypt(c, AD));
      assertEquals((byte) 0x02, after.encrypt(m, AD)[0]);
    }
    byte[] c = before.encrypt("x".getBytes(), AD);
    CiphertextChecks.assertAlterationsRejected(c, t -> after.decrypt(t, AD));
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> RandomizedBox.create(KeyRing.of(current), format).decrypt(c, AD));
    assertTrue(e.getMessage().contains("key id ending in byte 0x1"), e.getMessage());
    return c;
  }

  @Test
  void storedFormat4WritesXaesGcmAndReadsBackAcrossRotations() throws Exception {
    byte[] c = assertOneByteHeaderReadsBackAcrossRotations(StoredFormat.V4, 24 + 16);
    RandomizedBox reader = RandomizedBox.create(KeyRing.of(key(0x7701)), StoredFormat.V4); // same id, other key
    GeneralSecurityException otherKey = assertThrows(GeneralSecurityException.class, () -> reader.decrypt(c, AD));
    assertTrue(otherKey.getMessage().contains("authentication failed"), otherKey.getMessage());
    RandomizedBox box = RandomizedBox.create(KeyRing.of(key(5)), StoredFormat.V4);
    byte[] value = box.encrypt("x".getBytes(), AD);
    GeneralSecurityException otherRow = assertThrows(GeneralSecurityException.class,
        () -> box.decrypt(value, AssociatedData.of("value", "t".getBytes(), "other-row".getBytes())));
    assertTrue(otherRow.getMessage().contains("authentication failed"), otherRow.getMessage());
  }

  /** Formats 2 and 3's AES-GCM values share format 4's headers: a format-4 box names them instead of opening them. */
  @Test
  void storedFormat4RefusesTheEarlierFormNamingIt() throws Exception {
    VersionedKey k = key(0x33);
    RandomizedBox three = RandomizedBox.create(KeyRing.of(k), StoredFormat.V3);
    RandomizedBox four = RandomizedBox.create(KeyRing.of(k), StoredFormat.V4);
    for (int n : new int[] {0, 11, 12, 100}) { // shorter than 12 bytes: too short for format 4's nonce
      byte[] earlier = three.encrypt(new byte[n], AD);
      GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> four.decrypt(earlier, AD));
      assertTrue(e.getMessage().contains("AES-GCM form of earlier stored formats"), n + ": " + e.getMessage());
      // Bound to its cell all the same: moved, it is just an alteration.
      GeneralSecurityException moved = assertThrows(GeneralSecurityException.class,
          () -> four.decrypt(earlier, AssociatedData.of("value", "t".getBytes(), "other-row".getBytes())));
      assertFalse(moved.getMessage().contains("stored formats 2 and 3"), moved.getMessage());
    }
    assertArrayEquals("x".getBytes(), three.decrypt(three.encrypt("x".getBytes(), AD), AD), "format 3 unchanged");
  }
}
