package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.searchindex.spi.FamilyCells;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import dev.cryptoworker.searchindex.spi.SearchableTable;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.filter.Filter;

/**
 * One connection's entry index: index cells beside searchable values ({@link IndexedColumns}),
 * entries numbered by the connection's {@link SearchCounters}, searches planned from filters
 * ({@link IndexSearchPlanner}).
 */
final class EntryIndex implements SearchIndex {
  private final SearchCounters counters;

  EntryIndex(SearchCounters counters) {
    this.counters = counters;
  }

  @Override
  public FamilyCells expansion(SearchableTable table, FamilyCells values) {
    return new IndexedColumns(table, values, counters);
  }

  @Override
  public Optional<IndexSearch> plan(SearchableTable table, Filter filter) throws IOException {
    return new IndexSearchPlanner(table, counters).plan(filter);
  }

  @Override
  public void takeAhead(Map<Cell, ValueIndex> indexes) throws IOException {
    counters.takeAhead(indexes);
  }

  @Override
  public void releaseTaken() throws IOException {
    counters.releaseTaken();
  }

  @Override
  public CompletableFuture<Void> releaseTakenLater() {
    return counters.releaseTakenLater();
  }
}
