package dev.cryptoworker.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What an aggregate computes, as a value that plans and per-region runs take: the sum and count of
 * each measure column, optionally the number of rows, per combination of values of the group
 * columns (one group without any). {@link SecureTable#aggregate} and {@link SecureTable#aggregateBy}
 * are this with one measure and at most one group column; {@link SecureTable#aggregateRange} takes
 * any.
 *
 * @param measures the measure columns, each summed and counted (rows that have it)
 * @param groups the group columns, in the order of the group keys
 * @param countsRows whether each group also counts its rows, with or without the measures (SQL's
 *     {@code COUNT(*)})
 * @param nullGroups whether rows lacking a group column form groups with null in its place (SQL's
 *     {@code GROUP BY}), instead of being left out
 */
public record AggregateQuery(List<Column> measures, List<Column> groups, boolean countsRows, boolean nullGroups) {

  /** A column of the table. */
  public record Column(byte[] family, byte[] qualifier) {
    public Column {
      Objects.requireNonNull(family, "family");
      Objects.requireNonNull(qualifier, "qualifier");
    }

    @Override
    public String toString() {
      return Bytes.toString(family) + ":" + Bytes.toString(qualifier);
    }
  }

  public AggregateQuery {
    measures = List.copyOf(measures);
    groups = List.copyOf(groups);
    if (measures.isEmpty() && !countsRows) {
      throw new IllegalArgumentException("an aggregate needs a measure column or a row count");
    }
  }

  /** The sum and count of {@code family:qualifier}, in one group. */
  public static AggregateQuery of(byte[] family, byte[] qualifier) {
    return new AggregateQuery(List.of(new Column(family, qualifier)), List.of(), false, false);
  }

  /** The sum and count of {@code family:qualifier} per value of {@code groupFamily:groupQualifier}. */
  public static AggregateQuery groupedBy(byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) {
    return new AggregateQuery(List.of(new Column(family, qualifier)),
        List.of(new Column(groupFamily, groupQualifier)), false, false);
  }

  /** The number of rows, in one group. */
  public static AggregateQuery rowCount() {
    return new AggregateQuery(List.of(), List.of(), true, false);
  }

  /** This query grouped by {@code family:qualifier} as well (after the group columns it has). */
  public AggregateQuery thenBy(byte[] family, byte[] qualifier) {
    List<Column> more = new ArrayList<>(groups);
    more.add(new Column(family, qualifier));
    return new AggregateQuery(measures, more, countsRows, nullGroups);
  }

  /** This query with {@code family:qualifier} summed and counted as well (after the measures it has). */
  public AggregateQuery alsoSumming(byte[] family, byte[] qualifier) {
    List<Column> more = new ArrayList<>(measures);
    more.add(new Column(family, qualifier));
    return new AggregateQuery(more, groups, countsRows, nullGroups);
  }

  /** This query counting rows as well. */
  public AggregateQuery countingRows() {
    return new AggregateQuery(measures, groups, true, nullGroups);
  }

  /** This query with SQL's null groups (rows lacking a group column are not left out). */
  public AggregateQuery withNullGroups() {
    return new AggregateQuery(measures, groups, countsRows, true);
  }

  public boolean grouped() {
    return !groups.isEmpty();
  }

  /** Whether this is one measure, at most one group column and nothing else: what {@link SecureTable#aggregateBy} asks. */
  public boolean isSingleMeasure() {
    return measures.size() == 1 && groups.size() <= 1 && !countsRows && !nullGroups;
  }

  /** For messages: {@code sums of f:a, f:b, rows by f:g} (names only, never values). */
  public String describe() {
    List<String> parts = new ArrayList<>();
    if (!measures.isEmpty()) {
      parts.add("sums of " + measures.stream().map(Column::toString).collect(Collectors.joining(", ")));
    }
    if (countsRows) {
      parts.add("rows");
    }
    return String.join(" and ", parts) + (grouped() ? " by "
        + groups.stream().map(Column::toString).collect(Collectors.joining(", ")) : "");
  }
}
