package dev.cryptoworker.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The protection schema of one HBase table: how its row key, each column family and each column
 * are protected. Immutable; build one with {@link #load(Path)} or {@link #parse(String)}.
 *
 * <pre>
 * table: appointments
 * rowKey: { box: DET }                 # PLAIN | STD | DET | OPE
 * families:
 *   physician:
 *     default: { box: DET }
 *   appointment:
 *     default: { box: STD }
 *     columns:
 *       date:  { box: OPE, type: date, companion: STD }
 *   notes:
 *     default: { box: PLAIN }
 *     protectQualifiers: true          # qualifier names DET-encrypted
 * </pre>
 *
 * <p>Unknown keys, boxes or types and contradictory settings are refused with an {@link
 * InvalidSchemaException} naming the source, line and reason.
 */
public final class TableSchema {
  private final String tableName;
  private final ColumnPolicy rowKey;
  private final Map<String, FamilySchema> families;
  private final String source;

  TableSchema(String tableName, ColumnPolicy rowKey, Map<String, FamilySchema> families, String source) {
    this.tableName = Objects.requireNonNull(tableName);
    this.rowKey = Objects.requireNonNull(rowKey);
    this.families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
    this.source = source;
  }

  /**
   * Reads and validates the schema in {@code file}.
   *
   * @throws InvalidSchemaException naming the file, line and reason
   */
  public static TableSchema load(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  /**
   * Parses and validates a schema given as YAML text.
   *
   * @throws InvalidSchemaException naming the line and reason
   */
  public static TableSchema parse(String yaml) {
    return parse(yaml, "<schema>");
  }

  /**
   * Parses and validates a schema; {@code sourceName} names it in error messages.
   *
   * @throws InvalidSchemaException naming the source, line and reason
   */
  public static TableSchema parse(String yaml, String sourceName) {
    return new SchemaValidator(sourceName).validate(YamlNode.parse(yaml, sourceName));
  }

  /** The HBase table name, with namespace if any ({@code ns:name}). */
  public String tableName() {
    return tableName;
  }

  /** How row keys are protected. */
  public ColumnPolicy rowKeyPolicy() {
    return rowKey;
  }

  /** Every family, in schema order. */
  public Map<String, FamilySchema> families() {
    return families;
  }

  /** The schema of {@code family}, if the schema declares it. */
  public Optional<FamilySchema> family(String family) {
    return Optional.ofNullable(families.get(family));
  }

  /** Where the schema was read from (file name or {@code <schema>}). */
  public String source() {
    return source;
  }

  @Override
  public String toString() {
    return "TableSchema[" + tableName + " from " + source + "]";
  }
}
