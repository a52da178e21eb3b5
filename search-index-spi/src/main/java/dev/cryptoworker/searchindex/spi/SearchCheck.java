package dev.cryptoworker.searchindex.spi;

import java.io.IOException;
import org.apache.hadoop.hbase.client.Result;

/**
 * What an index search asked, checked on each decrypted row the servers return: index cells are
 * not bound to their rows, so the rows are checked, not trusted.
 */
public interface SearchCheck {

  /** Reads the current decrypted value of one column of one row, or null if the row has none. */
  @FunctionalInterface
  interface ColumnReader {
    byte[] read(byte[] row, byte[] family, byte[] qualifier) throws IOException;
  }

  /** The kinds of the searched columns, as plans name them. */
  String kinds();

  /** Whether decoded {@code row} holds what the search asked; columns it lacks are read through {@code reader}. */
  boolean holds(Result row, ColumnReader reader) throws IOException;
}
