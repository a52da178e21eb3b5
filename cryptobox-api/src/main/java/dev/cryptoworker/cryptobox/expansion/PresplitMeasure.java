package dev.cryptoworker.cryptobox.expansion;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A measure whose stored cells are already split by the values of a dimension (SPLASHE's splayed
 * columns): the sum of the measure over rows whose dimension is {@code v} is the sum of the stored
 * column {@link Part#sumColumn()}, and their count the sum of {@link Part#countColumn()}, both
 * additive on the region servers, over the rows {@link Part#rows()} selects. Asked of a family's
 * {@link FamilyExpansion}.
 *
 * @param dimension the column whose values split the measure
 * @param parts one per declared value of the dimension, in declared order
 */
public record PresplitMeasure(String dimension, List<Part> parts) {
  /**
   * The stored columns of one value of the dimension.
   *
   * @param rows if present, only rows whose stored column holds a value count (enhanced SPLASHE: the
   *     infrequent values share their sum and count columns, told apart by a DET token); else every row
   */
  public record Part(String value, byte[] sumColumn, byte[] countColumn, Optional<RowCondition> rows) {
    public Part {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(sumColumn, "sumColumn");
      Objects.requireNonNull(countColumn, "countColumn");
      Objects.requireNonNull(rows, "rows");
    }

    /** A part over every row. */
    public Part(String value, byte[] sumColumn, byte[] countColumn) {
      this(value, sumColumn, countColumn, Optional.empty());
    }
  }

  /**
   * Rows whose stored column {@code column} holds the logical value {@code value}: the client
   * encrypts {@code value} as that column's box does and the region servers compare ciphertexts, so
   * the column's box must allow equality on ciphertext.
   */
  public record RowCondition(byte[] column, byte[] value) {
    public RowCondition {
      Objects.requireNonNull(column, "column");
      Objects.requireNonNull(value, "value");
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
