package dev.cryptoworker.cryptobox.ashe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which values enhanced SPLASHE splays on their own, for a known distribution (Seabed, section 4):
 * the fewest commonest values such that the rows of frequent values can pad every infrequent
 * value's token up to the commonest infrequent value's count, that is {@code m * c <= n} for
 * {@code m} infrequent values, {@code c} the rows of the commonest of them and {@code n} all rows;
 * and at least two values left infrequent, as the schema requires. Stored cells grow with the
 * number of frequent values, so the fewest that pad fully store least among the choices that keep
 * the tokens' counts equal.
 */
final class EnhancedSplasheChoice {
  private EnhancedSplasheChoice() {}

  /**
   * The frequent values, in declared order, or none when the distribution is unknown ({@code
   * rowsPerValue} empty), when no choice pads fully, or when basic SPLASHE stores no more cells per
   * row.
   *
   * @param measures how many measures the column splays
   */
  static Optional<List<String>> frequent(List<String> values, Map<String, Long> rowsPerValue, int measures) {
    if (rowsPerValue.isEmpty()) {
      return Optional.empty();
    }
    List<String> commonestFirst = new ArrayList<>(values);
    // Stable: ties keep declared order.
    commonestFirst.sort(Comparator.comparing((String v) -> rowsPerValue.getOrDefault(v, 0L)).reversed());
    long rows = 0;
    for (String v : values) {
      rows += rowsPerValue.getOrDefault(v, 0L);
    }
    int d = values.size();
    for (int k = 1; d - k >= 2; k++) {
      long commonestInfrequent = rowsPerValue.getOrDefault(commonestFirst.get(k), 0L);
      // m * c <= n, without overflow: c <= floor(n / m) for whole numbers.
      if (commonestInfrequent <= rows / (d - k)) {
        if (cellsPerRow(k, measures) >= basicCellsPerRow(d, measures)) {
          return Optional.empty();
        }
        List<String> frequent = commonestFirst.subList(0, k);
        return Optional.of(values.stream().filter(frequent::contains).toList());
      }
    }
    return Optional.empty();
  }

  /** Enhanced SPLASHE's cells per row (docs/aggregates.md): k indicators, 3 shared, and per measure k + 2. */
  static int cellsPerRow(int frequent, int measures) {
    return frequent + 3 + measures * (frequent + 2);
  }

  /** Basic SPLASHE's cells per row: d indicators and per measure d + 1. */
  static int basicCellsPerRow(int values, int measures) {
    return values + measures * (values + 1);
  }
}
