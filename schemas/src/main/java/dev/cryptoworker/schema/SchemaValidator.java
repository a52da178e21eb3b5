package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Every rule a schema must satisfy, in one place; turns a located YAML tree into a schema. */
final class SchemaValidator {
  private static final Pattern TABLE_NAME =
      Pattern.compile("([A-Za-z0-9_]+:)?[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Pattern FAMILY_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Set<BoxKind> ROW_KEY_BOXES =
      Set.of(BoxKind.PLAIN, BoxKind.STD, BoxKind.DET, BoxKind.OPE);

  private final String source;

  SchemaValidator(String source) {
    this.source = source;
  }

  TableSchema validate(YamlNode root) {
    requireMapping(root, "the schema");
    allowOnly(root, "table", "rowKey", "families", "description");
    String table = requireScalar(required(root, "table"));
    if (!TABLE_NAME.matcher(table).matches()) {
      throw error(root.fields.get("table"), "'" + table + "' is not a valid HBase table name");
    }
    YamlNode rowKeyNode = root.fields.get("rowKey");
    if (rowKeyNode == null) {
      throw error(root, "rowKey is required (write rowKey: { box: PLAIN } for unprotected keys)");
    }
    ColumnPolicy rowKey = policy(rowKeyNode);
    if (!ROW_KEY_BOXES.contains(rowKey.box())) {
      throw error(rowKeyNode, "a row key cannot use box " + rowKey.box() + " (allowed: PLAIN, STD, DET, OPE)");
    }
    if (rowKey.companion().isPresent()) {
      throw error(rowKeyNode, "a row key cannot have a companion");
    }
    if (rowKey.box() == BoxKind.OPE && rowKey.type() == ValueType.DATE) {
      throw error(rowKeyNode, "an OPE row key cannot have type date (its text form would be lost);"
          + " store epoch milliseconds with type long, or ISO text with type string");
    }
    YamlNode familiesNode = required(root, "families");
    requireMapping(familiesNode, "families");
    if (familiesNode.fields.isEmpty()) {
      throw error(familiesNode, "at least one family is required");
    }
    Map<String, FamilySchema> families = new LinkedHashMap<>();
    for (Map.Entry<String, YamlNode> e : familiesNode.fields.entrySet()) {
      if (!FAMILY_NAME.matcher(e.getKey()).matches()) {
        throw error(e.getValue(), "'" + e.getKey() + "' is not a valid column family name");
      }
      families.put(e.getKey(), family(e.getKey(), e.getValue()));
    }
    return new TableSchema(table, rowKey, families, source);
  }

  private FamilySchema family(String name, YamlNode node) {
    requireMapping(node, "a family");
    allowOnly(node, "default", "columns", "protectQualifiers");
    YamlNode defaultNode = node.fields.get("default");
    if (defaultNode == null) {
      throw error(node, "'default' is required (the policy of qualifiers not listed under columns)");
    }
    ColumnPolicy defaultPolicy = policy(defaultNode);
    if (defaultPolicy.box() == BoxKind.SPLASHE) {
      throw error(defaultNode, "SPLASHE applies to one named dimension column, not to a family default");
    }
    boolean protectQualifiers = false;
    YamlNode pq = node.fields.get("protectQualifiers");
    if (pq != null) {
      String v = requireScalar(pq);
      if (!v.equals("true") && !v.equals("false")) {
        throw error(pq, "must be true or false, got '" + v + "'");
      }
      protectQualifiers = Boolean.parseBoolean(v);
    }
    Map<String, ColumnPolicy> columns = new LinkedHashMap<>();
    YamlNode columnsNode = node.fields.get("columns");
    if (columnsNode != null) {
      requireMapping(columnsNode, "columns");
      for (Map.Entry<String, YamlNode> c : columnsNode.fields.entrySet()) {
        if (c.getKey().isEmpty()) {
          throw error(c.getValue(), "a qualifier name must not be empty");
        }
        if (c.getKey().indexOf('\0') >= 0) {
          throw error(c.getValue(), "a qualifier name must not contain NUL (reserved for SPLASHE columns)");
        }
        columns.put(c.getKey(), policy(c.getValue()));
      }
      checkSplays(columnsNode, columns, protectQualifiers);
    }
    return new FamilySchema(name, defaultPolicy, columns, protectQualifiers);
  }

  /** Every SPLASHE dimension splays ASHE columns of its family, each measure at most once. */
  private void checkSplays(YamlNode columnsNode, Map<String, ColumnPolicy> columns, boolean protectQualifiers) {
    Map<String, String> splayedBy = new LinkedHashMap<>();
    for (Map.Entry<String, ColumnPolicy> c : columns.entrySet()) {
      if (c.getValue().box() != BoxKind.SPLASHE) {
        continue;
      }
      YamlNode node = columnsNode.fields.get(c.getKey());
      if (protectQualifiers) {
        throw error(node, "SPLASHE cannot be combined with protectQualifiers in the same family");
      }
      for (String measure : c.getValue().splays()) {
        ColumnPolicy m = columns.get(measure);
        if (m == null || m.box() != BoxKind.ASHE) {
          throw error(node, "splays: '" + measure + "' must be an ASHE column listed in the same family");
        }
        String previous = splayedBy.put(measure, c.getKey());
        if (previous != null) {
          throw error(node, "splays: '" + measure + "' is already splayed by '" + previous + "'");
        }
      }
    }
  }

  private ColumnPolicy policy(YamlNode node) {
    requireMapping(node, "a protection policy");
    allowOnly(node, "box", "type", "companion", "values", "splays");
    YamlNode boxNode = required(node, "box");
    BoxKind box = box(boxNode);
    ValueType type = ValueType.BYTES;
    YamlNode typeNode = node.fields.get("type");
    if (typeNode != null) {
      type = type(typeNode);
    }
    BoxKind companion = null;
    YamlNode companionNode = node.fields.get("companion");
    if (companionNode != null) {
      companion = box(companionNode);
      if (box != BoxKind.OPE) {
        throw error(companionNode, "a companion copy is only meaningful for OPE columns, not " + box);
      }
      if (companion != BoxKind.STD) {
        throw error(companionNode, "the companion must be STD, got " + companion);
      }
    }
    if (box == BoxKind.OPE && type == ValueType.DATE && companion == null && !isRowKey(node)) {
      throw error(node, "OPE on type date needs companion: STD (the order key, the instant, does not"
          + " keep the text's form; the authenticated companion does)");
    }
    if (box == BoxKind.ASHE && type != ValueType.LONG && type != ValueType.INT) {
      throw error(node, "ASHE sums numbers: type must be long or int, got " + type.yamlName());
    }
    YamlNode valuesNode = node.fields.get("values");
    YamlNode splaysNode = node.fields.get("splays");
    if (box != BoxKind.SPLASHE) {
      if (valuesNode != null || splaysNode != null) {
        throw error(valuesNode != null ? valuesNode : splaysNode, "values and splays belong to SPLASHE columns only");
      }
      return new ColumnPolicy(box, type, companion);
    }
    if (isRowKey(node)) {
      throw error(node, "a row key cannot use box SPLASHE");
    }
    if (valuesNode == null || splaysNode == null) {
      throw error(node, "a SPLASHE column needs values (its possible values) and splays (the ASHE columns it filters)");
    }
    List<String> values = stringList(valuesNode);
    if (values.size() < 2 || new java.util.HashSet<>(values).size() != values.size()) {
      throw error(valuesNode, "needs at least two distinct values");
    }
    for (String v : values) {
      if (v.indexOf('\0') >= 0) {
        throw error(valuesNode, "a value must not contain NUL");
      }
    }
    List<String> splays = stringList(splaysNode);
    if (splays.isEmpty()) {
      throw error(splaysNode, "needs at least one ASHE column to splay");
    }
    return new ColumnPolicy(box, ValueType.STRING, null, values, splays);
  }

  private static boolean isRowKey(YamlNode node) {
    return node.path.equals("rowKey");
  }

  private List<String> stringList(YamlNode node) {
    if (node.kind != YamlNode.Kind.SEQUENCE) {
      throw error(node, "must be a list, such as [a, b]");
    }
    List<String> out = new java.util.ArrayList<>();
    for (YamlNode item : node.items) {
      out.add(requireScalar(item));
    }
    return out;
  }

  private BoxKind box(YamlNode node) {
    String v = requireScalar(node);
    try {
      return BoxKind.valueOf(v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw error(node, "unknown box '" + v + "' (expected one of " + names(BoxKind.values()) + ")");
    }
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

  private void allowOnly(YamlNode node, String... allowed) {
    Set<String> ok = Set.of(allowed);
    for (Map.Entry<String, YamlNode> e : node.fields.entrySet()) {
      if (!ok.contains(e.getKey())) {
        throw error(
            e.getValue(),
            "unknown key '" + e.getKey() + "' (allowed here: " + String.join(", ", allowed) + ")",
            pathOf(node, e.getKey()));
      }
    }
  }

  private YamlNode required(YamlNode node, String key) {
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

  private String requireScalar(YamlNode node) {
    if (node.kind != YamlNode.Kind.SCALAR || node.text.isBlank()) {
      throw error(node, "must be a non-empty single value");
    }
    return node.text.strip();
  }

  private InvalidSchemaException error(YamlNode node, String reason) {
    return error(node, reason, node.path);
  }

  private InvalidSchemaException error(YamlNode node, String reason, String path) {
    return new InvalidSchemaException(source, node.line, (path.isEmpty() ? "" : path + ": ") + reason);
  }

  private static String pathOf(YamlNode parent, String key) {
    return parent.path.isEmpty() ? key : parent.path + "." + key;
  }

  private static String names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).collect(Collectors.joining(", "));
  }
}
