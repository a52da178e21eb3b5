package dev.cryptoworker.cryptobox.ope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.RangeBounds;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.SecretKeyBytes;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.VersionedKey;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OrderPreservingBoxTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] AD = AssociatedData.of("value", "t".getBytes(), "r".getBytes());

  static KeyRing ring(int id, int length) {
    byte[] k = new byte[length];
    RANDOM.nextBytes(k);
    return KeyRing.of(new VersionedKey(id, SecretKeySpecHolder.of(k)));
  }

  /** Avoids a name clash with javax.crypto in this file. */
  static final class SecretKeySpecHolder {
    static SecretKeyBytes of(byte[] k) {
      return SecretKeyBytes.copyOf(k, SecretKeyAccess.insecure());
    }
  }

  private static OrderPreservingBox box(OrderPreservingBox.Encoding e, boolean companion) throws Exception {
    return OrderPreservingBox.create(ring(3, OrderPreservingBox.KEY_LENGTH_BYTES), e,
        companion ? RandomizedBox.create(ring(4, 32)) : null);
  }

  /** Checks order, inversion and determinism over values sorted by {@code order}. */
  private static void assertOrderPreserving(OrderPreservingBox box, List<byte[]> values, Comparator<byte[]> order)
      throws GeneralSecurityException {
    List<byte[]> sorted = new ArrayList<>(values);
    sorted.sort(order);
    byte[] previousValue = null;
    byte[] previous = null;
    for (byte[] v : sorted) {
      byte[] c = box.encrypt(v, AD);
      assertArrayEquals(v, box.decrypt(c, AD), "decrypt inverts encrypt");
      if (!box.hasCompanion()) {
        assertArrayEquals(c, box.encrypt(v, AD), "deterministic");
      }
      if (previous != null) {
        int cmp = order.compare(previousValue, v);
        int ccmp = Arrays.compareUnsigned(box.lowerBound(previousValue), box.lowerBound(v));
        assertEquals(Integer.signum(cmp), Integer.signum(ccmp), "order between values");
        if (cmp < 0) {
          assertTrue(Arrays.compareUnsigned(previous, c) < 0, "stored ciphertexts keep the order");
          // Bounds: prev < upperBoundExclusive(prev) <= c
          assertTrue(Arrays.compareUnsigned(previous, box.upperBoundExclusive(previousValue)) < 0);
          assertTrue(Arrays.compareUnsigned(box.upperBoundExclusive(previousValue), c) <= 0);
        }
      }
      assertTrue(Arrays.compareUnsigned(box.lowerBound(v), c) <= 0, "lowerBound(v) <= E(v)");
      previous = c;
      previousValue = v;
    }
  }

  @Test
  void longsKeepSignedOrderIncludingEdges() throws Exception {
    SplittableRandom r = new SplittableRandom(1);
    List<byte[]> values = new ArrayList<>();
    for (long v : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
      values.add(ByteBuffer.allocate(8).putLong(v).array());
    }
    for (int i = 0; i < 400; i++) {
      values.add(ByteBuffer.allocate(8).putLong(i % 2 == 0 ? r.nextLong() : r.nextLong(-1000, 1000)).array());
    }
    Comparator<byte[]> signed = Comparator.comparingLong(b -> ByteBuffer.wrap(b).getLong());
    assertOrderPreserving(box(OrderPreservingBox.Encoding.LONG, false), values, signed);
    assertOrderPreserving(box(OrderPreservingBox.Encoding.LONG, true), values.subList(0, 60), signed);
  }

  @Test
  void intsKeepSignedOrder() throws Exception {
    SplittableRandom r = new SplittableRandom(2);
    List<byte[]> values = new ArrayList<>();
    for (int v : new int[] {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE}) {
      values.add(ByteBuffer.allocate(4).putInt(v).array());
    }
    for (int i = 0; i < 300; i++) {
      values.add(ByteBuffer.allocate(4).putInt(r.nextInt()).array());
    }
    assertOrderPreserving(box(OrderPreservingBox.Encoding.INT, false), values,
        Comparator.comparingInt(b -> ByteBuffer.wrap(b).getInt()));
  }

  @Test
  void stringsKeepByteOrderWithPrefixesAndLengths() throws Exception {
    SplittableRandom r = new SplittableRandom(3);
    List<byte[]> values = new ArrayList<>();
    for (String s : new String[] {"", "a", "ab", "abc", "abcdefg", "abcdefg\0", "abcdefgh", "abcdefh", "b",
        "\0", "\0\0", "\u00ff\u00ff", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "abcdefgabcdefg", "abcdefgabcdefga"}) {
      values.add(s.getBytes(StandardCharsets.ISO_8859_1));
    }
    String[] stems = {"Silva", "Santos", "Silveira", "Sousa", "2019-03-01", "2019-03-1"};
    for (int i = 0; i < 300; i++) {
      int n = r.nextInt(40);
      byte[] b = new byte[n];
      for (int j = 0; j < n; j++) {
        b[j] = (byte) (r.nextBoolean() ? 'a' + r.nextInt(3) : r.nextInt(256));
      }
      values.add(i % 3 == 0 ? (stems[r.nextInt(stems.length)] + new String(b, StandardCharsets.ISO_8859_1))
          .getBytes(StandardCharsets.ISO_8859_1) : b);
    }
    byte[] longValue = new byte[1000];
    r.nextBytes(longValue);
    values.add(longValue);
    assertOrderPreserving(box(OrderPreservingBox.Encoding.BYTES, false), values, Arrays::compareUnsigned);
    assertOrderPreserving(box(OrderPreservingBox.Encoding.BYTES, true), values.subList(0, 40), Arrays::compareUnsigned);
  }

  @Test
  void equalPrefixesShareLeadingBlocksOnlyPerChunk() throws Exception {
    OrderPreservingBox box = box(OrderPreservingBox.Encoding.BYTES, false);
    byte[] a = box.encrypt("abcdefgXYZ".getBytes(), AD);
    byte[] b = box.encrypt("abcdefgQRS".getBytes(), AD);
    byte[] c = box.encrypt("abcdefhXYZ".getBytes(), AD);
    assertEquals(5 + 32, a.length, "two chunks");
    assertTrue(Arrays.equals(a, 0, 21, b, 0, 21), "same first 7 bytes: same first block (documented leak)");
    assertFalse(Arrays.equals(a, 21, 37, b, 21, 37));
    assertFalse(Arrays.equals(a, 5, 21, c, 5, 21));
  }

  @Test
  void datesOrderByInstantAndRoundTripExactlyWithCompanion() throws Exception {
    OrderPreservingBox box = box(OrderPreservingBox.Encoding.DATE, true);
    String[] ordered = {"2015-01-01", "20150101000001", "2016-02-29T12:00:00", "2016-02-29T13:00:00+00:00",
        "20200101", "2020-12-31T23:59:59Z"};
    byte[] previous = null;
    for (String d : ordered) {
      byte[] c = box.encrypt(d.getBytes(StandardCharsets.UTF_8), AD);
      assertEquals(d, new String(box.decrypt(c, AD), StandardCharsets.UTF_8), "exact text back");
      if (previous != null) {
        assertTrue(Arrays.compareUnsigned(previous, c) < 0, d);
      }
      previous = c;
    }
    // The same instant written two ways compares equal on the order-preserving part.
    assertArrayEquals(box.lowerBound("2019-03-01".getBytes()), box.lowerBound("20190301".getBytes()));
    assertThrows(IllegalArgumentException.class, () -> box(OrderPreservingBox.Encoding.DATE, false));
    assertThrows(IllegalArgumentException.class, () -> box.encrypt("yesterday".getBytes(), AD));
  }

  @Test
  void companionDetectsAlteredBlocksAndMovedCells() throws Exception {
    OrderPreservingBox box = box(OrderPreservingBox.Encoding.LONG, true);
    byte[] c5 = box.encrypt(ByteBuffer.allocate(8).putLong(5).array(), AD);
    byte[] c9 = box.encrypt(ByteBuffer.allocate(8).putLong(9).array(), AD);
    byte[] swapped = c5.clone();
    System.arraycopy(c9, 5, swapped, 5, 16); // blocks of 9, companion of 5
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> box.decrypt(swapped, AD));
    assertTrue(e.getMessage().contains("does not match"), e.getMessage());
    assertThrows(GeneralSecurityException.class,
        () -> box.decrypt(c5, AssociatedData.of("value", "t".getBytes(), "other row".getBytes())));
    byte[] truncated = Arrays.copyOf(c5, c5.length - 3);
    assertThrows(GeneralSecurityException.class, () -> box.decrypt(truncated, AD));
  }

  @Test
  void withoutCompanionRandomAlterationIsCaught() throws Exception {
    OrderPreservingBox box = box(OrderPreservingBox.Encoding.BYTES, false);
    byte[] c = box.encrypt("Maria Santos".getBytes(), AD);
    for (int i = 5; i < c.length; i++) {
      byte[] t = c.clone();
      t[i] ^= 0x10;
      assertThrows(GeneralSecurityException.class, () -> box.decrypt(t, AD), "byte " + i);
    }
    assertThrows(GeneralSecurityException.class, () -> box.decrypt(Arrays.copyOf(c, 20), AD));
    GeneralSecurityException wrongKey = assertThrows(GeneralSecurityException.class,
        () -> box(OrderPreservingBox.Encoding.BYTES, false).decrypt(c, AD));
    // Same key id, different key: the walk ends on a leaf that is not the ciphertext.
    assertTrue(wrongKey.getMessage().contains("not an OPE ciphertext"), wrongKey.getMessage());
  }

  @Test
  void typeErrorsAreReported() throws Exception {
    OrderPreservingBox box = box(OrderPreservingBox.Encoding.LONG, false);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> box.encrypt(new byte[3], AD));
    assertTrue(e.getMessage().contains("8 bytes"));
  }

  @Test
  void maxValueBoundIsAboveEveryCiphertext() throws Exception {
    OrderPreservingBox box = box(OrderPreservingBox.Encoding.LONG, true);
    byte[] max = ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array();
    assertTrue(Arrays.compareUnsigned(box.encrypt(max, AD), box.upperBoundExclusive(max)) < 0);
  }

  /** The box wipes its temporary key copy only: the ring's keys, shared by the provider's cache, stay intact. */
  @Test
  void leavesTheRingsKeysIntact() throws Exception {
    CiphertextChecks.assertKeysLeftIntact(ring(3, OrderPreservingBox.KEY_LENGTH_BYTES),
        ring -> OrderPreservingBox.create(ring, OrderPreservingBox.Encoding.BYTES, null, 0), "x".getBytes());
  }

  /**
   * Format stability: stored OPE values are compared and decrypted as they are, so the bytes for a
   * given key and value must never change (this vector predates the key-handling changes of the
   * SecretKeyAccess work, which left them as they were).
   */
  @Test
  void ciphertextFormatIsStable() throws Exception {
    byte[] key = new byte[OrderPreservingBox.KEY_LENGTH_BYTES];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (i * 7 + 1);
    }
    OrderPreservingBox box = OrderPreservingBox.create(
        KeyRing.of(new VersionedKey(0x0a0b0c0d, SecretKeySpecHolder.of(key))), OrderPreservingBox.Encoding.LONG, null, 0);
    byte[] value = ByteBuffer.allocate(8).putLong(-42L).array();
    assertEquals(GOLDEN_LONG, HexFormat.of().formatHex(box.encrypt(value, AD)));
    assertArrayEquals(value, box.decrypt(HexFormat.of().parseHex(GOLDEN_LONG), AD));
  }

  private static final String GOLDEN_LONG = "010a0b0c0d800000005070e946e173b3e7471d1817";

  @Test
  void storedFormat2KeepsOrderBehindAOneByteHeader() throws Exception {
    OrderPreservingBox box = OrderPreservingBox.create(ring(3, OrderPreservingBox.KEY_LENGTH_BYTES), StoredFormat.V2,
        OrderPreservingBox.Encoding.BYTES, null, 0);
    SplittableRandom r = new SplittableRandom(5);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      byte[] v = new byte[r.nextInt(20)];
      r.nextBytes(v);
      values.add(v);
    }
    assertOrderPreserving(box, values, Arrays::compareUnsigned);
    byte[] c = box.encrypt("abc".getBytes(), AD);
    assertEquals(1 + OrderPreservingBox.BLOCK, c.length);
    for (RangeBounds b : box.rangeBounds("abc".getBytes())) {
      assertEquals(1, b.versionStart().length, "a version's range starts at its one-byte header");
      assertTrue(Arrays.compareUnsigned(b.versionStart(), c) <= 0 && Arrays.compareUnsigned(c, b.versionEnd()) < 0);
    }
  }

  /**
   * A thread reuses the leading blocks a string shares with the one it encrypted last: the blocks
   * must be those a box that never saw another value computes, for strings that share 0 to 3
   * leading chunks, repeat, extend or cut the last one, in sequence and out of order.
   */
  @Test
  void stringsSharingLeadingChunksWithTheLastOneEncryptAsAlone() throws Exception {
    KeyRing keys = ring(3, OrderPreservingBox.KEY_LENGTH_BYTES);
    OrderPreservingBox reused = OrderPreservingBox.create(keys, OrderPreservingBox.Encoding.BYTES, null, 0);
    List<String> values = new ArrayList<>(List.of("r000000001", "r000000002", "r000000002", "r000000102",
        "r0000001", "r000000", "r00000", "r000000000000000000001", "r000000000000000000002", "r000000000000001",
        "s000000001", "", "r000000003", "patient-0000000017", "patient-0000000018", "patient-0001"));
    for (int i = 0; i < 40; i++) {
      values.add(String.format("r%09d", RANDOM.nextInt(1000)));
    }
    for (String v : values) {
      OrderPreservingBox alone = OrderPreservingBox.create(keys, OrderPreservingBox.Encoding.BYTES, null, 0);
      assertArrayEquals(alone.encrypt(v.getBytes(), AD), reused.encrypt(v.getBytes(), AD), v);
    }
  }
}
