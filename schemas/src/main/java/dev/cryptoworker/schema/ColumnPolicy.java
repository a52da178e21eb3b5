package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How one column's values (or a table's row keys) are protected: the box, the value type, and an
 * optional authenticated companion copy; for SPLASHE, the dimension's values, the measures it
 * splays and (enhanced SPLASHE) which of its values are frequent.
 *
 * <p>A policy is checked where it is used: {@link FamilySchema.Builder#build()} and {@link
 * TableSchema.Builder#build()} refuse one the schema rules do not allow there (the same rules as
 * the YAML loader's).
 */
public final class ColumnPolicy {
  /** Policy of unprotected data. */
  public static final ColumnPolicy PLAIN = new ColumnPolicy(BoxKind.PLAIN, ValueType.BYTES, null); // kind: the policy of unprotected data

  private final BoxKind box;
  private final ValueType type;
  private final BoxKind companion;
  // null when not given (the rules refuse values or splays given to boxes other than SPLASHE)
  private final List<String> values;
  private final List<String> splays;
  private final List<String> frequent;

  ColumnPolicy(BoxKind box, ValueType type, BoxKind companion) {
    this(box, type, companion, null, null, null);
  }

  ColumnPolicy(BoxKind box, ValueType type, BoxKind companion, List<String> values, List<String> splays,
      List<String> frequent) {
    this.box = Objects.requireNonNull(box);
    this.type = Objects.requireNonNull(type);
    this.companion = companion;
    this.values = values == null ? null : List.copyOf(values);
    this.splays = splays == null ? null : List.copyOf(splays);
    this.frequent = frequent == null ? null : List.copyOf(frequent);
  }

  /** A policy without companion. */
  public static ColumnPolicy of(BoxKind box, ValueType type) {
    return new ColumnPolicy(box, type, null);
  }

  /** A policy of {@code bytes} values without companion. */
  public static ColumnPolicy of(BoxKind box) {
    return of(box, ValueType.BYTES);
  }

  /**
   * A builder of a policy with {@code box}, type {@code bytes} and nothing else until set. Where a
   * kind reads values as one type whatever is given (SPLASHE: strings), the built schema holds that.
   */
  public static Builder builder(BoxKind box) {
    return new Builder(box);
  }

  /** SPLASHE: the dimension's possible values, in schema order (empty for other boxes). */
  public List<String> values() {
    return values == null ? List.of() : values;
  }

  /** SPLASHE: the ASHE columns of the same family this dimension splays (empty for other boxes). */
  public List<String> splays() {
    return splays == null ? List.of() : splays;
  }

  /**
   * Enhanced SPLASHE: the declared values that get splayed columns of their own; the others share
   * one, told apart by a padded DET token (empty for basic SPLASHE and other boxes).
   */
  public List<String> frequent() {
    return frequent == null ? List.of() : frequent;
  }

  /**
   * The list options given ({@code values}, {@code splays}, {@code frequent}), by their schema
   * names, for the kind's rules.
   */
  public Map<String, List<String>> listOptions() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (values != null) {
      out.put("values", values);
    }
    if (splays != null) {
      out.put("splays", splays);
    }
    if (frequent != null) {
      out.put("frequent", frequent);
    }
    return out;
  }

  /** The values as given, or null if none were. */
  List<String> givenValues() {
    return values;
  }

  /** The splayed columns as given, or null if none were. */
  List<String> givenSplays() {
    return splays;
  }

  /** The frequent values as given, or null if none were. */
  List<String> givenFrequent() {
    return frequent;
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
        && Objects.equals(p.values, values) && Objects.equals(p.splays, splays) && Objects.equals(p.frequent, frequent);
  }

  @Override
  public int hashCode() {
    return Objects.hash(box, type, companion, values, splays, frequent);
  }

  @Override
  public String toString() {
    return "{box: " + box + ", type: " + type.yamlName()
        + (companion == null ? "" : ", companion: " + companion)
        + (values == null && splays == null ? "" : ", values: " + values() + ", splays: " + splays())
        + (frequent == null ? "" : ", frequent: " + frequent) + "}";
  }

  /** Builds a {@link ColumnPolicy}; reusable, each {@link #build()} makes a new one. */
  public static final class Builder {
    private final BoxKind box;
    private ValueType type;
    private BoxKind companion;
    private List<String> values;
    private List<String> splays;
    private List<String> frequent;

    private Builder(BoxKind box) {
      this.box = Objects.requireNonNull(box);
      this.type = ValueType.BYTES;
    }

    /** How values are read (default {@code bytes}; SPLASHE dimensions are always strings). */
    public Builder type(ValueType type) {
      this.type = Objects.requireNonNull(type);
      return this;
    }

    /** OPE only: the box of an authenticated copy in the same cell ({@link BoxKind#STD}). */
    public Builder companion(BoxKind companion) {
      this.companion = Objects.requireNonNull(companion);
      return this;
    }

    /** SPLASHE only: the dimension's possible values (at least two, distinct). */
    public Builder values(String... values) {
      return values(List.of(values));
    }

    /** SPLASHE only: the dimension's possible values (at least two, distinct). */
    public Builder values(List<String> values) {
      this.values = List.copyOf(values);
      return this;
    }

    /** SPLASHE only: the ASHE columns of the same family this dimension splays. */
    public Builder splays(String... columns) {
      return splays(List.of(columns));
    }

    /** SPLASHE only: the ASHE columns of the same family this dimension splays. */
    public Builder splays(List<String> columns) {
      this.splays = List.copyOf(columns);
      return this;
    }

    /** Enhanced SPLASHE only: the declared values that get splayed columns of their own. */
    public Builder frequent(String... values) {
      return frequent(List.of(values));
    }

    /** Enhanced SPLASHE only: the declared values that get splayed columns of their own. */
    public Builder frequent(List<String> values) {
      this.frequent = List.copyOf(values);
      return this;
    }

    /**
     * The list option {@code name} as {@link #listOptions()} names it ({@code values}, {@code
     * splays} or {@code frequent}), for tools that fill options a kind's rules proposed.
     *
     * @throws IllegalArgumentException if policies have no list option {@code name}
     */
    public Builder listOption(String name, List<String> items) {
      return switch (name) {
        case "values" -> values(items);
        case "splays" -> splays(items);
        case "frequent" -> frequent(items);
        default -> throw new IllegalArgumentException(
            "no list option '" + name + "' (policies have values, splays, frequent)");
      };
    }

    /** The policy; checked when a family or table using it is built. */
    public ColumnPolicy build() {
      return new ColumnPolicy(box, type, companion, values, splays, frequent);
    }
  }
}
