package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProviders;
import dev.cryptoworker.cryptobox.StoredFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Turns a located YAML tree into a schema. Checks only the YAML form (mappings, known keys, single
 * values, box and type names, booleans, lists); fills the builders, whose {@link SchemaValidator}
 * rules then refuse a bad schema at the line of the offending key.
 */
final class YamlSchemaReader {
  private final String source;
  /** For a plaintext schema, the values its columns declare, by {@code family:qualifier}; else null. */
  private final Map<String, List<String>> declaredValues;
  /** For a plaintext schema, the rows per declared value columns declare, by {@code family:qualifier}; else null. */
  private final Map<String, Map<String, Long>> declaredRows;

  YamlSchemaReader(String source) {
    this(source, null, null);
  }

  private YamlSchemaReader(String source, Map<String, List<String>> declaredValues,
      Map<String, Map<String, Long>> declaredRows) {
    this.source = source;
    this.declaredValues = declaredValues;
    this.declaredRows = declaredRows;
  }

  /**
   * A reader of plaintext schemas ({@link PlaintextSchema}): policies give no box (or PLAIN), and
   * columns may declare their values, which go to {@code declaredValues}, and how many rows hold
   * each, which go to {@code declaredRows}.
   */
  static YamlSchemaReader plaintext(String source, Map<String, List<String>> declaredValues,
      Map<String, Map<String, Long>> declaredRows) {
    return new YamlSchemaReader(source, declaredValues, declaredRows);
  }

  TableSchema read(YamlNode root) {
    requireMapping(root, "the schema");
    allowOnly(root, "table", "rowKey", "families", "description", "storedFormat", "layout", "unlistedFamilies");
    String tableName = requireScalar(required(root, "table"));
    TableSchema.Builder table = TableSchema.builder(tableName);
    ifPresent(root, "rowKey", n -> table.rowKey(policy(n)));
    ifPresent(root, "storedFormat", n -> table.storedFormat(storedFormat(n)));
    ifPresent(root, "layout", n -> table.layout(layout(n)));
    ifPresent(root, "unlistedFamilies", n -> table.unlistedFamilies(unlistedFamilies(n)));
    YamlNode familiesNode = required(root, "families");
    requireMapping(familiesNode, "families");
    for (Map.Entry<String, YamlNode> e : familiesNode.fields.entrySet()) {
      try {
        table.family(family(e.getKey(), e.getValue()));
      } catch (InvalidSchemaException refused) {
        throw refused.inTable(tableName); // a family is checked before its table: name the table here
      }
    }
    return table.build(Location.of(source, root));
  }

  private FamilySchema family(String name, YamlNode node) {
    requireMapping(node, "a family");
    allowOnly(node, "default", "columns", "protectQualifiers");
    FamilySchema.Builder family = FamilySchema.builder(name);
    ifPresent(node, "default", n -> family.defaultPolicy(policy(n)));
    ifPresent(node, "protectQualifiers", n -> family.protectQualifiers(bool(n)));
    ifPresent(node, "columns", n -> {
      requireMapping(n, "columns");
      for (Map.Entry<String, YamlNode> c : n.fields.entrySet()) {
        family.column(c.getKey(), declaredValues == null ? policy(c.getValue())
            : plaintextPolicy(c.getValue(), name + ":" + c.getKey()));
      }
    });
    return family.build(Location.of(source, node));
  }

  private ColumnPolicy policy(YamlNode node) {
    if (declaredValues != null) {
      return plaintextPolicy(node, null);
    }
    requireMapping(node, "a protection policy");
    allowOnly(node, "box", "type", "companion", "values", "splays", "frequent");
    ColumnPolicy.Builder policy = ColumnPolicy.builder(box(required(node, "box")));
    ifPresent(node, "type", n -> policy.type(type(n)));
    ifPresent(node, "companion", n -> policy.companion(box(n)));
    ifPresent(node, "values", n -> policy.values(stringList(n)));
    ifPresent(node, "splays", n -> policy.splays(stringList(n)));
    ifPresent(node, "frequent", n -> policy.frequent(stringList(n)));
    return policy.build();
  }

  /**
   * A plaintext schema's entry: a type, no box but PLAIN, and for a column ({@code column} not
   * null) its declared values, if any.
   */
  private ColumnPolicy plaintextPolicy(YamlNode node, String column) {
    requireMapping(node, "a column's entry");
    if (column == null) {
      allowOnly(node, "box", "type");
    } else {
      allowOnly(node, "box", "type", "values", "rows");
    }
    ifPresent(node, "box", n -> {
      if (box(n).isProtected()) {
        throw error(n, "a plaintext schema gives no box (or PLAIN): the planner chooses them");
      }
    });
    ifPresent(node, "values", n -> {
      List<String> values = stringList(n);
      if (values.isEmpty() || Set.copyOf(values).size() != values.size()) {
        throw error(n, "declares the column's possible values: at least one, each once");
      }
      declaredValues.put(column, values);
    });
    ifPresent(node, "rows", n -> declaredRows.put(column, rowsPerValue(n, declaredValues.get(column))));
    YamlNode type = node.fields.get("type");
    return ColumnPolicy.of(ColumnPolicy.PLAIN.box(), type == null ? ValueType.BYTES : type(type));
  }

  /**
   * A plaintext column's {@code rows: {value: count, ..}}: how many rows hold each declared value
   * (counted or sampled; only the proportions matter), in declared order.
   */
  private Map<String, Long> rowsPerValue(YamlNode node, List<String> values) {
    if (values == null) {
      throw error(node, "counts the rows of declared values: declare the column's values: [..] too");
    }
    requireMapping(node, "rows");
    Map<String, Long> rows = new LinkedHashMap<>();
    for (String value : values) {
      YamlNode count = node.fields.get(value);
      if (count == null) {
        throw error(node, "gives no count for the declared value '" + value + "' (one count per declared value)");
      }
      try {
        long n = Long.parseLong(requireScalar(count));
        if (n < 0) {
          throw error(count, "must be a count of rows, 0 or more");
        }
        rows.put(value, n);
      } catch (NumberFormatException e) {
        throw error(count, "must be a count of rows, 0 or more");
      }
    }
    for (String key : node.fields.keySet()) {
      if (!values.contains(key)) {
        throw error(node.fields.get(key), "counts '" + key + "', which values: [..] does not declare");
      }
    }
    if (rows.values().stream().allMatch(n -> n == 0)) {
      throw error(node, "counts no row at all");
    }
    return rows;
  }

  /** Reads the child {@code key} of a mapping with {@code read}, if the mapping has it. */
  private static void ifPresent(YamlNode node, String key, Consumer<YamlNode> read) {
    YamlNode child = node.fields.get(key);
    if (child != null) {
      read.accept(child);
    }
  }

  boolean bool(YamlNode node) {
    String v = requireScalar(node);
    if (!v.equals("true") && !v.equals("false")) {
      throw error(node, "must be true or false, got '" + v + "'");
    }
    return Boolean.parseBoolean(v);
  }

  private StoredFormat storedFormat(YamlNode node) {
    String v = requireScalar(node);
    try {
      return StoredFormat.of(Integer.parseInt(v));
    } catch (IllegalArgumentException e) {
      throw error(node, "unknown storedFormat '" + v + "' (expected 1, 2, 3 or 4)");
    }
  }

  private UnlistedFamilies unlistedFamilies(YamlNode node) {
    String v = requireScalar(node);
    for (UnlistedFamilies policy : UnlistedFamilies.values()) {
      if (policy.name().equals(v.toUpperCase(Locale.ROOT))) {
        return policy;
      }
    }
    throw error(node, "unknown unlistedFamilies '" + v + "' (expected " + names(UnlistedFamilies.values())
        + ": what to do with families the schema does not list)");
  }

  private TableLayout layout(YamlNode node) {
    requireMapping(node, "a layout");
    YamlNode typeNode = required(node, "type");
    String type = requireScalar(typeNode).toUpperCase(Locale.ROOT);
    if (!LayoutDefinitions.isInstalled(type)) {
      throw error(typeNode, LayoutDefinitions.unknown(type));
    }
    return LayoutDefinitions.of(type).read(new LayoutSection(this, node, type));
  }

  <E extends Enum<E>> E enumValue(YamlNode node, Class<E> type, E fallback, String what) {
    if (node == null) {
      return fallback;
    }
    String v = requireScalar(node).toUpperCase(Locale.ROOT);
    try {
      return Enum.valueOf(type, v);
    } catch (IllegalArgumentException e) {
      throw error(node, "unknown " + what + " '" + v + "' (expected one of " + names(type.getEnumConstants()) + ")");
    }
  }

  int integer(YamlNode node) {
    String v = requireScalar(node);
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw error(node, "must be a whole number, got '" + v + "'");
    }
  }

  List<String> stringList(YamlNode node) {
    if (node.kind != YamlNode.Kind.SEQUENCE) {
      throw error(node, "must be a list, such as [a, b]");
    }
    List<String> out = new ArrayList<>();
    for (YamlNode item : node.items) {
      out.add(requireScalar(item));
    }
    return out;
  }

  private BoxKind box(YamlNode node) {
    String v = requireScalar(node);
    String name = v.toUpperCase(Locale.ROOT);
    List<String> installed = BoxProviders.installed().stream().map(p -> p.kind().name()).toList();
    if (!installed.contains(name)) {
      throw error(node, "unknown box '" + v + "' (installed: " + String.join(", ", installed) + ")");
    }
    return BoxKind.of(name);
  }

  private ValueType type(YamlNode node) {
    String v = requireScalar(node);
    for (ValueType t : ValueType.values()) {
      if (t.yamlName().equals(v.toLowerCase(Locale.ROOT))) {
        return t;
      }
    }
    throw error(
        node,
        "unknown type '" + v + "' (expected one of "
            + Arrays.stream(ValueType.values()).map(ValueType::yamlName).collect(Collectors.joining(", "))
            + ")");
  }

  void allowOnly(YamlNode node, String... allowed) {
    Set<String> ok = Set.of(allowed);
    for (Map.Entry<String, YamlNode> e : node.fields.entrySet()) {
      if (!ok.contains(e.getKey())) {
        throw error(
            e.getValue(), "unknown key '" + e.getKey() + "' (allowed here: " + String.join(", ", allowed) + ")");
      }
    }
  }

  YamlNode required(YamlNode node, String key) {
    YamlNode child = node.fields.get(key);
    if (child == null) {
      throw error(node, "'" + key + "' is required");
    }
    return child;
  }

  private void requireMapping(YamlNode node, String what) {
    if (node.kind != YamlNode.Kind.MAPPING) {
      throw error(node, what + " must be a mapping of keys to values");
    }
  }

  String requireScalar(YamlNode node) {
    if (node.kind != YamlNode.Kind.SCALAR || node.text.isBlank()) {
      throw error(node, "must be a non-empty single value");
    }
    return node.text.strip();
  }

  InvalidSchemaException error(YamlNode node, String reason) {
    return Location.of(source, node).error(reason);
  }

  private static String names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).collect(Collectors.joining(", "));
  }
}
