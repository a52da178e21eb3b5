package dev.cryptoworker.searchindex;

import dev.cryptoworker.searchindex.spi.CounterTable;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import dev.cryptoworker.searchindex.spi.SearchIndexProvider;
import org.apache.hadoop.hbase.client.Connection;

/** The keyless entry index, per-value counters in the counter table ({@link SearchCounters}). */
public final class EntryIndexProvider implements SearchIndexProvider {

  @Override
  public SearchIndex open(Connection connection, CounterTable counters) {
    return new EntryIndex(new SearchCounters(connection, counters));
  }

  @Override
  public SearchIndex unavailable(String table) {
    return new EntryIndex(SearchCounters.unavailable(table));
  }
}
