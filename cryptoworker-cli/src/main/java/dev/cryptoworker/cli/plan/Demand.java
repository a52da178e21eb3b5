package dev.cryptoworker.cli.plan;

import dev.cryptoworker.cryptobox.ServerOperation;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one sample query asks of one column on the servers: any one of {@code anyOf} answers it.
 *
 * @param column the column
 * @param anyOf the operations, any of which answers it
 * @param query the query that asks it
 * @param what what the query does with the column, for notes ({@code equality}, {@code sum}, ...)
 * @param measures the qualifiers the query sums, which a column answering through a splayed
 *     operation must splay
 */
public record Demand(ColumnRef column, Set<ServerOperation> anyOf, SampleQuery query, String what,
    List<String> measures) {
  public Demand {
    Objects.requireNonNull(column, "column");
    anyOf = Set.copyOf(anyOf);
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(what, "what");
    measures = List.copyOf(measures);
  }

  /** Whether some operation of {@code answered} answers it. */
  public boolean answeredBy(Set<ServerOperation> answered) {
    return anyOf.stream().anyMatch(answered::contains);
  }

  /** Whether {@code answered} answers it only through operations that split sums by this column's values. */
  public boolean onlySplayed(Set<ServerOperation> answered) {
    return anyOf.stream().filter(answered::contains).allMatch(Demand::splayed);
  }

  /** This demand without the splayed operations. */
  public Demand withoutSplayed() {
    return new Demand(column, anyOf.stream().filter(o -> !splayed(o)).collect(java.util.stream.Collectors.toSet()),
        query, what, measures);
  }

  /** Whether {@code anyOf} has splayed operations. */
  public boolean splayable() {
    return anyOf.stream().anyMatch(Demand::splayed);
  }

  static boolean splayed(ServerOperation operation) {
    return operation == ServerOperation.SPLAYED_EQUALITY || operation == ServerOperation.SPLAYED_GROUP;
  }
}
