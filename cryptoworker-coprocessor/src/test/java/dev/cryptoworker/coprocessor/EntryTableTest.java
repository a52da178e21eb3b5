package dev.cryptoworker.coprocessor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The entry map's arrays agree with a {@code HashMap} oracle through puts, overwrites, conditional
 * removals (which shift probed entries back), compaction passes, resizes and arena compactions.
 */
class EntryTableTest {
  private record Key(long high, long low) {}

  private record Stored(String row, long writeNumber, int pass) {}

  private static byte[] bytes(String row) {
    return row.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void agreesWithAMapThroughRandomOperations() {
    SplittableRandom random = new SplittableRandom(20261128);
    EntryTable table = new EntryTable();
    Map<Key, Stored> oracle = new HashMap<>();
    List<Key> keys = new ArrayList<>();
    int pass = 0;
    for (int op = 0; op < 400_000; op++) {
      int kind = random.nextInt(100);
      if (kind < 55 || keys.isEmpty()) {
        // Few distinct top bits: many keys share a segment, and sharing low bits makes them probe past each other.
        // A third of the puts overwrite a known key, most with another row: garbage that compacts arenas.
        Key k = !keys.isEmpty() && random.nextInt(3) == 0 ? keys.get(random.nextInt(keys.size()))
            : new Key(random.nextLong(4) << 58 | random.nextLong(16), random.nextLong());
        keys.add(k);
        String row = "row-" + random.nextInt(50_000);
        long writeNumber = random.nextLong(1000);
        // A prefix of a longer array: the table copies exactly the row's bytes.
        byte[] padded = bytes("xx" + row + "yy");
        table.put(k.high(), k.low(), padded, 2, row.length(), writeNumber);
        oracle.put(k, new Stored(row, writeNumber, 0));
      } else if (kind < 70) {
        Key k = keys.get(random.nextInt(keys.size()));
        Stored s = oracle.get(k);
        String row = s != null && random.nextBoolean() ? s.row() : "row-" + random.nextInt(50_000);
        long readPoint = random.nextLong(1000);
        table.removeIfCovered(k.high(), k.low(), bytes(row), readPoint);
        if (s != null && s.row().equals(row) && s.writeNumber() <= readPoint) {
          oracle.remove(k);
        }
      } else if (kind < 80) {
        Key k = keys.get(random.nextInt(keys.size()));
        Stored s = oracle.get(k);
        String row = s != null && random.nextBoolean() ? s.row() : "row-" + random.nextInt(50_000);
        int added = table.mark(k.high(), k.low(), bytes(row), 0, row.length(), pass);
        assertEquals(s == null ? 1 : 0, added, "mark of " + k);
        oracle.put(k, s != null && s.row().equals(row) ? new Stored(row, s.writeNumber(), pass)
            : new Stored(row, RegionSearchIndex.VISIBLE_TO_ALL, pass));
      } else if (kind < 99) {
        Key k = keys.get(random.nextInt(keys.size()));
        Stored s = oracle.get(k);
        byte[] row = table.row(k.high(), k.low());
        if (s == null) {
          assertNull(row, "a removed entry's row");
        } else {
          assertArrayEquals(bytes(s.row()), row, "the row of " + k);
        }
      } else {
        long readPoint = random.nextLong(1000);
        int current = pass;
        long expected = oracle.values().stream().filter(s -> s.pass() != current && s.writeNumber() <= readPoint).count();
        assertEquals(expected, table.removeUnmarked(pass, readPoint), "entries a compaction pass removes");
        oracle.values().removeIf(s -> s.pass() != current && s.writeNumber() <= readPoint);
        pass++;
      }
    }
    assertEquals(oracle.size(), table.size());
    Map<Key, Stored> visited = new HashMap<>();
    table.forEach((high, low, arena, offset, length, writeNumber) -> visited.put(new Key(high, low),
        new Stored(new String(arena, offset, length, StandardCharsets.UTF_8), writeNumber, 0)));
    Map<Key, Stored> expected = new HashMap<>();
    oracle.forEach((k, s) -> expected.put(k, new Stored(s.row(), s.writeNumber(), 0)));
    assertEquals(expected, visited);
  }

  @Test
  void rowsOverwrittenUntilTheArenaCompactsStayWhereTheirKeysAre() {
    EntryTable table = new EntryTable();
    SplittableRandom random = new SplittableRandom(7);
    long[] lows = new long[2_000];
    for (int i = 0; i < lows.length; i++) {
      lows[i] = random.nextLong();
      table.put(0, lows[i], bytes("row-" + i), 0, ("row-" + i).length(), 1);
    }
    // No new key, so no resize: only the arena's own compaction reclaims the overwritten rows.
    for (int round = 1; round <= 20; round++) {
      for (int i = 0; i < lows.length; i++) {
        String row = "row-" + i + "-version-" + round;
        table.put(0, lows[i], bytes(row), 0, row.length(), round);
      }
      for (int i = 0; i < lows.length; i += 97) {
        assertArrayEquals(bytes("row-" + i + "-version-" + round), table.row(0, lows[i]), "key " + i + ", round " + round);
      }
    }
    assertEquals(lows.length, table.size());
  }

  @Test
  void anEmptyOrOverlongRowIsRefused() {
    EntryTable table = new EntryTable();
    assertThrows(IllegalArgumentException.class, () -> table.put(1, 2, new byte[0], 0, 0, 5));
    assertThrows(IllegalArgumentException.class, () -> table.put(1, 2, new byte[70_000], 0, 70_000, 5));
    assertEquals(0, table.size());
  }
}
