package dev.cryptoworker.cli.plan;

import java.util.Objects;

/**
 * One sample query of a queries file.
 *
 * @param source the file it was read from
 * @param line the line its text starts on
 * @param sql its text
 */
public record SampleQuery(String source, int line, String sql) {
  public SampleQuery {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sql, "sql");
  }

  /** {@code source:line}, as notes and messages name the query. */
  public String where() {
    return source + ":" + line;
  }

  /** Its text on one line, white space collapsed. */
  public String oneLine() {
    return sql.strip().replaceAll("\\s+", " ");
  }
}
