package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.KeyIdPrefix;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.searchindex.spi.FamilyCells;
import dev.cryptoworker.searchindex.spi.SearchableTable;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The stored cells of a family with searchable (SSE) columns: each SSE value is stored randomized
 * like STD, plus an index cell in the same row ({@link SearchIndexCells}) holding the key of the
 * value's next index entry, taken from its counter ({@link SearchCounters}). Value and index cell
 * go in the same Put, so a row and its entry are written atomically, and they move together through
 * region splits. Values, and the family's other columns, are stored as {@code cells} stores them.
 */
final class IndexedColumns implements FamilyCells {
  private final SearchableTable codec;
  private final FamilyCells cells;
  private final SearchCounters counters;

  IndexedColumns(SearchableTable codec, FamilyCells cells, SearchCounters counters) {
    this.codec = codec;
    this.cells = cells;
    this.counters = counters;
  }

  @Override
  public void encode(byte[] row, byte[] family, List<Cell> logical, Put out) throws IOException {
    for (Cell cell : logical) {
      byte[] qualifier = CellUtil.cloneQualifier(cell);
      if (SearchIndexCells.isIndexQualifier(qualifier)) {
        throw new IllegalArgumentException("table " + codec.table() + ", family " + Bytes.toString(family)
            + ": qualifier " + Bytes.toStringBinary(qualifier) + " starts with bytes reserved for search index cells");
      }
      cells.encode(row, family, List.of(cell), out);
      if (codec.isSearchable(family, qualifier)) {
        ValueIndex index = counters.indexTakenFor(cell);
        if (index == null) {
          index = codec.writeIndex(family, qualifier, CellUtil.cloneValue(cell));
        }
        byte[] entryKey = counters.nextEntryKey(index);
        out.addColumn(family, SearchIndexCells.qualifier(codec.encodeQualifier(family, qualifier)), cell.getTimestamp(),
            SearchIndexCells.value(KeyIdPrefix.of(index.keyId()), entryKey));
      }
    }
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] family, byte[] qualifier, boolean forDelete) throws IOException {
    byte[] stored = codec.encodeQualifier(family, qualifier);
    return forDelete && codec.isSearchable(family, qualifier)
        ? List.of(stored, SearchIndexCells.qualifier(stored))
        : List.of(stored);
  }

  @Override
  public Cell decode(byte[] row, byte[] family, Cell stored) throws IOException {
    if (SearchIndexCells.isIndexQualifier(stored.getQualifierArray(), stored.getQualifierOffset(),
        stored.getQualifierLength())) {
      return null;
    }
    return cells.decode(row, family, stored);
  }
}
