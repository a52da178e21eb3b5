package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which token each row shows, against counts kept in memory as the counter table keeps them. */
class InfrequentPaddingTest {
  private static final List<String> INFREQUENT = List.of("Antarctica", "Bermuda", "Caspian", "Dogger");

  /** Counters in memory, added to atomically as one HBase Increment does; remembers what was added. */
  private static final class Counters implements SharedCounts {
    final Map<String, Long> counts = new TreeMap<>();
    /** The deltas of every add that was not a read, as the counter table's server sees them. */
    final List<List<Long>> added = new ArrayList<>();

    @Override
    public synchronized long[] add(List<String> names, long[] deltas) {
      if (Arrays.stream(deltas).anyMatch(d -> d != 0)) {
        added.add(Arrays.stream(deltas).boxed().toList());
      }
      long[] out = new long[names.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = counts.merge(names.get(i), deltas[i], Long::sum);
      }
      return out;
    }
  }

  @Test
  void padsFillTheGapsThenShareTheRestEvenly() {
    Random random = new Random(5);
    assertArrayEquals(new long[] {5, 15, 20, 20}, InfrequentPadding.fill(new long[] {20, 10, 5, 5}, 60, random));
    assertArrayEquals(new long[] {0, 10, 15, 15}, InfrequentPadding.fill(new long[] {20, 10, 5, 5}, 40, random));
    long[] shortOf = InfrequentPadding.fill(new long[] {20, 10, 5, 5}, 35, random);
    List<Long> after = List.of(20 + shortOf[0], 10 + shortOf[1], 5 + shortOf[2], 5 + shortOf[3]);
    assertEquals(0, shortOf[0], "the commonest gets no pad while the others are below it: " + after);
    long least = Math.min(after.get(1), Math.min(after.get(2), after.get(3)));
    long most = Math.max(after.get(1), Math.max(after.get(2), after.get(3)));
    assertTrue(most - least <= 1 && most < 20, "the others level up together, within one: " + after);
  }

  /** One batch, its frequent rows first: arrival order must not matter. */
  @Test
  void aBatchSortedWithFrequentRowsFirstEndsExactlyBalanced() throws IOException {
    Counters counters = new Counters();
    InfrequentPadding padding = new InfrequentPadding(INFREQUENT, counters);
    List<String> rows = new ArrayList<>();
    rows.addAll(Collections.nCopies(60, "North"));
    rows.addAll(Collections.nCopies(20, "Antarctica"));
    rows.addAll(Collections.nCopies(10, "Bermuda"));
    rows.addAll(Collections.nCopies(5, "Caspian"));
    rows.addAll(Collections.nCopies(5, "Dogger"));
    Map<String, Integer> shown = encode(padding, rows);
    assertEquals(Map.of("Antarctica", 25, "Bermuda", 25, "Caspian", 25, "Dogger", 25), shown);
    assertEquals(Map.of("Antarctica", 25L, "Bermuda", 25L, "Caspian", 25L, "Dogger", 25L), counters.counts,
        "the shared counts are the tokens shown");
    assertEquals(List.of(List.of(25L, 25L, 25L, 25L)), counters.added,
        "one add of the tokens as stored: never the infrequent rows' own counts (20, 10, 5, 5) apart from the pads");
  }

  /** Two writers (two paddings over one set of counters), one batch of one row at a time each. */
  @Test
  void twoWritersByTheSharedCountsEndExactlyBalanced() throws IOException {
    Counters counters = new Counters();
    InfrequentPadding first = new InfrequentPadding(INFREQUENT, counters);
    InfrequentPadding second = new InfrequentPadding(INFREQUENT, counters);
    Map<String, Integer> shown = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      shown.merge(first.shown("Antarctica"), 1, Integer::sum);
      for (int j = 0; j < 3; j++) {
        shown.merge(second.shown("South"), 1, Integer::sum);
      }
    }
    assertEquals(Map.of("Antarctica", 10, "Bermuda", 10, "Caspian", 10, "Dogger", 10), shown);
  }

  /** A row the plan did not count (its put was not in the batch shown) is a batch of one. */
  @Test
  void aRowOutsideThePlanIsCountedOnItsOwn() throws IOException {
    Counters counters = new Counters();
    InfrequentPadding padding = new InfrequentPadding(INFREQUENT, counters);
    padding.begin(List.of("Bermuda"));
    assertEquals("Bermuda", padding.shown("Bermuda"));
    assertEquals("Caspian", padding.shown("Caspian"), "not planned, still its own token");
    padding.end();
    assertEquals(Map.of("Antarctica", 0L, "Bermuda", 1L, "Caspian", 1L, "Dogger", 0L), counters.counts);
  }

  private static Map<String, Integer> encode(InfrequentPadding padding, List<String> rows) throws IOException {
    Map<String, Integer> shown = new TreeMap<>();
    padding.begin(rows);
    try {
      for (String row : rows) {
        shown.merge(padding.shown(row), 1, Integer::sum);
      }
    } finally {
      padding.end();
    }
    return shown;
  }
}
