package dev.cryptoworker.coprocessor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/** Reads a region's cells with a region scanner, from inside the region server. */
final class RegionCells {
  /** Receives each cell a scan returns. */
  interface CellVisitor {
    void visit(Cell cell) throws IOException;
  }

  private RegionCells() {}

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
