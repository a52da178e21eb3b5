package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.Objects;
import java.util.Optional;

/**
 * How one column's values (or a table's row keys) are protected: the box, the value type, and an
 * optional authenticated companion copy.
 */
public final class ColumnPolicy {
  /** Policy of unprotected data. */
  public static final ColumnPolicy PLAIN = new ColumnPolicy(BoxKind.PLAIN, ValueType.BYTES, null);

  private final BoxKind box;
  private final ValueType type;
  private final BoxKind companion;

  ColumnPolicy(BoxKind box, ValueType type, BoxKind companion) {
    this.box = Objects.requireNonNull(box);
    this.type = Objects.requireNonNull(type);
    this.companion = companion;
  }

  /** A policy without companion. */
  public static ColumnPolicy of(BoxKind box, ValueType type) {
    return new ColumnPolicy(box, type, null);
  }

  public BoxKind box() {
    return box;
  }

  public ValueType type() {
    return type;
  }

  /** The box of a companion copy stored beside the cell and decoded instead of it, if any. */
  public Optional<BoxKind> companion() {
    return Optional.ofNullable(companion);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ColumnPolicy p && p.box == box && p.type == type && p.companion == companion;
  }

  @Override
  public int hashCode() {
    return Objects.hash(box, type, companion);
  }

  @Override
  public String toString() {
    return "{box: " + box + ", type: " + type.yamlName()
        + (companion == null ? "" : ", companion: " + companion) + "}";
  }
}
