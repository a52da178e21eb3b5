package dev.cryptoworker.cli.plan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of sample queries: SQL statements separated by {@code ;}, with {@code --} comments to the
 * end of a line. Each query is named by the line its first word is on.
 */
public final class QueryFile {
  private QueryFile() {}

  /** The queries in {@code file}. */
  public static List<SampleQuery> load(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
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
