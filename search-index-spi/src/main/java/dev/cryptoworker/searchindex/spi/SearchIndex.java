package dev.cryptoworker.searchindex.spi;

import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.region.SearchRequest;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.Cell;
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
   * Takes, for this thread's next writes, one entry per searchable cell of a batch ({@code
   * indexes}: each cell's value index); {@link #releaseTaken} ends the batch.
   */
  void takeAhead(Map<Cell, ValueIndex> indexes) throws IOException;

  /**
   * Drops this thread's entries taken ahead and not used, and waits for what the batch's entries
   * must have written before its rows count as written.
   */
  void releaseTaken() throws IOException;

  /**
   * As {@link #releaseTaken}, but returns at once: the future completes when what the batch's
   * entries must have written is written, or fails with the IOException {@code releaseTaken} would
   * throw. The caller makes the batch's rows visible only after it completes (a bulk load loads a
   * round's files once all its batches' futures have), so encoding need not wait batch by batch.
   */
  CompletableFuture<Void> releaseTakenLater();
}
