package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.SearchIndexCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.StoreFile;

/**
 * One region's lookup from index entry key to row: the region-local structure that makes a search
 * touch only matching rows. The entries themselves are cells in their rows ({@link
 * SearchIndexCells}), so they move with their rows through splits, merges and region moves; this
 * map is derived from them: built when the region opens, extended on every write and bulk load, and pruned when
 * a search finds an entry its row no longer holds. Memory: about 130 bytes per entry.
 *
 * <p>A write's entries join the map in {@code postBatchMutate}, which HBase runs before the write
 * becomes visible to scanners. Each entry therefore keeps the write number of the cell that added
 * it, and a search forgets an entry only if its own read point covers that write: a scanner that
 * opened in between does not see the row's new cell, and must not take that as the entry being
 * stale.
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

  /** Where an entry points: the row, and the write number of the cell that put it there. */
  private record Entry(byte[] row, long writeNumber) {}

  /** The write number of cells that were in the region when it opened. */
  private static final long VISIBLE_TO_ALL = 0;

  private final Map<EntryKey, Entry> rows = new ConcurrentHashMap<>();

  /** Reads every index cell of {@code region} (call before the region takes writes). */
  static RegionSearchIndex build(Region region) throws IOException {
    RegionSearchIndex index = new RegionSearchIndex();
    Scan scan = new Scan().setFilter(new ColumnPrefixFilter(SearchIndexCells.qualifierPrefix())).setCacheBlocks(false);
    index.addAll(region, scan, VISIBLE_TO_ALL); // the region takes no writes yet
    return index;
  }

  /**
   * Adds the index cells of files just bulk loaded into {@code region} ({@code loaded}: the files'
   * final paths by family). Reads only the cells in the loaded files' time ranges (HBase skips the
   * region's other files by their time range): an index cell the scan meets that an earlier file
   * holds too is current all the same, and putting it again changes nothing. Each entry gets its
   * file's sequence id as its write number, so a search that opened before the load does not take
   * the row for stale.
   */
  void addLoaded(Region region, Map<byte[], List<Path>> loaded) throws IOException {
    for (Map.Entry<byte[], List<Path>> e : loaded.entrySet()) {
      Set<String> names = new HashSet<>();
      e.getValue().forEach(p -> names.add(p.getName()));
      for (StoreFile file : region.getStore(e.getKey()).getStorefiles()) {
        if (!names.contains(file.getPath().getName())) {
          continue;
        }
        long writeNumber = file.getMaxSequenceId() > 0 ? file.getMaxSequenceId() : WriteNumbers.UNKNOWN;
        Scan scan = new Scan().addFamily(e.getKey()).setFilter(new ColumnPrefixFilter(SearchIndexCells.qualifierPrefix()))
            .setTimeRange(file.getMinimumTimestamp().orElse(0), file.getMaximumTimestamp().orElse(Long.MAX_VALUE - 1) + 1)
            .setCacheBlocks(false);
        addAll(region, scan, writeNumber);
      }
    }
  }

  private void addAll(Region region, Scan scan, long writeNumber) throws IOException {
    try (RegionScanner scanner = region.getScanner(scan)) {
      List<Cell> row = new ArrayList<>();
      boolean more;
      do {
        row.clear();
        more = scanner.nextRaw(row);
        for (Cell cell : row) {
          if (isIndexCell(cell)) {
            put(cell, writeNumber);
          }
        }
      } while (more);
    }
  }

  /** Records {@code cell}, just written, if it is an index cell. */
  void add(Cell cell) {
    if (isIndexCell(cell)) {
      put(cell, WriteNumbers.of(cell));
    }
  }

  private static boolean isIndexCell(Cell cell) {
    return SearchIndexCells.isIndexQualifier(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength())
        && SearchIndexCells.isIndexValue(cell.getValueLength());
  }

  private void put(Cell indexCell, long writeNumber) {
    rows.put(entryKey(indexCell), new Entry(CellUtil.cloneRow(indexCell), writeNumber));
  }

  /** The entry key an index cell holds. */
  static EntryKey entryKey(Cell indexCell) {
    return EntryKey.of(indexCell.getValueArray(), indexCell.getValueOffset() + SearchIndexCells.entryKeyOffset());
  }

  /** The row that last stored entry {@code key}, or null. */
  byte[] rowOf(EntryKey key) {
    Entry e = rows.get(key);
    return e == null ? null : e.row();
  }

  /**
   * Forgets {@code key} if it still points at {@code row}, put there by a write that a scanner at
   * {@code readPoint} sees: that scanner found {@code row} without the entry. An entry added by a
   * later write (not yet visible to it, or a retried put that wrote the entry again) stays.
   */
  void forget(EntryKey key, byte[] row, long readPoint) {
    rows.computeIfPresent(key, (k, current) ->
        Arrays.equals(current.row(), row) && current.writeNumber() <= readPoint ? null : current);
  }

  int size() {
    return rows.size();
  }
}
