package dev.cryptoworker.cli.plan;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of sample queries: SQL statements separated by {@code ;}, with {@code --} comments to the
 * end of a line; or, in a file named {@code *.yaml} or {@code *.yml}, a YAML list of SQL strings.
 * Each query is named by the line its first word (or its list item) is on.
 */
public final class QueryFile {
  private static final YAMLFactory YAML = new YAMLFactory();

  private QueryFile() {}

  /** The queries in {@code file}, as YAML if its name ends in {@code .yaml} or {@code .yml}. */
  public static List<SampleQuery> load(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String name = file.getFileName().toString();
    return name.endsWith(".yaml") || name.endsWith(".yml") ? parseYaml(text, file.toString())
        : parse(text, file.toString());
  }

  /**
   * The queries of a YAML list of strings.
   *
   * @throws InvalidQueryException naming the line of what is not such a list
   */
  public static List<SampleQuery> parseYaml(String text, String source) {
    List<SampleQuery> queries = new ArrayList<>();
    try (JsonParser parser = YAML.createParser(text)) {
      JsonToken token = parser.nextToken();
      if (token != JsonToken.START_ARRAY) {
        throw new InvalidQueryException(source, token == null ? 1 : parser.currentTokenLocation().getLineNr(),
            "a YAML queries file is a list of SQL strings (- SELECT ...)");
      }
      while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
        int line = parser.currentTokenLocation().getLineNr();
        if (token != JsonToken.VALUE_STRING || parser.getText().isBlank()) {
          throw new InvalidQueryException(source, line, "each item is one SQL query, as a string");
        }
        queries.add(new SampleQuery(source, line, parser.getText().strip()));
      }
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new InvalidQueryException(source, line, "not valid YAML: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return queries;
  }

  /** The queries in {@code text}, read from {@code source}. */
  public static List<SampleQuery> parse(String text, String source) {
    List<SampleQuery> queries = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int line = 1;
    int start = 0;
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!quoted && c == '-' && i + 1 < text.length() && text.charAt(i + 1) == '-') {
        while (i < text.length() && text.charAt(i) != '\n') {
          i++;
        }
        c = '\n';
      }
      if (c == '\n') {
        line++;
      }
      if (!quoted && c == ';') {
        add(queries, source, start, current);
        start = 0;
        continue;
      }
      if (c == '\'') {
        quoted = !quoted; // '' inside a string closes and reopens it: the same text
      }
      if (start == 0 && !Character.isWhitespace(c)) {
        start = line;
      }
      current.append(c);
    }
    add(queries, source, start, current);
    return queries;
  }

  private static void add(List<SampleQuery> queries, String source, int line, StringBuilder text) {
    if (!text.toString().isBlank()) {
      queries.add(new SampleQuery(source, line, text.toString().strip()));
    }
    text.setLength(0);
  }
}
