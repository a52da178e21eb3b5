package dev.cryptoworker.coprocessor;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;

/**
 * A region scanner that answers a scan with rows of its own making (partial sums, search hits):
 * every way of asking for the next row is {@link #nextRaw(List)}, and it cannot reseek.
 */
abstract class AnsweringRegionScanner implements RegionScanner {
  private final String reseekRefusal;

  /** @param reseekRefusal the message a reseek is refused with */
  AnsweringRegionScanner(String reseekRefusal) {
    this.reseekRefusal = reseekRefusal;
  }

  @Override
  public final boolean nextRaw(List<Cell> result, ScannerContext scannerContext) throws IOException {
    return nextRaw(result);
  }

  @Override
  public final boolean next(List<Cell> result) throws IOException {
    return nextRaw(result);
  }

  @Override
  public final boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
    return nextRaw(result);
  }

  @Override
  public final boolean reseek(byte[] row) throws IOException {
    throw new DoNotRetryIOException(reseekRefusal);
  }
}
