package dev.cryptoworker.client;

import java.util.Objects;

/**
 * The aggregate of one measure column, optionally grouped by one column: what {@link
 * SecureTable#aggregate} and {@link SecureTable#aggregateBy} compute, as a value that plans and
 * per-region runs take.
 *
 * @param family the measure's family
 * @param qualifier the measure's qualifier
 * @param groupFamily the group column's family, or null for one group
 * @param groupQualifier the group column's qualifier, or null for one group
 */
public record AggregateQuery(byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) {
  public AggregateQuery {
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(qualifier, "qualifier");
    if ((groupFamily == null) != (groupQualifier == null)) {
      throw new IllegalArgumentException("a group column needs both its family and its qualifier");
    }
  }

  /** The sum and count of {@code family:qualifier}, in one group. */
  public static AggregateQuery of(byte[] family, byte[] qualifier) {
    return new AggregateQuery(family, qualifier, null, null);
  }

  /** The sum and count of {@code family:qualifier} per value of {@code groupFamily:groupQualifier}. */
  public static AggregateQuery groupedBy(byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) {
    return new AggregateQuery(family, qualifier, Objects.requireNonNull(groupFamily, "groupFamily"),
        Objects.requireNonNull(groupQualifier, "groupQualifier"));
  }

  public boolean grouped() {
    return groupFamily != null;
  }
}
