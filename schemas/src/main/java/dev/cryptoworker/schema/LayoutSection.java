package dev.cryptoworker.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * A schema's {@code layout:} section as its {@link LayoutDefinition} reads it: typed values by key,
 * each refused with the source, line and reason when malformed.
 */
public final class LayoutSection {
  private final YamlSchemaReader reader;
  private final YamlNode node;
  private final String type;

  LayoutSection(YamlSchemaReader reader, YamlNode node, String type) {
    this.reader = reader;
    this.node = node;
    this.type = type;
  }

  /** The section's {@code type}, upper case. */
  public String type() {
    return type;
  }

  /** Refuses any key but {@code type} and {@code allowed}. */
  public void allowOnly(String... allowed) {
    String[] all = new String[allowed.length + 1];
    all[0] = "type";
    System.arraycopy(allowed, 0, all, 1, allowed.length);
    reader.allowOnly(node, all);
  }

  /** Whether the section has {@code key}. */
  public boolean has(String key) {
    return node.fields.containsKey(key);
  }

  /** Whether the section's {@code key} is a list. */
  public boolean isList(String key) {
    YamlNode value = node.fields.get(key);
    return value != null && value.kind == YamlNode.Kind.SEQUENCE;
  }

  /** A single value, or {@code fallback} if absent. */
  public String string(String key, String fallback) {
    YamlNode value = node.fields.get(key);
    return value == null ? fallback : reader.requireScalar(value);
  }

  /** A single value that must be there. */
  public String requiredString(String key) {
    return reader.requireScalar(reader.required(node, key));
  }

  /** A whole number, or {@code fallback} if absent. */
  public int integer(String key, int fallback) {
    YamlNode value = node.fields.get(key);
    return value == null ? fallback : reader.integer(value);
  }

  /** A whole number that must be there. */
  public int requiredInteger(String key) {
    return reader.integer(reader.required(node, key));
  }

  /** {@code true} or {@code false}, or {@code fallback} if absent. */
  public boolean bool(String key, boolean fallback) {
    YamlNode value = node.fields.get(key);
    return value == null ? fallback : reader.bool(value);
  }

  /** A constant of {@code enumType} by name (any case), or {@code fallback} if absent. */
  public <E extends Enum<E>> E enumValue(String key, Class<E> enumType, E fallback) {
    return reader.enumValue(node.fields.get(key), enumType, fallback, key);
  }

  /** A list of single values that must be there. */
  public List<String> stringList(String key) {
    return reader.stringList(reader.required(node, key));
  }

  /** A list of whole numbers, empty if absent. */
  public List<Integer> integerList(String key, String example) {
    YamlNode value = node.fields.get(key);
    if (value == null) {
      return List.of();
    }
    if (value.kind != YamlNode.Kind.SEQUENCE) {
      throw reader.error(value, "must be a list, such as " + example);
    }
    List<Integer> out = new ArrayList<>();
    for (YamlNode item : value.items) {
      out.add(reader.integer(item));
    }
    return out;
  }

  /** The refusal of {@code key}'s value (of the section if absent), at its line. */
  public InvalidSchemaException error(String key, String reason) {
    return reader.error(node.fields.getOrDefault(key, node), reason);
  }

  /** The refusal of item {@code index} of list {@code key}, at its line. */
  public InvalidSchemaException itemError(String key, int index, String reason) {
    YamlNode list = node.fields.get(key);
    YamlNode item = list == null || index >= list.items.size() ? node : list.items.get(index);
    return reader.error(item, reason);
  }
}
