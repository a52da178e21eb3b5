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

  @Test
  void versionedCellsMergeToTheSamePackInAnyOrderAndAnyNumberOfTimes() {
    SplittableRandom random = new SplittableRandom(17);
    byte[][] keys = {bytes("a"), bytes("b"), bytes("c")};
    byte[][] columns = {bytes("x"), bytes("y")};
    // Entries as APPEND writes them: one cell each, random versions (ties included), random values.
    List<PackRows> entries = new ArrayList<>();
    java.util.Map<String, byte[]> newest = new java.util.HashMap<>();
    java.util.Map<String, CellVersion> newestVersion = new java.util.HashMap<>();
    for (int i = 0; i < 60; i++) {
      byte[] key = keys[random.nextInt(keys.length)];
      byte[] column = columns[random.nextInt(columns.length)];
      CellVersion v = new CellVersion(1 + random.nextInt(5), random.nextInt(3));
      byte[] value = bytes("v" + random.nextInt(1000));
      PackRows entry = new PackRows();
      assertTrue(entry.putIfNewer(key, F, column, value, v));
      entries.add(entry);
      String cell = new String(key) + "/" + new String(column);
      CellVersion old = newestVersion.get(cell);
      int c = old == null ? 1 : v.compareTo(old);
      if (c > 0 || c == 0 && java.util.Arrays.compareUnsigned(value, newest.get(cell)) > 0) {
        newest.put(cell, value);
        newestVersion.put(cell, v);
      }
    }
    PackRows expected = null;
    for (int trial = 0; trial < 20; trial++) {
      List<PackRows> order = new ArrayList<>(entries);
      java.util.Collections.shuffle(order, new java.util.Random(trial));
      PackRows pack = new PackRows();
      pack.put(bytes("a"), F, bytes("x"), bytes("generic")); // unversioned: any entry replaces it
      for (PackRows e : order) {
        pack.merge(e);
        if (random.nextInt(4) == 0) {
          pack.merge(e); // merged twice: no change
        }
      }
      if (expected == null) {
        expected = pack;
      }
      assertEquals(expected, pack, "merge order " + trial);
      assertEquals(pack, PackRows.parse(pack.serialize()), "format 2 round trip");
    }
    for (var e : newest.entrySet()) {
      String[] cell = e.getKey().split("/");
      assertArrayEquals(e.getValue(), expected.row(bytes(cell[0])).get(F).get(bytes(cell[1])), e.getKey());
      assertEquals(newestVersion.get(e.getKey()), expected.version(bytes(cell[0]), F, bytes(cell[1])));
    }
    assertFalse(expected.merge(entries.get(0)), "an entry merged already changes nothing");
    // A GENERIC put clears the version, and the pack is format 1 again once no cell has one.
    PackRows single = entries.get(0).filter(k -> true);
    byte[] key = single.keys().first();
    byte[] column = single.row(key).get(F).firstKey();
    single.put(key, F, column, bytes("plain"));
    assertEquals(CellVersion.NONE, single.version(key, F, column));
    assertEquals(1, single.serialize()[0]);
    assertThrows(IllegalArgumentException.class, () -> new CellVersion(-1, 0));
  }
}
