package dev.cryptoworker.cryptobox;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One use of a kind in a schema, as the kind's {@link BoxRules} judge it: where it protects, the
 * value type, the companion and list options given, and (for a column) the kinds of the other
 * columns listed in its family.
 *
 * @param place what the use protects
 * @param valueType the value type as schemas name it ({@code bytes}, {@code string}, {@code long},
 *     {@code int}, {@code date})
 * @param companion the companion kind given, if any
 * @param options the list options given ({@code values}, {@code splays}), by name
 * @param family for a column, the kinds of the columns listed in its family, by qualifier; else empty
 * @param protectedQualifiers for a column or family default, whether its family protects qualifier names
 */
public record BoxUse(Place place, String valueType, Optional<BoxKind> companion, Map<String, List<String>> options,
    Map<String, BoxKind> family, boolean protectedQualifiers) {

  /** What a use protects. */
  public enum Place {
    /** The table's row keys. */
    ROW_KEY,
    /** Values of a family's qualifiers not listed under its columns. */
    FAMILY_DEFAULT,
    /** Values of one listed column. */
    COLUMN
  }

  public BoxUse {
    Objects.requireNonNull(place, "place");
    Objects.requireNonNull(valueType, "valueType");
    Objects.requireNonNull(companion, "companion");
    options = Map.copyOf(options);
    family = Map.copyOf(family);
  }

  /** A use with no companion, option or family, as tools that describe one policy make it. */
  public static BoxUse of(Place place, String valueType) {
    return new BoxUse(place, valueType, Optional.empty(), Map.of(), Map.of(), false);
  }

  /** The list option {@code name}, if given. */
  public Optional<List<String>> option(String name) {
    return Optional.ofNullable(options.get(name));
  }

  /** Why a use is refused, and where: {@code option} names the key at fault, or is empty for the use itself. */
  public record Refusal(Optional<String> option, String reason) {
    public Refusal {
      Objects.requireNonNull(option, "option");
      Objects.requireNonNull(reason, "reason");
    }

    /** The use itself is at fault. */
    public static Refusal of(String reason) {
      return new Refusal(Optional.empty(), reason);
    }

    /** Option (or {@code companion}) {@code option} is at fault. */
    public static Refusal at(String option, String reason) {
      return new Refusal(Optional.of(option), reason);
    }
  }
}
