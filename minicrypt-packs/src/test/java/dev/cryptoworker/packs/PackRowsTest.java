package dev.cryptoworker.packs;

import static dev.cryptoworker.packs.PackCodecTest.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A pack's rows: cell semantics, key order, filtered copies and the split mark, and a parser that refuses garbage. */
class PackRowsTest {
  private static final byte[] F = bytes("f");
  private static final byte[] G = bytes("g");

  @Test
  void putsReplaceAndDeletesRemoveEmptyFamiliesAndRows() {
    PackRows rows = new PackRows();
    rows.put(bytes("r1"), F, bytes("a"), bytes("1"));
    rows.put(bytes("r1"), F, bytes("a"), bytes("2"));
    rows.put(bytes("r1"), G, bytes("b"), bytes("3"));
    rows.put(bytes("r0"), F, bytes("a"), new byte[0]);
    assertEquals(2, rows.size());
    assertArrayEquals(bytes("2"), rows.row(bytes("r1")).get(F).get(bytes("a")));
    assertArrayEquals(new byte[0], rows.row(bytes("r0")).get(F).get(bytes("a")), "an empty value is a value");
    assertTrue(rows.deleteColumn(bytes("r1"), F, bytes("a")));
    assertNull(rows.row(bytes("r1")).get(F), "the emptied family goes");
    assertFalse(rows.deleteColumn(bytes("r1"), F, bytes("a")));
    assertTrue(rows.deleteFamily(bytes("r1"), G));
    assertNull(rows.row(bytes("r1")), "the emptied row goes");
    assertTrue(rows.deleteRow(bytes("r0")));
    assertTrue(rows.isEmpty());
  }

  @Test
  void keysSortAsHBaseSortsThem() {
    PackRows rows = new PackRows();
    for (byte[] k : List.of(new byte[] {(byte) 0x80}, new byte[] {0x7f}, new byte[0], new byte[] {0x7f, 0})) {
      rows.put(k, F, bytes("q"), bytes("v"));
    }
    List<byte[]> keys = new ArrayList<>(rows.keys());
    assertArrayEquals(new byte[0], keys.get(0));
    assertArrayEquals(new byte[] {0x7f}, keys.get(1));
    assertArrayEquals(new byte[] {0x7f, 0}, keys.get(2));
    assertArrayEquals(new byte[] {(byte) 0x80}, keys.get(3), "unsigned: 0x80 after 0x7f");
  }

  @Test
  void filteredCopiesKeepTheChosenRowsAndDropTheSplitMark() {
    PackRows rows = PackCodecTest.records(0, 10);
    rows.markSplit(bytes("patient-00000005"));
    PackRows parsed = PackRows.parse(rows.serialize());
    assertArrayEquals(bytes("patient-00000005"), parsed.pendingSplit());
    assertEquals(rows, parsed);
    PackRows left = rows.filter(k -> java.util.Arrays.compareUnsigned(k, bytes("patient-00000005")) < 0);
    PackRows right = rows.filter(k -> java.util.Arrays.compareUnsigned(k, bytes("patient-00000005")) >= 0);
    assertEquals(5, left.size());
    assertEquals(5, right.size());
    assertNull(left.pendingSplit());
    PackRows joined = new PackRows();
    for (PackRows half : List.of(left, right)) {
      for (byte[] k : half.keys()) {
        half.row(k).forEach((f, cols) -> cols.forEach((q, v) -> joined.put(k, f, q, v)));
      }
    }
    rows.clearSplit();
    assertEquals(rows, joined);
  }

  @Test
  void serializedRowsRoundTripAndGarbageIsRefusedByIllegalArgument() {
    SplittableRandom random = new SplittableRandom(9);
    for (int i = 0; i < 50; i++) {
      PackRows rows = PackCodecTest.arbitrary(random, random.nextInt(30));
      assertEquals(rows, PackRows.parse(rows.serialize()));
    }
    byte[] good = PackCodecTest.records(0, 10).serialize();
    for (int trial = 0; trial < 2_000; trial++) {
      byte[] bad = good.clone();
      bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
      byte[] cut = java.util.Arrays.copyOf(bad, random.nextInt(bad.length + 1));
      try {
        PackRows.parse(cut);
      } catch (IllegalArgumentException expected) {
        // refused by name; any other exception type fails the test
      }
    }
    assertThrows(IllegalArgumentException.class, () -> PackRows.parse(new byte[] {1, (byte) 0xff, (byte) 0xff, 0x7f}));
    assertThrows(IllegalArgumentException.class, () -> PackRows.parse(new byte[] {2, 0}));
  }
}
