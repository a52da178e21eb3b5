package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.ServiceProviders;
import dev.cryptoworker.searchindex.spi.CounterTable;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import dev.cryptoworker.searchindex.spi.SearchIndexProvider;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The installed {@link SearchIndexProvider}, if any: the first found by the client's class loader,
 * then by the current thread's context class loader (where plug-ins added at run time live).
 */
public final class SearchIndexes {
  /** The module that provides the entry index, as messages name it. */
  static final String MODULE = "dev.cryptoworker:cryptoworker-search-index";

  private SearchIndexes() {}

  private static SearchIndexProvider installed() {
    List<SearchIndexProvider> found = ServiceProviders.load(SearchIndexProvider.class, SearchIndexes.class);
    return found.isEmpty() ? null : found.get(0);
  }

  /** The index of one connection's tables, or null if no provider is installed. */
  public static SearchIndex open(Connection connection) {
    SearchIndexProvider provider = installed();
    return provider == null ? null : provider.open(connection, new CounterTable(HBaseIdentifierSource.TABLE,
        HBaseIdentifierSource.FAMILY, RegionSupport.REGION_OBSERVER));
  }

  /** An index that neither writes nor searches ({@link SearchIndexProvider#unavailable}), or null if none is installed. */
  public static SearchIndex unavailable(String table) {
    SearchIndexProvider provider = installed();
    return provider == null ? null : provider.unavailable(table);
  }
}
