package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.expansion.PresplitMeasure;
import dev.cryptoworker.cryptobox.expansion.Recount;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.searchindex.spi.FamilyCells;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;

/**
 * How the logical columns of one family map to stored cells, for the layout that stores one
 * encrypted cell per logical cell. Usually one to one ({@link OneCellPerColumn}); a box that keeps
 * extra cells beside a column (a kind's own {@link BoxOwnedExpansion}, such as SPLASHE's indicators and splays;
 * search index cells, {@link IndexedFamily}) expands it here, and nowhere else. Encoding, stored
 * qualifiers and decoding are {@link FamilyCells}'s, which the entry index sees too.
 */
public interface ColumnExpansion extends FamilyCells {

  /**
   * The logical column an internal stored qualifier belongs to (its keys), if it is one; none by
   * default (every stored cell is its own column's).
   */
  default Optional<String> logicalColumn(byte[] storedQualifier) {
    return Optional.empty();
  }

  /**
   * How the stored cells already split {@code measure} by a dimension's values, if they do (SPLASHE):
   * aggregates then sum per value on the region servers. None by default.
   */
  default Optional<PresplitMeasure> presplit(byte[] measure) {
    return Optional.empty();
  }

  /**
   * Whether the expansion plans batches ({@link #beginBatch}): the client then shows it every batch
   * before encoding its puts; not by default (the work of collecting a batch's cells is saved).
   */
  default boolean plansBatches() {
    return false;
  }

  /**
   * Sees the family's cells of every put of a batch before they are encoded one by one on this
   * thread ({@link dev.cryptoworker.cryptobox.expansion.FamilyExpansion#beginBatch}); {@link
   * #endBatch} follows on this thread whatever happens. Nothing by default.
   */
  default void beginBatch(List<List<Cell>> rows) throws IOException {}

  /** Ends what {@link #beginBatch} began on this thread. */
  default void endBatch() {}

  /** A re-count of the counts the expansion shares, from its stored cells, if it shares any; none by default. */
  default Optional<Recount> recount() {
    return Optional.empty();
  }

  /** Whether the family's rows hold search-index cells beside searchable values; none by default. */
  default boolean keepsIndexCells() {
    return false;
  }

  /** The policy of an internal stored qualifier, if it is one; none by default. */
  default Optional<ColumnPolicy> storedPolicy(byte[] storedQualifier) {
    return Optional.empty();
  }

  /**
   * Whether an internal stored qualifier is encrypted by a box of its own, of its {@link
   * #storedPolicy}'s kind, rather than by its logical column's box; not by default.
   */
  default boolean hasOwnBox(byte[] storedQualifier) {
    return false;
  }
}
