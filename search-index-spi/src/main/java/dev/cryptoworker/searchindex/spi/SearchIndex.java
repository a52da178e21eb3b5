package dev.cryptoworker.searchindex.spi;

import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.region.SearchRequest;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;

/**
 * One connection's entry index ({@link SearchIndexProvider#open}): what the client asks of it to
 * write searchable values (index cells, entries taken ahead for a batch) and to search them.
 * Thread-safe; entries taken ahead belong to the calling thread.
 */
public interface SearchIndex {

  /** A search: the request the regions answer, the rest of the filter (null if none), and the check of the rows. */
  record IndexSearch(SearchRequest request, Filter rest, SearchCheck check) {}

  /**
   * How a family with searchable columns of {@code table} is stored: its cells as {@code values}
   * stores them, plus index cells beside searchable values (which {@code decode} drops).
   */
  FamilyCells expansion(SearchableTable table, FamilyCells values);

  /** The search in {@code filter} on {@code table}, if it has one the index can answer. */
  Optional<IndexSearch> plan(SearchableTable table, Filter filter) throws IOException;

  /**
   * Whether {@code stored}, a stored cell of a searchable table, is one the region servers read
   * back after a bulk load to index it: a bulk load keeps those in files of their own ({@link
   * dev.cryptoworker.region.LoadedFiles}).
   */
  boolean isReadBackAfterLoad(Cell stored);

  /**
   * Takes, for this thread's next writes, one entry per searchable cell of a batch ({@code
   * indexes}: each cell's value index); {@link #releaseTaken} ends the batch.
   */
  void takeAhead(Map<Cell, ValueIndex> indexes) throws IOException;

  /**
   * As {@link #takeAhead}, for a bulk load that stores what the batch's entries need written before
   * its rows itself: that is kept for {@link #releaseTakenForBulkLoad}, not written.
   */
  void takeAheadForBulkLoad(Map<Cell, ValueIndex> indexes) throws IOException;

  /**
   * Ends a batch begun with {@link #takeAheadForBulkLoad}, as {@link #releaseTaken} does, and
   * returns the cells of {@link #counterTable} that the batch's rows need stored before they become
   * visible (empty if none): a bulk load loads them first.
   */
  List<Put> releaseTakenForBulkLoad();

  /** The table {@link #releaseTakenForBulkLoad}'s cells belong to, on its cluster; the caller closes it. */
  Table counterTable() throws IOException;

  /**
   * Drops this thread's entries taken ahead and not used, and waits for what the batch's entries
   * must have written before its rows count as written.
   */
  void releaseTaken() throws IOException;
}
