package dev.cryptoworker.schema;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML document as a tree that remembers the line of every key, so schema errors can point at
 * the line (a Jackson {@code JsonNode} tree forgets locations).
 */
final class YamlNode {
  enum Kind {
    MAPPING,
    SEQUENCE,
    SCALAR,
    NULL
  }

  private static final YAMLFactory YAML = new YAMLFactory();

  final Kind kind;
  final int line;
  final String path;
  final String text;
  final Map<String, YamlNode> fields;
  final List<YamlNode> items;

  private YamlNode(
      Kind kind, int line, String path, String text, Map<String, YamlNode> fields, List<YamlNode> items) {
    this.kind = kind;
    this.line = line;
    this.path = path;
    this.text = text;
    this.fields = fields;
    this.items = items;
  }

  static YamlNode parse(String yaml, String source) {
    try (JsonParser parser = YAML.createParser(yaml)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new InvalidSchemaException(source, 0, "the schema is empty");
      }
      YamlNode root = read(parser, "", source, parser.currentTokenLocation().getLineNr());
      if (parser.nextToken() != null) {
        throw new InvalidSchemaException(
            source, parser.currentTokenLocation().getLineNr(), "more than one YAML document");
      }
      return root;
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new InvalidSchemaException(source, line, "not valid YAML: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InvalidSchemaException(source, 0, "cannot read YAML: " + e.getMessage());
    }
  }

  private static YamlNode read(JsonParser parser, String path, String source, int line)
      throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT:
        {
          Map<String, YamlNode> fields = new LinkedHashMap<>();
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            int keyLine = parser.currentTokenLocation().getLineNr();
            String childPath = path.isEmpty() ? name : path + "." + name;
            if (fields.containsKey(name)) {
              throw new InvalidSchemaException(source, keyLine, childPath + ": duplicate key");
            }
            parser.nextToken();
            fields.put(name, read(parser, childPath, source, keyLine));
          }
          return new YamlNode(Kind.MAPPING, line, path, null, Collections.unmodifiableMap(fields), List.of());
        }
      case START_ARRAY:
        {
          List<YamlNode> items = new ArrayList<>();
          int i = 0;
          while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(
                read(parser, path + "[" + i++ + "]", source, parser.currentTokenLocation().getLineNr()));
          }
          return new YamlNode(Kind.SEQUENCE, line, path, null, Map.of(), List.copyOf(items));
        }
      case VALUE_NULL:
        return new YamlNode(Kind.NULL, line, path, null, Map.of(), List.of());
      default:
        return new YamlNode(Kind.SCALAR, line, path, parser.getText(), Map.of(), List.of());
    }
  }
}
