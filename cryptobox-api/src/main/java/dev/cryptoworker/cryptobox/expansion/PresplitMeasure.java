package dev.cryptoworker.cryptobox.expansion;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A measure whose stored cells are already split by the values of a dimension (SPLASHE's splayed
 * columns): the sum of the measure over rows whose dimension is {@code v} is the sum of the stored
 * column {@link Part#sumColumn()}, and their count the sum of {@link Part#countColumn()}, both
 * additive on the region servers. Asked of a family's {@link FamilyExpansion}.
 *
 * @param dimension the column whose values split the measure
 * @param parts one per declared value of the dimension, in declared order
 */
public record PresplitMeasure(String dimension, List<Part> parts) {
  /** The stored columns of one value of the dimension. */
  public record Part(String value, byte[] sumColumn, byte[] countColumn) {
    public Part {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(sumColumn, "sumColumn");
      Objects.requireNonNull(countColumn, "countColumn");
    }
  }

  public PresplitMeasure {
    Objects.requireNonNull(dimension, "dimension");
    parts = List.copyOf(parts);
  }

  /** The part of {@code value}, if it is a declared value (no row can hold another). */
  public Optional<Part> part(String value) {
    return parts.stream().filter(p -> p.value().equals(value)).findFirst();
  }
}
