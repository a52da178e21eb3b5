package dev.cryptoworker.cli.plan;

/** A sample query the planner cannot read: malformed SQL, an unknown table or column. */
public final class InvalidQueryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** {@code query.where(): reason}. */
  public InvalidQueryException(SampleQuery query, String reason) {
    super(query.where() + ": " + reason);
  }

  /** {@code source:line: reason}, for a queries file that holds no readable query there. */
  public InvalidQueryException(String source, int line, String reason) {
    super(source + ":" + line + ": " + reason);
  }
}
