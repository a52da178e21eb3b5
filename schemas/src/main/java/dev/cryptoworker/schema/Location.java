package dev.cryptoworker.schema;

/**
 * Where a schema rule points when it refuses something: a key of a YAML document (its source,
 * line and path) or, for a schema made with a builder, only the path the key would have in YAML
 * ({@code families.identification.columns.mainId}).
 */
public final class Location {
  /** The source of schemas made with a builder. */
  static final String BUILT = "<builder>";

  private final String source;
  private final YamlNode node;
  private final int line;
  private final String path;

  private Location(String source, YamlNode node, int line, String path) {
    this.source = source;
    this.node = node;
    this.line = line;
    this.path = path;
  }

  /** The document root of a schema made with a builder. */
  static Location built() {
    return new Location(BUILT, null, 0, "");
  }

  /** A node of a YAML document read from {@code source}. */
  static Location of(String source, YamlNode node) {
    return new Location(source, node, node.line, node.path);
  }

  /** The child {@code key}: its own line if the document has it, else this one's. */
  public Location at(String key) {
    YamlNode child = node == null ? null : node.fields.get(key);
    if (child != null) {
      return of(source, child);
    }
    return new Location(source, null, line, path.isEmpty() ? key : path + "." + key);
  }

  /** The {@code index}th item of a list. */
  public Location item(int index) {
    YamlNode child = node == null || index >= node.items.size() ? null : node.items.get(index);
    return child != null ? of(source, child) : new Location(source, null, line, path + "[" + index + "]");
  }

  String source() {
    return source;
  }

  /** The refusal of what is here, as {@code source:line: path: reason}. */
  public InvalidSchemaException error(String reason) {
    return new InvalidSchemaException(source, line, (path.isEmpty() ? "" : path + ": ") + reason);
  }
}
