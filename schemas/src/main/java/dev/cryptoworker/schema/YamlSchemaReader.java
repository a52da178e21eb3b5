package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.util.ArrayList;
import java.util.Arrays;
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
  /** MiniCrypt's packs of 50 rows reached most of the whole-dataset compression ratio. */
  static final int DEFAULT_ROWS_PER_PACK = 50;
  static final int MAX_ROWS_PER_PACK = 10_000;

  private final String source;

  YamlSchemaReader(String source) {
    this.source = source;
  }

  TableSchema read(YamlNode root) {
    requireMapping(root, "the schema");
    allowOnly(root, "table", "rowKey", "families", "description", "storedFormat", "layout");
    TableSchema.Builder table = TableSchema.builder(requireScalar(required(root, "table")));
    ifPresent(root, "rowKey", n -> table.rowKey(policy(n)));
    ifPresent(root, "storedFormat", n -> table.storedFormat(storedFormat(n)));
    ifPresent(root, "layout", n -> table.layout(layout(n)));
    YamlNode familiesNode = required(root, "families");
    requireMapping(familiesNode, "families");
    for (Map.Entry<String, YamlNode> e : familiesNode.fields.entrySet()) {
      table.family(family(e.getKey(), e.getValue()));
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
        family.column(c.getKey(), policy(c.getValue()));
      }
    });
    return family.build(Location.of(source, node));
  }

  private ColumnPolicy policy(YamlNode node) {
    requireMapping(node, "a protection policy");
    allowOnly(node, "box", "type", "companion", "values", "splays");
    ColumnPolicy.Builder policy = ColumnPolicy.builder(box(required(node, "box")));
    ifPresent(node, "type", n -> policy.type(type(n)));
    ifPresent(node, "companion", n -> policy.companion(box(n)));
    ifPresent(node, "values", n -> policy.values(stringList(n)));
    ifPresent(node, "splays", n -> policy.splays(stringList(n)));
    return policy.build();
  }

  /** Reads the child {@code key} of a mapping with {@code read}, if the mapping has it. */
  private static void ifPresent(YamlNode node, String key, Consumer<YamlNode> read) {
    YamlNode child = node.fields.get(key);
    if (child != null) {
      read.accept(child);
    }
  }

  private boolean bool(YamlNode node) {
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
      throw error(node, "unknown storedFormat '" + v + "' (expected 1 or 2)");
    }
  }

  private TableLayout layout(YamlNode node) {
    requireMapping(node, "a layout");
    YamlNode typeNode = required(node, "type");
    String type = requireScalar(typeNode).toUpperCase(Locale.ROOT);
    switch (type) {
      case "CELL" -> {
        allowOnly(node, "type", "cluster");
        YamlNode cluster = node.fields.get("cluster");
        return new TableLayout.Cell(cluster == null ? TableLayout.DEFAULT_CLUSTER : requireScalar(cluster));
      }
      case "SHARED" -> {
        allowOnly(node, "type", "scheme", "n", "r", "z", "clusters");
        YamlNode schemeNode = required(node, "scheme");
        String scheme = requireScalar(schemeNode).toUpperCase(Locale.ROOT);
        SharingKind kind;
        try {
          kind = SharingKind.valueOf(scheme);
        } catch (IllegalArgumentException e) {
          throw error(schemeNode, "unknown scheme '" + scheme + "' (expected one of " + names(SharingKind.values()) + ")");
        }
        SharingParameters parameters;
        try {
          parameters = new SharingParameters(integer(required(node, "n")), integer(required(node, "r")),
              integer(required(node, "z")));
        } catch (IllegalArgumentException e) {
          throw error(node, e.getMessage());
        }
        return new TableLayout.Shared(kind, parameters, stringList(required(node, "clusters")));
      }
      case "PACKED" -> {
        allowOnly(node, "type", "mode", "rowsPerPack", "compression", "dictionary", "padding", "cluster",
            "epochMillis", "leaseMillis");
        PackMode mode = enumValue(node.fields.get("mode"), PackMode.class, PackMode.GENERIC, "mode");
        long epochMillis = appendMillis(node, mode, "epochMillis", TableLayout.Packed.DEFAULT_EPOCH_MILLIS, 86_400_000);
        long leaseMillis = appendMillis(node, mode, "leaseMillis", TableLayout.Packed.DEFAULT_LEASE_MILLIS, 600_000);
        YamlNode rowsNode = node.fields.get("rowsPerPack");
        int rowsPerPack = rowsNode == null ? DEFAULT_ROWS_PER_PACK : integer(rowsNode);
        if (rowsPerPack < 1 || rowsPerPack > MAX_ROWS_PER_PACK) {
          throw error(rowsNode, "rowsPerPack must be between 1 and " + MAX_ROWS_PER_PACK + ", got " + rowsPerPack);
        }
        YamlNode compressionNode = node.fields.get("compression");
        PackCompression compression = enumValue(compressionNode, PackCompression.class, PackCompression.ZSTD,
            "compression");
        YamlNode dictionaryNode = node.fields.get("dictionary");
        boolean dictionary = dictionaryNode != null && bool(dictionaryNode);
        if (dictionary && !compression.supportsDictionaries()) {
          throw error(dictionaryNode, compression + " has no dictionaries (ZSTD and DEFLATE have)");
        }
        List<Integer> padding = new ArrayList<>();
        YamlNode paddingNode = node.fields.get("padding");
        if (paddingNode != null) {
          if (paddingNode.kind != YamlNode.Kind.SEQUENCE) {
            throw error(paddingNode, "must be a list of ascending sizes in bytes, such as [1024, 4096, 16384]");
          }
          for (YamlNode item : paddingNode.items) {
            int tier = integer(item);
            if (tier <= 0 || !padding.isEmpty() && tier <= padding.get(padding.size() - 1)) {
              throw error(item, "padding tiers must be positive and ascending, got " + tier + " after " + padding);
            }
            padding.add(tier);
          }
        }
        YamlNode cluster = node.fields.get("cluster");
        return new TableLayout.Packed(mode, rowsPerPack, compression, dictionary, padding,
            cluster == null ? TableLayout.DEFAULT_CLUSTER : requireScalar(cluster), epochMillis, leaseMillis);
      }
      default -> throw error(typeNode, "unknown layout type '" + type + "' (expected CELL, SHARED or PACKED)");
    }
  }

  /** An APPEND-mode duration in milliseconds, between 100 and {@code max}; refused under GENERIC. */
  private long appendMillis(YamlNode layout, PackMode mode, String field, long fallback, long max) {
    YamlNode node = layout.fields.get(field);
    if (node == null) {
      return fallback;
    }
    if (mode != PackMode.APPEND) {
      throw error(node, field + " applies to mode APPEND only (this table is " + mode + ")");
    }
    long millis = integer(node);
    if (millis < 100 || millis > max) {
      throw error(node, field + " must be between 100 and " + max + " milliseconds, got " + millis);
    }
    return millis;
  }

  private <E extends Enum<E>> E enumValue(YamlNode node, Class<E> type, E fallback, String what) {
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

  private int integer(YamlNode node) {
    String v = requireScalar(node);
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw error(node, "must be a whole number, got '" + v + "'");
    }
  }

  private List<String> stringList(YamlNode node) {
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
            e.getValue(), "unknown key '" + e.getKey() + "' (allowed here: " + String.join(", ", allowed) + ")");
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
    return Location.of(source, node).error(reason);
  }

  private static String names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).collect(Collectors.joining(", "));
  }
}
