package dev.cryptoworker.embedded.server;

import dev.cryptoworker.embedded.HostileScans;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.util.Bytes;

/** Region servers that answer scans dishonestly, for tests ({@link HostileScans}). */
public final class HostileScanObserver implements RegionCoprocessor, RegionObserver {
  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan) {
    if (HostileScans.WIDEN_RANGE.equals(mode(scan))) {
      scan.withStartRow(HConstants.EMPTY_START_ROW).withStopRow(HConstants.EMPTY_END_ROW);
    }
  }

  @Override
  public RegionScanner postScannerOpen(
      ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan, RegionScanner scanner) {
    return HostileScans.REPEAT_ROWS.equals(mode(scan)) ? new RepeatingScanner(scanner) : scanner;
  }

  private static String mode(Scan scan) {
    byte[] mode = scan.getAttribute(HostileScans.ATTRIBUTE);
    return mode == null ? null : Bytes.toString(mode);
  }

  /** Returns every row of {@code inner} twice in a row. */
  private static final class RepeatingScanner implements RegionScanner {
    private final RegionScanner inner;
    private List<Cell> again;
    private boolean moreAfterAgain;

    RepeatingScanner(RegionScanner inner) {
      this.inner = inner;
    }

    @Override
    public boolean nextRaw(List<Cell> result) throws IOException {
      if (again != null) {
        result.addAll(again);
        again = null;
        return moreAfterAgain;
      }
      List<Cell> row = new ArrayList<>();
      boolean more = inner.nextRaw(row);
      result.addAll(row);
      if (row.isEmpty()) {
        return more;
      }
      again = row;
      moreAfterAgain = more;
      return true;
    }

    @Override
    public boolean nextRaw(List<Cell> result, ScannerContext context) throws IOException {
      return nextRaw(result);
    }

    @Override
    public boolean next(List<Cell> result, ScannerContext context) throws IOException {
      return nextRaw(result);
    }

    @Override
    public boolean reseek(byte[] row) throws IOException {
      again = null;
      return inner.reseek(row);
    }

    @Override
    public RegionInfo getRegionInfo() {
      return inner.getRegionInfo();
    }

    @Override
    public boolean isFilterDone() throws IOException {
      return again == null && inner.isFilterDone();
    }

    @Override
    public long getMaxResultSize() {
      return inner.getMaxResultSize();
    }

    @Override
    public long getMvccReadPoint() {
      return inner.getMvccReadPoint();
    }

    @Override
    public int getBatch() {
      return inner.getBatch();
    }

    @Override
    public void close() throws IOException {
      inner.close();
    }
  }
}
