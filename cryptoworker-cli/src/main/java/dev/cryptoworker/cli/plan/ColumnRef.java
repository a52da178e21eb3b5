package dev.cryptoworker.cli.plan;

/**
 * A column of the planned table, or its row key.
 *
 * @param family the family, or null for the row key
 * @param qualifier the qualifier, or null for the row key
 */
public record ColumnRef(String family, String qualifier) {
  /** The row key. */
  public static final ColumnRef ROW_KEY = new ColumnRef(null, null);

  public boolean isRowKey() {
    return family == null;
  }

  /** Its YAML path in a schema: {@code rowKey} or {@code families.F.columns.Q}. */
  public String yamlPath() {
    return isRowKey() ? "rowKey" : "families." + family + ".columns." + qualifier;
  }

  @Override
  public String toString() {
    return isRowKey() ? "the row key" : family + ":" + qualifier;
  }
}
