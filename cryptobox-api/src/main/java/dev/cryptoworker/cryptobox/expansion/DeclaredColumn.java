package dev.cryptoworker.cryptobox.expansion;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.List;
import java.util.Objects;

/**
 * A column its family's schema lists, as an expansion sees it: no schema types.
 *
 * @param name the qualifier, as text
 * @param kind its box kind
 * @param values the values it declares (SPLASHE dimensions), in declared order; empty if none
 * @param splays the columns it splays (SPLASHE dimensions); empty if none
 * @param frequent the declared values it names frequent (enhanced SPLASHE dimensions); empty if none
 */
public record DeclaredColumn(String name, BoxKind kind, List<String> values, List<String> splays,
    List<String> frequent) {
  public DeclaredColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    values = List.copyOf(values);
    splays = List.copyOf(splays);
    frequent = List.copyOf(frequent);
  }

  /** A column that names no frequent values. */
  public DeclaredColumn(String name, BoxKind kind, List<String> values, List<String> splays) {
    this(name, kind, values, splays, List.of());
  }
}
