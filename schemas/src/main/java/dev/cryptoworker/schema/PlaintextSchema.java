package dev.cryptoworker.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A table before protection, as the schema planner reads it: the YAML schema form with no box (or
 * {@code box: PLAIN}) anywhere, each entry giving only its {@code type}, and columns optionally
 * declaring their possible values ({@code values: [FR, DE, US]}), which marks them low-cardinality,
 * and how many rows hold each ({@code rows: {FR: 120, DE: 80, US: 15}}), which lets a splaying box
 * choose the values to splay on their own.
 * Families keep {@code default} and {@code protectQualifiers}.
 *
 * @param table the table with every policy PLAIN and its given type
 * @param declaredValues the values columns declare, by {@code family:qualifier}
 * @param declaredRows the rows per declared value columns declare, by {@code family:qualifier}
 */
public record PlaintextSchema(TableSchema table, Map<String, List<String>> declaredValues,
    Map<String, Map<String, Long>> declaredRows) {
  public PlaintextSchema {
    declaredValues = Map.copyOf(declaredValues);
    Map<String, Map<String, Long>> rows = new LinkedHashMap<>();
    declaredRows.forEach((column, counts) -> rows.put(column, Collections.unmodifiableMap(new LinkedHashMap<>(counts))));
    declaredRows = Collections.unmodifiableMap(rows);
  }

  /**
   * Reads the plaintext schema in {@code file}.
   *
   * @throws InvalidSchemaException naming the file, line and reason
   */
  public static PlaintextSchema load(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  /**
   * Parses a plaintext schema; {@code sourceName} names it in error messages.
   *
   * @throws InvalidSchemaException naming the source, line and reason
   */
  public static PlaintextSchema parse(String yaml, String sourceName) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    Map<String, Map<String, Long>> rows = new LinkedHashMap<>();
    TableSchema table = YamlSchemaReader.plaintext(sourceName, values, rows).read(YamlNode.parse(yaml, sourceName));
    return new PlaintextSchema(table, values, rows);
  }

  /** The values column {@code family:qualifier} declares, if it does. */
  public Optional<List<String>> declaredValues(String family, String qualifier) {
    return Optional.ofNullable(declaredValues.get(family + ":" + qualifier));
  }

  /**
   * A column's entry in this form, declaring {@code rowsPerValue}'s values in its order and their
   * rows ({@code country: { type: string, values: [FR, DE], rows: { FR: 70, DE: 30 } }}), names
   * quoted as the schema writer quotes them: what {@link #parse} reads back.
   */
  public static String columnEntry(String qualifier, ValueType type, Map<String, Long> rowsPerValue) {
    return YamlSchemaWriter.scalar(qualifier) + ": { type: " + type.yamlName() + ", values: ["
        + rowsPerValue.keySet().stream().map(YamlSchemaWriter::scalar).collect(Collectors.joining(", "))
        + "], rows: { " + rowsPerValue.entrySet().stream()
            .map(e -> YamlSchemaWriter.scalar(e.getKey()) + ": " + e.getValue()).collect(Collectors.joining(", "))
        + " } }";
  }

  /** How many rows hold each declared value of column {@code family:qualifier}, in declared order, if it says. */
  public Optional<Map<String, Long>> declaredRows(String family, String qualifier) {
    return Optional.ofNullable(declaredRows.get(family + ":" + qualifier));
  }
}
