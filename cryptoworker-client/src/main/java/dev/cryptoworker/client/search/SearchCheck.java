package dev.cryptoworker.client.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;

/**
 * What an index search asked, checked on each decrypted row the servers return: for every clause,
 * the row's current value of one searched column equals the searched value. The index cells that
 * select rows are not bound to their rows (a server can copy one into another row), so the rows
 * are checked, not trusted; a row without the column in hand (the caller's columns or filter left
 * it out) is checked by reading the column.
 */
public final class SearchCheck {
  /** One searched equality: column and plaintext value. */
  public record Equality(byte[] family, byte[] qualifier, byte[] value) {
    public Equality {
      Objects.requireNonNull(family, "family");
      Objects.requireNonNull(qualifier, "qualifier");
      Objects.requireNonNull(value, "value");
    }
  }

  /** Reads the current decrypted value of one column of one row, or null if the row has none. */
  @FunctionalInterface
  public interface ColumnReader {
    byte[] read(byte[] row, byte[] family, byte[] qualifier) throws IOException;
  }

  private final List<List<Equality>> clauses;

  /** A check of {@code clauses}: all of them hold, each when one of its equalities does. */
  public SearchCheck(List<List<Equality>> clauses) {
    this.clauses = clauses.stream().map(List::copyOf).toList();
  }

  /** Whether decoded {@code row} holds every clause; columns it lacks are read through {@code reader}. */
  public boolean holds(Result row, ColumnReader reader) throws IOException {
    for (List<Equality> clause : clauses) {
      if (!holdsOne(row, clause, reader)) {
        return false;
      }
    }
    return true;
  }

  private static boolean holdsOne(Result row, List<Equality> clause, ColumnReader reader) throws IOException {
    for (Equality e : clause) {
      Cell latest = row.getColumnLatestCell(e.family(), e.qualifier());
      byte[] current = latest != null ? CellUtil.cloneValue(latest) : reader.read(row.getRow(), e.family(), e.qualifier());
      if (current != null && Arrays.equals(current, e.value())) {
        return true;
      }
    }
    return false;
  }
}
