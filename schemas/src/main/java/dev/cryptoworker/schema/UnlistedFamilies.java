package dev.cryptoworker.schema;

/**
 * What a table's client does with a column family its schema does not list ({@code
 * unlistedFamilies:} in YAML): refuse it (the default), or store it unprotected, so that a schema
 * can name only the family that holds the column to protect.
 */
public enum UnlistedFamilies {
  /** Every cell of a family the schema does not list is refused, naming the family. */
  REFUSE,
  /** Families the schema does not list are stored as they are: row key aside, no protection. */
  PLAIN
}
