package dev.cryptoworker.searchindex.spi;

import org.apache.hadoop.hbase.client.Connection;

/**
 * The keyless entry index that searchable boxes keep (kinds whose {@code BoxTraits#searchIndex()}
 * is true, boxes with {@code IndexedSearch}): index cells beside their values, per-value entry
 * counters, the planning of index searches and the check of the rows they return.
 *
 * <p>Found through {@link java.util.ServiceLoader}, by the client's class loader and the current
 * thread's context class loader: a module lists its provider in {@code
 * META-INF/services/dev.cryptoworker.searchindex.spi.SearchIndexProvider}, one line
 * ({@code cryptoworker-search-index} does). A table with a
 * column that keeps a search index opens only when one is installed; the first found is used.
 * Implementations are stateless and thread-safe.
 */
public interface SearchIndexProvider {

  /**
   * The index of one connection's tables (their entry counters, in {@code counters}), created once
   * per {@code SecureConnection}.
   */
  SearchIndex open(Connection connection, CounterTable counters);

  /**
   * An index for codecs that only read and never write or search searchable columns (tests,
   * tools): it stores and decodes index cells like {@link #open}'s, but every write and search of a
   * searchable column fails, naming {@code table}.
   */
  SearchIndex unavailable(String table);
}
