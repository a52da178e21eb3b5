package dev.cryptoworker.coprocessor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.OperationStatus;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.StoreFile;

/** Reads a region's cells with a region scanner, from inside the region server. */
final class RegionCells {
  /** Receives each cell a scan returns. */
  interface CellVisitor {
    void visit(Cell cell) throws IOException;
  }

  /** Receives each store file a bulk load added, with its family. */
  interface LoadedFileVisitor {
    void visit(byte[] family, StoreFile file) throws IOException;
  }

  private RegionCells() {}

  /**
   * The first failure among a batch's statuses, as {@code code message}, or null if every
   * mutation succeeded.
   */
  static String firstFailure(OperationStatus[] statuses) {
    for (OperationStatus status : statuses) {
      if (status.getOperationStatusCode() != HConstants.OperationStatusCode.SUCCESS) {
        return status.getOperationStatusCode() + " " + status.getExceptionMsg();
      }
    }
    return null;
  }

  /**
   * A cell's value where it lies, big-endian, from position to limit: no copy (a region's
   * aggregation reads a value of every row), whether the cell is on the heap or in a block buffer.
   */
  static ByteBuffer value(Cell cell) {
    if (cell instanceof ByteBufferExtendedCell b) {
      ByteBuffer all = b.getValueByteBuffer().duplicate(); // big-endian, whatever the block's buffer says
      all.limit(b.getValuePosition() + b.getValueLength()).position(b.getValuePosition());
      return all;
    }
    return ByteBuffer.wrap(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength());
  }

  /**
   * Hands each store file of {@code region} that a bulk load just added ({@code loaded}: the files'
   * final paths by family, as {@code postBulkLoadHFile} gets them) to {@code visitor}.
   */
  static void forEachLoadedFile(Region region, Map<byte[], List<Path>> loaded, LoadedFileVisitor visitor)
      throws IOException {
    for (Map.Entry<byte[], List<Path>> e : loaded.entrySet()) {
      Set<String> names = new HashSet<>();
      e.getValue().forEach(p -> names.add(p.getName()));
      for (StoreFile file : region.getStore(e.getKey()).getStorefiles()) {
        if (names.contains(file.getPath().getName())) {
          visitor.visit(e.getKey(), file);
        }
      }
    }
  }

  /**
   * {@code scan} of {@code family} limited to the time range of {@code file}'s cells: a region scan
   * that HBase lets skip the region's other files by their time ranges.
   */
  static Scan withinTimeRangeOf(Scan scan, byte[] family, StoreFile file) throws IOException {
    return scan.addFamily(family).setTimeRange(file.getMinimumTimestamp().orElse(0),
        file.getMaximumTimestamp().orElse(Long.MAX_VALUE - 1) + 1);
  }

  /** Hands every cell {@code scan} returns in {@code region} to {@code visitor}; returns the scan's read point. */
  static long forEach(Region region, Scan scan, CellVisitor visitor) throws IOException {
    try (RegionScanner scanner = region.getScanner(scan)) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        cells.clear();
        more = scanner.nextRaw(cells);
        for (Cell cell : cells) {
          visitor.visit(cell);
        }
      } while (more);
      return scanner.getMvccReadPoint();
    }
  }
}
