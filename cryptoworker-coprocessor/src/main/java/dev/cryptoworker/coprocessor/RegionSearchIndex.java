package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.IndexUpkeepRequest;
import dev.cryptoworker.region.LoadedFiles;
import dev.cryptoworker.region.SearchIndexCells;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One region's lookup from index entry key to row: the region-local structure that makes a search
 * touch only matching rows. The entries themselves are cells in their rows ({@link
 * SearchIndexCells}), so they move with their rows through splits, merges and region moves; this
 * map is derived from them: built when the region opens (or taken from the regions it was split or
 * merged from, {@link ClosedRegionIndexes}), extended on every write and bulk load, and pruned when
 * a search finds an entry its row no longer holds. Stored in an {@link EntryTable}, no object per
 * entry: 52 to 103 bytes per entry (36 per slot, 35% to 70% of slots used) plus its row key.
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
      return new EntryKey(Bytes.toLong(bytes, offset), Bytes.toLong(bytes, offset + Long.BYTES));
    }
  }

  /** The write number of cells that were in the region when it opened. */
  static final long VISIBLE_TO_ALL = 0;

  /**
   * Entry key to the row that holds it, with the write number of the cell that put it there and the
   * last compaction pass whose scan found it current.
   */
  private final EntryTable entries = new EntryTable();
  private final AtomicInteger passes = new AtomicInteger();
  /** One compaction at a time per region. */
  private final Object compacting = new Object();

  /** Reads every index cell of {@code region} (call before the region takes writes). */
  static RegionSearchIndex build(Region region) throws IOException {
    RegionSearchIndex index = new RegionSearchIndex();
    Scan scan = new Scan().setFilter(new ColumnPrefixFilter(SearchIndexCells.qualifierPrefix())).setCacheBlocks(false);
    index.addAll(region, scan, VISIBLE_TO_ALL); // the region takes no writes yet
    return index;
  }

  /**
   * The index of a region a split or merge made, from its parents' indexes: their entries whose
   * rows {@code region} holds, stale ones included (as the parents had them). Every entry is
   * visible to every scanner of the new region, whose write numbers start above its parents'.
   */
  static RegionSearchIndex within(RegionInfo region, List<RegionSearchIndex> parents) {
    RegionSearchIndex index = new RegionSearchIndex();
    byte[] start = region.getStartKey();
    byte[] end = region.getEndKey();
    for (RegionSearchIndex parent : parents) {
      parent.entries.forEach((high, low, arena, offset, length, writeNumber) -> {
        if (Bytes.compareTo(arena, offset, length, start, 0, start.length) >= 0
            && (end.length == 0 || Bytes.compareTo(arena, offset, length, end, 0, end.length) < 0)) {
          index.entries.put(high, low, arena, offset, length, VISIBLE_TO_ALL);
        }
      });
    }
    return index;
  }

  /**
   * Adds the index cells of files just bulk loaded into {@code region} ({@code loaded}: the files'
   * final paths by family). A file its writer marked ({@link LoadedFiles}) is read only if it holds
   * index cells, and then alone. An unmarked file is read through the region, only the cells in its
   * time range (HBase skips the region's other files by their time range): an index cell the scan
   * meets that an earlier file holds too is current all the same, and putting it again changes
   * nothing. Each entry gets its file's sequence id as its write number, so a search that opened
   * before the load does not take the row for stale.
   */
  void addLoaded(Region region, Map<byte[], List<Path>> loaded) throws IOException {
    RegionCells.forEachLoadedFile(region, loaded, (family, file) -> {
      long writeNumber = file.getMaxSequenceId() > 0 ? file.getMaxSequenceId() : WriteNumbers.UNKNOWN;
      // HStoreFile is the one StoreFile HBase 2 has; its file info is read when the store opens it.
      Optional<LoadedFiles.Mark> mark = file instanceof HStoreFile h
          ? LoadedFiles.Mark.of(h.getMetadataValue(LoadedFiles.fileInfoKey())) : Optional.empty();
      if (mark.isPresent()) {
        if (mark.get() == LoadedFiles.Mark.READ_BACK) {
          addFile((HStoreFile) file, writeNumber);
        }
        return;
      }
      Scan scan = new Scan().setFilter(new ColumnPrefixFilter(SearchIndexCells.qualifierPrefix())).setCacheBlocks(false);
      addAll(region, RegionCells.withinTimeRangeOf(scan, family, file), writeNumber);
    });
  }

  /** Adds the index cells of one store file, read by itself (its cells are all visible: it was just loaded). */
  private void addFile(HStoreFile file, long writeNumber) throws IOException {
    StoreFileScanner cells = file.getReader().getStoreFileScanner(false, false, false, Long.MAX_VALUE, 0, false);
    try {
      if (cells.seek(KeyValue.LOWESTKEY)) {
        for (Cell cell = cells.next(); cell != null; cell = cells.next()) {
          if (isIndexCell(cell)) {
            put(cell, writeNumber);
          }
        }
      }
    } finally {
      cells.close();
    }
  }

  private void addAll(Region region, Scan scan, long writeNumber) throws IOException {
    RegionCells.forEach(region, scan, cell -> {
      if (isIndexCell(cell)) {
        put(cell, writeNumber);
      }
    });
  }


  /** Records {@code cell}, just written, if it is an index cell. */
  void add(Cell cell) {
    if (isIndexCell(cell)) {
      put(cell, WriteNumbers.of(cell));
    }
  }

  private static boolean isIndexCell(Cell cell) {
    return SearchIndexCells.isIndexCell(cell.getQualifierArray(), cell.getQualifierOffset(), cell.getQualifierLength(),
        cell.getValueLength());
  }

  private void put(Cell indexCell, long writeNumber) {
    entries.put(keyHigh(indexCell), keyLow(indexCell), indexCell.getRowArray(), indexCell.getRowOffset(),
        indexCell.getRowLength(), writeNumber);
  }

  /** The high and low halves of the entry key an index cell holds, read in place (writes allocate no key). */
  private static long keyHigh(Cell indexCell) {
    return Bytes.toLong(indexCell.getValueArray(), indexCell.getValueOffset() + SearchIndexCells.entryKeyOffset());
  }

  private static long keyLow(Cell indexCell) {
    return Bytes.toLong(indexCell.getValueArray(),
        indexCell.getValueOffset() + SearchIndexCells.entryKeyOffset() + Long.BYTES);
  }

  /** The entry key an index cell holds. */
  static EntryKey entryKey(Cell indexCell) {
    return EntryKey.of(indexCell.getValueArray(), indexCell.getValueOffset() + SearchIndexCells.entryKeyOffset());
  }

  /** The row that last stored entry {@code key}, or null. */
  byte[] rowOf(EntryKey key) {
    return entries.row(key.high(), key.low());
  }

  /**
   * Forgets {@code key} if it still points at {@code row}, put there by a write that a scanner at
   * {@code readPoint} sees: that scanner found {@code row} without the entry. An entry added by a
   * later write (not yet visible to it, or a retried put that wrote the entry again) stays.
   */
  void forget(EntryKey key, byte[] row, long readPoint) {
    entries.removeIfCovered(key.high(), key.low(), row, readPoint);
  }

  int size() {
    return entries.size();
  }

  /**
   * Compacts the index: drops the entries whose row no longer holds them (its value changed, or
   * it was deleted) and adds any current entry missing, from one scan of the region's index cells.
   * An entry is dropped only if the scan's read point covers the write that added it (a write in
   * flight keeps its entries). Searches stay exact: one takes its candidate rows from the map when
   * it opens, before its read point is fixed, so a search that misses a dropped entry reads at
   * least the scan's read point, at which the entry's row no longer held it; a search opened
   * before keeps the candidates it took. Work: one pass over the region's index cells and one over
   * the map, as when the region opens.
   */
  IndexUpkeepRequest.Answer compact(Region region) throws IOException {
    synchronized (compacting) {
      long before = entries.size();
      int pass = passes.incrementAndGet();
      long[] added = {0};
      Scan scan = new Scan().setFilter(new ColumnPrefixFilter(SearchIndexCells.qualifierPrefix())).setCacheBlocks(false);
      long readPoint = RegionCells.forEach(region, scan, cell -> {
        if (isIndexCell(cell)) {
          added[0] += mark(cell, pass);
        }
      });
      long removed = entries.removeUnmarked(pass, readPoint);
      return new IndexUpkeepRequest.Answer(before, entries.size(), removed, added[0]);
    }
  }

  /** Marks the entry of a current index cell as seen in {@code pass}; 1 if it was missing (added), else 0. */
  private int mark(Cell indexCell, int pass) {
    return entries.mark(keyHigh(indexCell), keyLow(indexCell), indexCell.getRowArray(), indexCell.getRowOffset(),
        indexCell.getRowLength(), pass);
  }

}
