package dev.cryptoworker.searchindex.spi;

import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.schema.ColumnPolicy;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** What an entry index ({@link SearchIndex}) needs of one table's codec: its columns' boxes and stored names. */
public interface SearchableTable {

  /** The logical table's name. */
  String table();

  /** A column as messages name it (protected names stay hidden). */
  String describeColumn(byte[] family, byte[] qualifier) throws IOException;

  /** The column's policy. */
  ColumnPolicy policy(byte[] family, byte[] qualifier) throws IOException;

  /** The stored qualifier of a column. */
  byte[] encodeQualifier(byte[] family, byte[] qualifier) throws IOException;

  /** Whether the column is found through the entry index (its box has {@link IndexedSearch}). */
  boolean isSearchable(byte[] family, byte[] qualifier) throws IOException;

  /** The index search of a searchable column's box. */
  IndexedSearch indexedSearch(byte[] family, byte[] qualifier) throws IOException;

  /** The index a new entry of {@code value} in a searchable column goes under. */
  ValueIndex writeIndex(byte[] family, byte[] qualifier, byte[] value) throws IOException;

  /**
   * The exception that refuses an operation on a column, naming table, column and {@code reason}
   * (the client's {@code UnsupportedSecureOperationException}).
   */
  IOException refusal(byte[] family, byte[] qualifier, String reason) throws IOException;

  /** The indexes a search of a searchable column for {@code condition} covers, if its box answers it. */
  Optional<List<ValueIndex>> searchIndexes(byte[] family, byte[] qualifier, ValueCondition condition) throws IOException;
}
