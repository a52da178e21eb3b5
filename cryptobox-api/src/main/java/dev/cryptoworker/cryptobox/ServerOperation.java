package dev.cryptoworker.cryptobox;

/**
 * Something region servers can answer on a column's stored values without keys, as a kind's {@link
 * BoxRules#serverOperations} declares it for one use. Tools that plan before any box exists (the
 * schema planner) ask these; the client asks a configured box's capabilities ({@link
 * CryptoBox#capability}), which these summarise: each constant names the capability or client
 * mechanism behind it.
 */
public enum ServerOperation {
  /** Find a row by its key (Get, Delete, a one-row scan): row keys whose stored form is computed again. */
  ROW_LOOKUP,
  /** Scan a row-key range ({@link OrderOnCiphertext}, or stored as is). */
  ROW_RANGE,
  /**
   * Equality and inequality anywhere in a filter, IN as an OR of equalities ({@link
   * EqualityOnCiphertext}, or {@link OrderOnCiphertext} through bounds, or stored as is).
   */
  EQUALITY,
  /**
   * Equality answered from a search index ({@link IndexedSearch}): only as the scan's whole
   * filter, a conjunct of its top-level AND, or one of an OR of such equalities; no inequality.
   */
  INDEXED_EQUALITY,
  /** Range comparisons ({@code <}, {@code <=}, {@code >}, {@code >=}, BETWEEN) ({@link OrderOnCiphertext}, or stored as is). */
  RANGE,
  /** Group an aggregate by stored value: equal values must be stored as equal bytes ({@link EqualityOnCiphertext}). */
  GROUP,
  /** Sum and count values in each region, averages from both ({@link AdditiveAggregation}). */
  SUM,
  /**
   * Select, by one equality in the top-level AND of an ungrouped aggregate's filter, the rows of a
   * sum over a measure this column splays (SPLASHE): one such column per aggregate.
   */
  SPLAYED_EQUALITY,
  /** Group a sum over a measure this column splays by this column's values (SPLASHE). */
  SPLAYED_GROUP
}
