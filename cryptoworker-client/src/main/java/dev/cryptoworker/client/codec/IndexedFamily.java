package dev.cryptoworker.client.codec;

import dev.cryptoworker.searchindex.spi.FamilyCells;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Put;

/**
 * A family with searchable columns: stored as the entry index's expansion says ({@link
 * SearchIndex#expansion}), its rows holding index cells beside searchable values.
 */
final class IndexedFamily implements ColumnExpansion {
  private final FamilyCells cells;

  IndexedFamily(FamilyCells cells) {
    this.cells = cells;
  }

  @Override
  public void encode(byte[] row, byte[] family, List<Cell> logical, Put out) throws IOException {
    cells.encode(row, family, logical, out);
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] family, byte[] qualifier, boolean forDelete) throws IOException {
    return cells.storedQualifiers(family, qualifier, forDelete);
  }

  @Override
  public Cell decode(byte[] row, byte[] family, Cell stored) throws IOException {
    return cells.decode(row, family, stored);
  }

  @Override
  public boolean keepsIndexCells() {
    return true;
  }
}
