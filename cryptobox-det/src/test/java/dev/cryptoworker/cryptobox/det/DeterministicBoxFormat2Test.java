package dev.cryptoworker.cryptobox.det;

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
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** DET in stored format 2: one-byte key header, values of at most 8 bytes as one enciphered block. */
class DeterministicBoxFormat2Test {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] AD = AssociatedData.of("row", "t".getBytes());

  private static VersionedKey key(int id) {
    return TestKeys.random(id, DeterministicBox.KEY_LENGTH_BYTES);
  }

  private static DeterministicBox box(VersionedKey... keys) throws GeneralSecurityException {
    return DeterministicBox.create(new KeyRing(keys[keys.length - 1], List.of(keys)), StoredFormat.V2);
  }

  /**
   * Format stability, as for format 1: stored row keys are looked up by these bytes. Both vectors
   * were computed independently with Python's {@code cryptography} package (HKDF-SHA256, AES-CMAC
   * and AES-ECB for the one-block form; its AES-SIV for the long one).
   */
  @Test
  void ciphertextFormatIsStable() throws Exception {
    byte[] key = new byte[64];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) i;
    }
    DeterministicBox box = DeterministicBox.create(KeyRing.of(TestKeys.of(0x0a0b0c0d, key)), StoredFormat.V2);
    assertEquals(GOLDEN_SHORT, HexFormat.of().formatHex(box.encrypt("v2-short".getBytes(), AD)));
    assertEquals(GOLDEN_LONG, HexFormat.of().formatHex(box.encrypt("format-v2".getBytes(), AD)));
    assertArrayEquals("v2-short".getBytes(), box.decrypt(HexFormat.of().parseHex(GOLDEN_SHORT), AD));
    assertArrayEquals("format-v2".getBytes(), box.decrypt(HexFormat.of().parseHex(GOLDEN_LONG), AD));
  }

  private static final String GOLDEN_SHORT = "0dceee08f579d896f798c8d85fafd6a203";
  private static final String GOLDEN_LONG = "0d24add5b8c0f192d1783896c87cb6777cbe9608b2baa1406266";

  @Test
  void shortValuesTakeOneBlockLongerOnesSiv() throws Exception {
    DeterministicBox box = box(key(0x11223344));
    for (int n = 0; n <= 40; n++) {
      byte[] m = new byte[n];
      RANDOM.nextBytes(m);
      byte[] c = box.encrypt(m, AD);
      assertEquals(n <= 8 ? 1 + 16 : 1 + 16 + n, c.length, "length of the ciphertext of " + n + " bytes");
      assertEquals((byte) 0x44, c[0], "the header is the key id's last byte");
      assertArrayEquals(c, box.encrypt(m, AD), "deterministic");
      assertArrayEquals(m, box.decrypt(c, AD));
    }
  }

  @Test
  void distinctShortValuesGiveDistinctBlocks() throws Exception {
    DeterministicBox box = box(key(7));
    Set<String> seen = new HashSet<>();
    for (long i = 0; i < 20_000; i++) {
      byte[] c = box.encrypt(ByteBuffer.allocate(8).putLong(i).array(), AD);
      assertTrue(seen.add(HexFormat.of().formatHex(c)), "collision at " + i);
    }
    // Lengths are part of the encoding: the empty value and a zero byte differ.
    assertFalse(Arrays.equals(box.encrypt(new byte[0], AD), box.encrypt(new byte[1], AD)));
  }

  @Test
  void associatedDataBindsTheOneBlockFormToo() throws Exception {
    DeterministicBox box = box(key(7));
    byte[] otherAd = AssociatedData.of("row", "t2".getBytes());
    byte[] c = box.encrypt("12345678".getBytes(), AD);
    assertFalse(Arrays.equals(c, box.encrypt("12345678".getBytes(), otherAd)));
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> box.decrypt(c, otherAd));
    assertTrue(e.getMessage().contains("authentication failed"), e.getMessage());
  }

  @Test
  void detectsTamperingAndTruncationInBothForms() throws Exception {
    DeterministicBox box = box(key(9));
    byte[] oneBlock = box.encrypt("id-1".getBytes(), AD);
    CiphertextChecks.assertAlterationsRejected(oneBlock, t -> box.decrypt(t, AD));
    byte[] siv = box.encrypt("a longer identifier".getBytes(), AD);
    CiphertextChecks.assertAlterationsRejected(siv, t -> box.decrypt(t, AD));
    // A SIV body too short to be one (1 to 8 bytes) is refused, not read as SIV.
    byte[] forged = Arrays.copyOf(siv, 1 + 16 + 5);
    assertThrows(GeneralSecurityException.class, () -> box.decrypt(forged, AD));
  }

  @Test
  void rotationKeepsOldValuesReadableAndUnknownKeysAreNamed() throws Exception {
    VersionedKey old = key(0x0101);
    VersionedKey current = key(0x0202);
    byte[] c = box(old).encrypt("v".getBytes(), AD);
    assertArrayEquals("v".getBytes(), box(old, current).decrypt(c, AD));
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> box(current).decrypt(c, AD));
    assertTrue(e.getMessage().contains("key id ending in byte 0x1"), e.getMessage());
  }

  @Test
  void refusesRingsWhoseKeysShareTheLastByte() {
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> box(key(0x1ff), key(0x2ff)));
    assertTrue(e.getMessage().contains("1ff and 2ff end in the same byte"), e.getMessage());
  }

  @Test
  void formatOneCiphertextsDoNotReadAsFormatTwo() throws Exception {
    VersionedKey k = key(0x01);
    byte[] v1 = DeterministicBox.create(KeyRing.of(k)).encrypt("12345678".getBytes(), AD);
    assertThrows(GeneralSecurityException.class, () -> box(k).decrypt(v1, AD));
  }
}
