package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EnhancedSplasheChoiceTest {
  private static final List<String> REGIONS = List.of("Antarctica", "Bermuda", "North", "Caspian", "South", "Dogger");

  /** splashe-200k's shape: two values hold 70% of the rows; 8 others share the token column. */
  @Test
  void twoCommonValuesOfTenAreSplayedAlone() {
    List<String> values = List.of("v1", "v2", "v3", "North", "v5", "v6", "South", "v8", "v9", "v10");
    Map<String, Long> rows = rows(values, 8, 6, 5, 40, 4, 3, 30, 2, 1, 1);
    assertEquals(Optional.of(List.of("North", "South")), EnhancedSplasheChoice.frequent(values, rows, 1),
        "the two commonest pad the other eight (8 x 8 <= 100), one alone cannot (9 x 30 > 100); declared order");
  }

  @Test
  void noDistributionOrNoSavingKeepsBasicSplashe() {
    assertEquals(Optional.empty(), EnhancedSplasheChoice.frequent(REGIONS, Map.of(), 1), "distribution unknown");
    List<String> three = List.of("a", "b", "c");
    assertEquals(Optional.empty(), EnhancedSplasheChoice.frequent(three, rows(three, 40, 35, 25), 1),
        "one frequent value of three stores 7 cells per row, as basic does");
    List<String> four = List.of("a", "b", "c", "d");
    assertEquals(Optional.empty(), EnhancedSplasheChoice.frequent(four, rows(four, 50, 48, 1, 1), 1),
        "padding needs two frequent values of four: 9 cells per row, as basic");
    assertEquals(Optional.of(List.of("a")), EnhancedSplasheChoice.frequent(four, rows(four, 97, 1, 1, 1), 1));
  }

  /** Against every subset of values: the choice pads fully and no fully padding subset stores fewer cells. */
  @Test
  void theChoiceIsTheSmallestFullyPaddingSetAmongAllSubsets() {
    Random random = new Random(7);
    int chosen = 0;
    for (int trial = 0; trial < 500; trial++) {
      int d = 3 + random.nextInt(6);
      int measures = 1 + random.nextInt(3);
      List<String> values = new ArrayList<>();
      Map<String, Long> rows = new LinkedHashMap<>();
      for (int i = 0; i < d; i++) {
        values.add("v" + i);
        rows.put("v" + i, (long) (random.nextInt(4) == 0 ? random.nextInt(2000) : random.nextInt(60)));
      }
      if (rows.values().stream().allMatch(n -> n == 0)) {
        continue;
      }
      long total = rows.values().stream().mapToLong(Long::longValue).sum();
      int bestCells = EnhancedSplasheChoice.basicCellsPerRow(d, measures);
      for (int mask = 1; mask < 1 << d; mask++) {
        int k = Integer.bitCount(mask);
        long commonestInfrequent = 0;
        for (int i = 0; i < d; i++) {
          if ((mask & 1 << i) == 0) {
            commonestInfrequent = Math.max(commonestInfrequent, rows.get("v" + i));
          }
        }
        if (d - k >= 2 && (d - k) * commonestInfrequent <= total) {
          bestCells = Math.min(bestCells, EnhancedSplasheChoice.cellsPerRow(k, measures));
        }
      }
      Optional<List<String>> frequent = EnhancedSplasheChoice.frequent(values, rows, measures);
      if (frequent.isEmpty()) {
        assertEquals(EnhancedSplasheChoice.basicCellsPerRow(d, measures), bestCells, "trial " + trial + ": " + rows);
        continue;
      }
      chosen++;
      List<String> f = frequent.get();
      long commonestInfrequent = values.stream().filter(v -> !f.contains(v)).mapToLong(rows::get).max().orElseThrow();
      assertTrue(d - f.size() >= 2 && (d - f.size()) * commonestInfrequent <= total, "trial " + trial + ": pads fully");
      assertEquals(bestCells, EnhancedSplasheChoice.cellsPerRow(f.size(), measures), "trial " + trial + ": " + rows);
    }
    assertTrue(chosen > 100, "enhanced was chosen in " + chosen + " of 500 trials");
  }

  private static Map<String, Long> rows(List<String> values, long... counts) {
    Map<String, Long> rows = new LinkedHashMap<>();
    for (int i = 0; i < values.size(); i++) {
      rows.put(values.get(i), counts[i]);
    }
    return rows;
  }
}
