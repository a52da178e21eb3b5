package dev.cryptoworker.schema;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Writes a schema as YAML that {@link TableSchema#parse(String)} reads back to an equal schema. */
final class YamlSchemaWriter {
  /** Written as is; anything else is double-quoted. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
  /** Plain words YAML 1.1 reads as booleans or null. */
  private static final Set<String> YAML_WORDS = Set.of("true", "false", "yes", "no", "on", "off", "y", "n", "null");

  private YamlSchemaWriter() {}

  static String write(TableSchema schema) {
    return write(schema, path -> List.of());
  }

  /**
   * The schema with comment lines above entries: {@code notes} gives them for the YAML path of the
   * row key ({@code rowKey}), each family default ({@code families.F.default}) and each column
   * ({@code families.F.columns.Q}).
   */
  static String write(TableSchema schema, Function<String, List<String>> notes) {
    StringBuilder out = new StringBuilder();
    out.append("table: ").append(scalar(schema.tableName())).append('\n');
    comment(out, "", notes.apply("rowKey"));
    out.append("rowKey: ").append(policy(schema.rowKeyPolicy())).append('\n');
    schema.storedFormat().ifPresent(f -> out.append("storedFormat: ").append(f.number()).append('\n'));
    if (!schema.layout().equals(TableLayout.cell())) {
      out.append("layout: { type: ").append(schema.layout().type());
      LayoutDefinitions.of(schema.layout().type()).write(schema.layout())
          .forEach((key, value) -> out.append(", ").append(key).append(": ").append(value(value)));
      out.append(" }\n");
    }
    if (schema.unlistedFamilies() != UnlistedFamilies.REFUSE) {
      out.append("unlistedFamilies: ").append(schema.unlistedFamilies()).append('\n');
    }
    out.append("families:\n");
    for (FamilySchema family : schema.families().values()) {
      out.append("  ").append(scalar(family.name())).append(":\n");
      String path = "families." + family.name();
      comment(out, "    ", notes.apply(path + ".default"));
      out.append("    default: ").append(policy(family.defaultPolicy())).append('\n');
      if (!family.columns().isEmpty()) {
        out.append("    columns:\n");
        for (Map.Entry<String, ColumnPolicy> c : family.columns().entrySet()) {
          comment(out, "      ", notes.apply(path + ".columns." + c.getKey()));
          out.append("      ").append(scalar(c.getKey())).append(": ").append(policy(c.getValue())).append('\n');
        }
      }
      if (family.protectQualifiers()) {
        out.append("    protectQualifiers: true\n");
      }
    }
    return out.toString();
  }

  private static void comment(StringBuilder out, String indent, List<String> lines) {
    for (String line : lines) {
      out.append(indent).append("# ").append(line.replace('\n', ' ')).append('\n');
    }
  }

  private static String policy(ColumnPolicy p) {
    StringBuilder out = new StringBuilder("{ box: ").append(p.box());
    if (p.type() != ValueType.BYTES) {
      out.append(", type: ").append(p.type().yamlName());
    }
    p.companion().ifPresent(c -> out.append(", companion: ").append(c));
    if (p.givenValues() != null) {
      out.append(", values: ").append(value(p.values()));
    }
    if (p.givenSplays() != null) {
      out.append(", splays: ").append(value(p.splays()));
    }
    if (p.givenFrequent() != null) {
      out.append(", frequent: ").append(value(p.frequent()));
    }
    return out.append(" }").toString();
  }

  /** A list, string, number, boolean or enum constant as YAML (policies' lists, layout values). */
  private static String value(Object value) {
    if (value instanceof List<?> items) {
      return items.stream().map(YamlSchemaWriter::value).collect(Collectors.joining(", ", "[", "]"));
    }
    return value instanceof String s ? scalar(s) : String.valueOf(value);
  }

  /** {@code s} as a YAML scalar: plain if YAML reads it back as that string, else double-quoted. */
  static String scalar(String s) {
    if (PLAIN.matcher(s).matches() && !YAML_WORDS.contains(s.toLowerCase(Locale.ROOT))) {
      return s;
    }
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c >= 0x7f && c <= 0x9f || c == 0x2028 || c == 0x2029 || c == 0xfeff
          || Character.isSurrogate(c)) {
        // control characters, YAML's extra line breaks, the byte-order mark and surrogates
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
