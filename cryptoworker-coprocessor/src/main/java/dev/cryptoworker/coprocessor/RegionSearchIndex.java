package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.SearchIndexCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * One region's lookup from index entry key to row: the region-local structure that makes a search
 * touch only matching rows. The entries themselves are cells in their rows ({@link
 * SearchIndexCells}), so they move with their rows through splits, merges and region moves; this
 * map is derived from them: built when the region opens, extended on every write, and pruned when
 * a search finds an entry its row no longer holds. Memory: about 100 bytes per entry.
 *
 * <p>Keyless: entry keys are pseudorandom bytes to the region server.
 */
final class RegionSearchIndex {
  /** A 16-byte entry key as two longs. */
  record EntryKey(long high, long low) {
    static EntryKey of(byte[] bytes, int offset) {
      long h = 0;
      long l = 0;
      for (int i = 0; i < 8; i++) {
        h = (h << 8) | (bytes[offset + i] & 0xff);
        l = (l << 8) | (bytes[offset + 8 + i] & 0xff);
      }
      return new EntryKey(h, l);
    }
  }

  private final Map<EntryKey, byte[]> rows = new ConcurrentHashMap<>();

  /** Reads every index cell of {@code region} (call before the region takes writes). */
  static RegionSearchIndex build(Region region) throws IOException {
    RegionSearchIndex index = new RegionSearchIndex();
    Scan scan = new Scan().setFilter(new ColumnPrefixFilter(SearchIndexCells.qualifierPrefix())).setCacheBlocks(false);
    try (RegionScanner scanner = region.getScanner(scan)) {
      List<Cell> row = new ArrayList<>();
      boolean more;
      do {
        row.clear();
        more = scanner.nextRaw(row);
        for (Cell cell : row) {
          index.add(cell);
        }
      } while (more);
    }
    return index;
  }

  /** Records {@code cell} if it is an index cell. */
  void add(Cell cell) {
    if (SearchIndexCells.isIndexQualifier(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength())
        && SearchIndexCells.isIndexValue(cell.getValueLength())) {
      rows.put(entryKey(cell), CellUtil.cloneRow(cell));
    }
  }

  /** The entry key an index cell holds. */
  static EntryKey entryKey(Cell indexCell) {
    return EntryKey.of(indexCell.getValueArray(), indexCell.getValueOffset() + SearchIndexCells.entryKeyOffset());
  }

  /** The row that last stored entry {@code key}, or null. */
  byte[] rowOf(EntryKey key) {
    return rows.get(key);
  }

  /** Forgets {@code key} if it still points at {@code row} (whose cell no longer holds it). */
  void forget(EntryKey key, byte[] row) {
    rows.computeIfPresent(key, (k, current) -> Arrays.equals(current, row) ? null : current);
  }

  int size() {
    return rows.size();
  }
}
