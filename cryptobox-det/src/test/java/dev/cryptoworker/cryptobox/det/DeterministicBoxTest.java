package dev.cryptoworker.cryptobox.det;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicBoxTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] AD = AssociatedData.of("value", "t".getBytes(), "f".getBytes(), "q".getBytes());

  private static VersionedKey key(int id) {
    return TestKeys.random(id, DeterministicBox.KEY_LENGTH_BYTES);
  }

  /**
   * Format stability: DET lookups compare stored bytes, so the bytes for a given key, column and
   * value must never change between releases. This vector was produced by release 0.1.
   */
  @Test
  void ciphertextFormatIsStable() throws Exception {
    byte[] key = new byte[64];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) i;
    }
    DeterministicBox box = DeterministicBox.create(KeyRing.of(TestKeys.of(0x0a0b0c0d, key)));
    byte[] c = box.encrypt("format-v1".getBytes(), AD);
    assertEquals(GOLDEN, HexFormat.of().formatHex(c));
    assertArrayEquals("format-v1".getBytes(), box.decrypt(HexFormat.of().parseHex(GOLDEN), AD));
  }

  private static final String GOLDEN = "010a0b0c0ddd725748e6078e1ae89c3231617f28a22f75a9fe5ed70a4951";

  @Test
  void deterministicAndRoundTrips() throws Exception {
    DeterministicBox box = DeterministicBox.create(KeyRing.of(key(9)));
    for (int n : new int[] {0, 1, 8, 16, 64, 1024, 1 << 20}) {
      byte[] m = new byte[n];
      RANDOM.nextBytes(m);
      byte[] c1 = box.encrypt(m, AD);
      assertArrayEquals(c1, box.encrypt(m, AD), "equal plaintexts give equal ciphertexts");
      assertEquals(n + 5 + 16, c1.length);
      assertArrayEquals(m, box.decrypt(c1, AD));
    }
    assertFalse(Arrays.equals(box.encrypt("a".getBytes(), AD), box.encrypt("b".getBytes(), AD)));
  }

  @Test
  void associatedDataSeparatesColumns() throws Exception {
    DeterministicBox box = DeterministicBox.create(KeyRing.of(key(9)));
    byte[] otherAd = AssociatedData.of("value", "t".getBytes(), "f".getBytes(), "q2".getBytes());
    byte[] c = box.encrypt("same".getBytes(), AD);
    assertFalse(Arrays.equals(c, box.encrypt("same".getBytes(), otherAd)));
    assertThrows(GeneralSecurityException.class, () -> box.decrypt(c, otherAd));
  }

  @Test
  void differentKeysUnrelatedCiphertexts() throws Exception {
    byte[] a = DeterministicBox.create(KeyRing.of(key(1))).encrypt("x".getBytes(), AD);
    byte[] b = DeterministicBox.create(KeyRing.of(key(1))).encrypt("x".getBytes(), AD);
    assertFalse(Arrays.equals(Arrays.copyOfRange(a, 5, a.length), Arrays.copyOfRange(b, 5, b.length)));
  }

  @Test
  void detectsTamperingAndTruncation() throws Exception {
    DeterministicBox box = DeterministicBox.create(KeyRing.of(key(9)));
    byte[] c = box.encrypt("id-123".getBytes(), AD);
    CiphertextChecks.assertAlterationsRejected(c, t -> box.decrypt(t, AD));
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> box.decrypt(Arrays.copyOf(c, 12), AD));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void rotationKeepsOldValuesReadable() throws Exception {
    VersionedKey old = key(1);
    VersionedKey current = key(2);
    byte[] c = DeterministicBox.create(KeyRing.of(old)).encrypt("v".getBytes(), AD);
    DeterministicBox rotated = DeterministicBox.create(new KeyRing(current, List.of(old, current)));
    assertArrayEquals("v".getBytes(), rotated.decrypt(c, AD));
    // New writes use the new key, so equality across key versions does not hold (documented).
    assertFalse(Arrays.equals(c, rotated.encrypt("v".getBytes(), AD)));
  }

  /** The box wipes its temporary key copies only: the ring's keys, shared by the provider's cache, stay intact. */
  @Test
  void leavesTheRingsKeysIntact() throws Exception {
    VersionedKey current = key(2);
    CiphertextChecks.assertKeysLeftIntact(new KeyRing(current, List.of(key(1), current)), DeterministicBox::create,
        "x".getBytes());
  }
}
