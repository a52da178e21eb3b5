package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.search.CounterTree;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class StoredFormatTest {
  private static final VersionedKey A = TestKeys.random(0x12345678, 32);
  private static final VersionedKey B = TestKeys.random(0x0abcdef0, 32);
  private static final KeyRing RING = new KeyRing(B, List.of(A, B));

  @Test
  void headers() {
    assertArrayEquals(new byte[] {1, 0x12, 0x34, 0x56, 0x78}, StoredFormat.V1.header(A.keyId()));
    assertArrayEquals(new byte[] {0x78}, StoredFormat.V2.header(A.keyId()));
    assertEquals(5, StoredFormat.V1.headerLength());
    assertEquals(1, StoredFormat.V2.headerLength());
    assertEquals(StoredFormat.V2, StoredFormat.of(2));
    assertArrayEquals(new byte[] {0x78}, StoredFormat.V3.header(A.keyId()));
    assertEquals(StoredFormat.V3, StoredFormat.of(3));
    assertArrayEquals(new byte[] {0x78}, StoredFormat.V4.header(A.keyId()));
    assertEquals(1, StoredFormat.V4.headerLength());
    assertEquals(StoredFormat.V4, StoredFormat.of(4));
    assertArrayEquals(new byte[] {0x78}, StoredFormat.V5.header(A.keyId()));
    assertEquals(StoredFormat.V5, StoredFormat.of(5));
    assertArrayEquals(new byte[] {0x78}, StoredFormat.V6.header(A.keyId()));
    assertEquals(StoredFormat.V6, StoredFormat.of(6));
    assertArrayEquals(new byte[] {0x78}, StoredFormat.V7.header(A.keyId()));
    assertEquals(StoredFormat.V7, StoredFormat.of(7));
    assertEquals(StoredFormat.V6, StoredFormat.LATEST);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StoredFormat.of(8));
    assertEquals("unknown stored format 8 (known: 1, 2, 3, 4, 5, 6, 7)", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> StoredFormat.of(0));
  }

  /** SSE entries of formats 1 and 2 stay keyed by the binary tree they were written with. */
  @Test
  void formatsThreeOnUseTheWideCounterTree() {
    assertEquals(CounterTree.BINARY, StoredFormat.V1.counterTree());
    assertEquals(CounterTree.BINARY, StoredFormat.V2.counterTree());
    assertEquals(CounterTree.WIDE, StoredFormat.V3.counterTree());
    assertEquals(CounterTree.WIDE, StoredFormat.V4.counterTree());
    assertEquals(CounterTree.WIDE, StoredFormat.V5.counterTree());
    assertEquals(CounterTree.WIDE, StoredFormat.V6.counterTree());
    assertEquals(CounterTree.WIDE, StoredFormat.V7.counterTree());
    assertFalse(StoredFormat.V1.oneBlockDeterministic());
    assertTrue(StoredFormat.V2.oneBlockDeterministic() && StoredFormat.V3.oneBlockDeterministic()
        && StoredFormat.V4.oneBlockDeterministic());
  }

  /**
   * Format 4 is format 3 with STD under 192-bit nonces, format 5 format 4 with SSE values under
   * them too and SSE's one-MAC index, format 6 format 5 with writer lanes, format 7 format 6 with
   * count logs; the earlier formats keep what they wrote.
   */
  @Test
  void formatsFourOnUseExtendedNoncesFiveOnTheOneMacIndexSixWriterLanesAndSevenCountLogs() {
    assertFalse(StoredFormat.V1.extendedNonces() || StoredFormat.V2.extendedNonces() || StoredFormat.V3.extendedNonces());
    assertTrue(StoredFormat.V4.extendedNonces() && StoredFormat.V5.extendedNonces() && StoredFormat.V6.extendedNonces());
    for (StoredFormat f : StoredFormat.values()) {
      assertEquals(f.number() >= 5, f.extendedNoncesForSearchableValues(), f.toString());
      assertEquals(f.number() >= 5, f.oneMacSearchIndex(), f.toString());
      assertEquals(f.number() >= 6, f.writerLanes(), f.toString());
      assertEquals(f == StoredFormat.V7, f.countLogs(), f.toString());
    }
  }

  @Test
  void keyIdsReadBackFromEitherHeader() throws Exception {
    for (StoredFormat f : StoredFormat.values()) {
      byte[] stored = concat(f.header(A.keyId()), new byte[20]);
      assertEquals(OptionalInt.of(A.keyId()), f.keyIdOf(stored, RING));
      assertTrue(f.madeUnder(stored, A.keyId()));
      assertFalse(f.madeUnder(stored, B.keyId()));
      assertEquals(A.keyId(), f.keyFor(stored, 16, RING).keyId());
    }
    assertEquals(OptionalInt.empty(), StoredFormat.V2.keyIdOf(new byte[] {0x33, 0}, RING));
    assertThrows(java.security.GeneralSecurityException.class,
        () -> StoredFormat.V2.keyFor(new byte[] {0x78, 1, 2}, 16, RING), "truncated");
  }

  @Test
  void formatTwoRefusesKeysItCannotTellApart() throws Exception {
    KeyRing clash = new KeyRing(A, List.of(TestKeys.random(0x01000078, 32), A));
    StoredFormat.V1.requireDistinctHeaders(clash, "STD");
    java.security.GeneralSecurityException e = assertThrows(java.security.GeneralSecurityException.class,
        () -> StoredFormat.V2.requireDistinctHeaders(clash, "STD"));
    assertTrue(e.getMessage().contains("1000078 and 12345678 end in the same byte"), e.getMessage());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
