package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.List;
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
  private final List<String> values;
  private final List<String> splays;

  ColumnPolicy(BoxKind box, ValueType type, BoxKind companion) {
    this(box, type, companion, List.of(), List.of());
  }

  ColumnPolicy(BoxKind box, ValueType type, BoxKind companion, List<String> values, List<String> splays) {
    this.box = Objects.requireNonNull(box);
    this.type = Objects.requireNonNull(type);
    this.companion = companion;
    this.values = List.copyOf(values);
    this.splays = List.copyOf(splays);
  }

  /** SPLASHE: the dimension's possible values, in schema order (empty for other boxes). */
  public List<String> values() {
    return values;
  }

  /** SPLASHE: the ASHE columns of the same family this dimension splays (empty for other boxes). */
  public List<String> splays() {
    return splays;
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
    return o instanceof ColumnPolicy p && p.box == box && p.type == type && p.companion == companion
        && p.values.equals(values) && p.splays.equals(splays);
  }

  @Override
  public int hashCode() {
    return Objects.hash(box, type, companion, values, splays);
  }

  @Override
  public String toString() {
    return "{box: " + box + ", type: " + type.yamlName()
        + (companion == null ? "" : ", companion: " + companion)
        + (values.isEmpty() ? "" : ", values: " + values + ", splays: " + splays) + "}";
  }
}
