package dev.cryptoworker.schema;

/**
 * A schema was refused. The message reads {@code source:line: path: reason}, and for a family's
 * key in a YAML document {@code source:line: table name, path: reason}, for example {@code
 * patients.yaml:7: table patients, families.identification.columns.mainId.box: unknown box 'DETT'
 * (expected one of PLAIN, STD, DET, OPE, ASHE, SSE, SPLASHE)}.
 */
public final class InvalidSchemaException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final int line;
  private final String reason;

  InvalidSchemaException(String source, int line, String reason) {
    super(source + (line > 0 ? ":" + line : "") + ": " + reason);
    this.source = source;
    this.line = line;
    this.reason = reason;
  }

  /** This refusal, within table {@code table}: its reason starts {@code table <table>, }. */
  InvalidSchemaException inTable(String table) {
    InvalidSchemaException out = new InvalidSchemaException(source, line, "table " + table + ", " + reason);
    out.setStackTrace(getStackTrace());
    return out;
  }

  /** The file name or other source the schema came from. */
  public String source() {
    return source;
  }

  /** The 1-based line the problem is on, or 0 if it concerns the whole document. */
  public int line() {
    return line;
  }

  /** What is wrong, with the path of the offending key. */
  public String reason() {
    return reason;
  }
}
