package dev.cryptoworker.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One group of an {@link AggregateQuery}'s answer: the group key, each measure's sum and count, and
 * the row count, decrypted.
 *
 * @param key the group columns' values in the query's order (null where the group's rows lack the
 *     column: SQL's null group); empty without group columns
 * @param measures each measure's sum and count, in the query's order
 * @param rows how many selected rows the group holds, if the query counts rows (else 0)
 */
public record AggregateGroup(List<byte[]> key, List<AggregateResult> measures, long rows) {
  public AggregateGroup {
    key = Collections.unmodifiableList(new ArrayList<>(key)); // may hold nulls
    measures = List.copyOf(measures);
  }

  /** The value of the first group column (null for its null group), or null without group columns. */
  public byte[] firstKey() {
    return key.isEmpty() ? null : key.get(0);
  }

  /** This group's partials and {@code other}'s (the same group over disjoint rows) together. */
  public AggregateGroup plus(AggregateGroup other) {
    Objects.requireNonNull(other, "other");
    List<AggregateResult> sums = new ArrayList<>();
    for (int i = 0; i < measures.size(); i++) {
      sums.add(measures.get(i).plus(other.measures.get(i)));
    }
    return new AggregateGroup(key, sums, rows + other.rows);
  }
}
