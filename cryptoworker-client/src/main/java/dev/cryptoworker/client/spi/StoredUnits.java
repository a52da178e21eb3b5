package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.inspect.InspectedCell;
import java.io.IOException;
import java.util.List;

/**
 * A table's stored cells as a layout sees them, each decoded on its own where it can be, for
 * {@code cryptoworker inspect} and {@code audit} (capability {@link LayoutCapability#INSPECTION}):
 * one stored cell per logical cell (CELL), packs and their rows (PACKED), shares per cluster
 * (SHARED). A cell that does not decode is reported with its problem, never skipped.
 */
public interface StoredUnits {
  /** The stored cells that hold logical row {@code row} (as the application writes it), every version. */
  List<InspectedCell> row(byte[] row) throws IOException;

  /**
   * The stored rows after stored row {@code after} (null: from the start), in stored order, each
   * as its stored cells (every version): what an audit walks ({@link RowWalk}).
   */
  RowWalk.Rows<List<InspectedCell>> rows(byte[] after) throws IOException;
}
