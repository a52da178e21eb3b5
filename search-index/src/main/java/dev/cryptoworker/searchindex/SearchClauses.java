package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.searchindex.spi.SearchCheck;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;

/**
 * What an index search asked, checked on each decrypted row the servers return: for every clause,
 * the row's current value of one searched column satisfies its condition, as the column's box
 * judges ({@link IndexedSearch#satisfies}). The index cells that select rows are not bound to their
 * rows (a server can copy one into another row), so the rows are checked, not trusted; a row
 * without the column in hand (the caller's columns or filter left it out) is checked by reading
 * the column.
 */
final class SearchClauses implements SearchCheck {
  /** One searched condition: column, condition, the box that judges it, and its kind's name (for plans). */
  record Term(byte[] family, byte[] qualifier, ValueCondition condition, IndexedSearch box, String kind) {
    public Term {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(family, "family");
      Objects.requireNonNull(qualifier, "qualifier");
      Objects.requireNonNull(condition, "condition");
      Objects.requireNonNull(box, "box");
    }
  }

  private final List<List<Term>> clauses;

  /** A check of {@code clauses}: all of them hold, each when one of its terms does. */
  SearchClauses(List<List<Term>> clauses) {
    this.clauses = clauses.stream().map(List::copyOf).toList();
  }

  /** The kinds of the searched columns, as plans name them (such as {@code SSE+FOLDED}). */
  @Override
  public String kinds() {
    return clauses.stream().flatMap(List::stream).map(Term::kind).distinct().collect(Collectors.joining("+"));
  }

  /** Whether decoded {@code row} holds every clause; columns it lacks are read through {@code reader}. */
  @Override
  public boolean holds(Result row, ColumnReader reader) throws IOException {
    for (List<Term> clause : clauses) {
      if (!holdsOne(row, clause, reader)) {
        return false;
      }
    }
    return true;
  }

  private static boolean holdsOne(Result row, List<Term> clause, ColumnReader reader) throws IOException {
    for (Term t : clause) {
      Cell latest = row.getColumnLatestCell(t.family(), t.qualifier());
      byte[] current = latest != null ? CellUtil.cloneValue(latest) : reader.read(row.getRow(), t.family(), t.qualifier());
      if (current != null && t.box().satisfies(t.condition(), current)) {
        return true;
      }
    }
    return false;
  }
}
