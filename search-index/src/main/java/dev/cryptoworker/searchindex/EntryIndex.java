package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.searchindex.spi.FamilyCells;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import dev.cryptoworker.searchindex.spi.SearchableTable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
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
  public boolean isReadBackAfterLoad(Cell stored) {
    return SearchIndexCells.isIndexCell(stored.getQualifierArray(), stored.getQualifierOffset(),
        stored.getQualifierLength(), stored.getValueLength());
  }

  @Override
  public void takeAhead(Map<Cell, ValueIndex> indexes) throws IOException {
    counters.takeAhead(indexes);
  }

  @Override
  public void takeAheadForBulkLoad(Map<Cell, ValueIndex> indexes) throws IOException {
    counters.takeAheadForBulkLoad(indexes);
  }

  @Override
  public List<Put> releaseTakenForBulkLoad() {
    return counters.releaseTakenForBulkLoad();
  }

  @Override
  public Table counterTable() throws IOException {
    return counters.counterTable();
  }

  @Override
  public void releaseTaken() throws IOException {
    counters.releaseTaken();
  }

}
