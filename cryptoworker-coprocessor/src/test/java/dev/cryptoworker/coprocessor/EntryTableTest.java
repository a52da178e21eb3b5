package dev.cryptoworker.coprocessor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link EntryTable} against a plain map doing what each operation says, over random operations. */
class EntryTableTest {
  /** The oracle's value of one entry. */
  private record Held(byte[] row, long writeNumber, int pass) {}

  private record Key(long high, long low) {}

  /**
   * Keys drawn from few low bits, so they share segments and home slots: probe chains form, wrap
   * around the end of a segment's arrays, and deletions must move entries back for later finds.
   */
  private static Key key(Random random, int lowBits) {
    long low = random.nextLong() & ((1L << lowBits) - 1);
    low |= (long) random.nextInt(2) << 63; // two segments
    return new Key(random.nextInt(4), low);
  }

  @Test
  void everyOperationAgreesWithAMap() {
    for (int seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      EntryTable table = new EntryTable();
      Map<Key, Held> oracle = new HashMap<>();
      int lowBits = 3 + seed % 8;
      for (int op = 0; op < 4_000; op++) {
        Key k = key(random, lowBits);
        byte[] row = {(byte) random.nextInt(3)};
        long writeNumber = random.nextInt(10);
        switch (random.nextInt(5)) {
          case 0, 1 -> {
            table.put(k.high(), k.low(), row, writeNumber);
            oracle.put(k, new Held(row, writeNumber, 0));
          }
          case 2 -> {
            long readPoint = random.nextInt(10);
            Held h = oracle.get(k);
            boolean expected = h != null && Arrays.equals(h.row(), row) && h.writeNumber() <= readPoint;
            assertEquals(expected, table.removeIf(k.high(), k.low(), row, readPoint), "removeIf, seed " + seed);
            if (expected) {
              oracle.remove(k);
            }
          }
          case 3 -> {
            int pass = random.nextInt(3);
            Held h = oracle.get(k);
            EntryTable.Marked expected = h == null ? EntryTable.Marked.ADDED
                : Arrays.equals(h.row(), row) ? EntryTable.Marked.CURRENT : EntryTable.Marked.REPLACED;
            assertEquals(expected, table.mark(k.high(), k.low(), row, writeNumber, pass), "mark, seed " + seed);
            oracle.put(k, expected == EntryTable.Marked.CURRENT ? new Held(h.row(), h.writeNumber(), pass)
                : new Held(row, writeNumber, pass));
          }
          default -> {
            if (random.nextInt(50) == 0) {
              int pass = random.nextInt(3);
              long readPoint = random.nextInt(10);
              List<Key> dropped = new ArrayList<>();
              oracle.forEach((key, h) -> {
                if (h.pass() != pass && h.writeNumber() <= readPoint) {
                  dropped.add(key);
                }
              });
              assertEquals(dropped.size(), table.sweep((w, p) -> p != pass && w <= readPoint), "sweep, seed " + seed);
              dropped.forEach(oracle::remove);
            }
          }
        }
        assertEquals(oracle.size(), table.size(), "size, seed " + seed);
      }
      for (long low = 0; low < 1L << lowBits; low++) {
        for (long segment = 0; segment < 2; segment++) {
          for (long high = 0; high < 4; high++) {
            Held h = oracle.get(new Key(high, low | segment << 63));
            byte[] found = table.row(high, low | segment << 63);
            if (h == null) {
              assertEquals(null, found, "seed " + seed);
            } else {
              assertArrayEquals(h.row(), found, "seed " + seed);
            }
          }
        }
      }
    }
  }
}
