package dev.cryptoworker.coprocessor;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;

/**
 * A region scanner that answers a scan with rows of its own making (partial sums, search hits,
 * counter takes): every way of asking for the next row is {@link #nextRaw(List)}, it cannot reseek,
 * and the rest is the region scanner HBase opened for the scan ({@code delegate}).
 */
abstract class AnsweringRegionScanner implements RegionScanner {
  private final String reseekRefusal;
  /** The scanner HBase opened for the scan; closed with this one. */
  final RegionScanner delegate;

  /**
   * A scanner that answers with one cell in the region's first row (its start key, or {@code 0x00}
   * for the table's first region): {@code value} under {@code qualifier}.
   */
  static RegionScanner answering(RegionScanner delegate, String reseekRefusal, RegionInfo region, byte[] qualifier,
      byte[] value) {
    byte[] row = region.getStartKey().length == 0 ? new byte[1] : region.getStartKey();
    return new ListedAnswersScanner(reseekRefusal, delegate,
        List.of(ListedAnswersScanner.answer(row, qualifier, qualifier, value)));
  }

  /** @param reseekRefusal the message a reseek is refused with */
  AnsweringRegionScanner(String reseekRefusal, RegionScanner delegate) {
    this.reseekRefusal = reseekRefusal;
    this.delegate = delegate;
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

  @Override
  public RegionInfo getRegionInfo() {
    return delegate.getRegionInfo();
  }

  @Override
  public long getMaxResultSize() {
    return delegate.getMaxResultSize();
  }

  @Override
  public long getMvccReadPoint() {
    return delegate.getMvccReadPoint();
  }

  @Override
  public int getBatch() {
    return delegate.getBatch();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
