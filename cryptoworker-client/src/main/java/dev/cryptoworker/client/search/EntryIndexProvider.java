package dev.cryptoworker.client.search;

import dev.cryptoworker.client.spi.SearchIndex;
import dev.cryptoworker.client.spi.SearchIndexProvider;
import org.apache.hadoop.hbase.client.Connection;

/** The keyless entry index, per-value counters in the counter table ({@link SearchCounters}). */
public final class EntryIndexProvider implements SearchIndexProvider {

  @Override
  public SearchIndex open(Connection connection) {
    return new EntryIndex(new SearchCounters(connection));
  }

  @Override
  public SearchIndex unavailable(String table) {
    return new EntryIndex(SearchCounters.unavailable(table));
  }
}
