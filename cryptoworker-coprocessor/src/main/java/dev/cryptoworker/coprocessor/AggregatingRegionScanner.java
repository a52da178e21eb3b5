package dev.cryptoworker.coprocessor;

import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.cryptobox.ashe.AsheSum;
import dev.cryptoworker.cryptobox.ashe.AggregationRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ExtendedCellBuilderFactory;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Replaces a region's scan by its aggregate: reads every row the scan (with its filter, evaluated
 * as usual on ciphertext) selects, adds the measure column per group, and returns one row whose
 * cells are the partial results, qualified by group. Holds no key; values are never logged.
 *
 * <p>Result cells: qualifier = group bytes (as stored, empty without grouping) followed by the
 * 4-byte key id (ASHE) or nothing (PLAIN); value = {@link AsheSum#toBytes()} (ASHE) or {@code sum
 * (8) || count (8)} (PLAIN). The row key is the region's first selected row.
 */
final class AggregatingRegionScanner implements RegionScanner {
  private final RegionScanner delegate;
  private final AggregationRequest request;
  private boolean done;

  AggregatingRegionScanner(RegionScanner delegate, AggregationRequest request) {
    this.delegate = delegate;
    this.request = request;
  }

  @Override
  public boolean nextRaw(List<Cell> result) throws IOException {
    if (done) {
      return false;
    }
    done = true;
    Map<byte[], AsheSum> ashe = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    Map<byte[], long[]> plain = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    byte[] firstRow = null;
    List<Cell> row = new ArrayList<>();
    boolean more;
    do {
      row.clear();
      more = delegate.nextRaw(row);
      if (row.isEmpty()) {
        continue;
      }
      if (firstRow == null) {
        firstRow = CellUtil.cloneRow(row.get(0));
      }
      Cell measure = null;
      byte[] group = HConstants.EMPTY_BYTE_ARRAY;
      boolean hasGroup = !request.grouped();
      for (Cell c : row) {
        if (CellUtil.matchingColumn(c, request.family(), request.qualifier()) && measure == null) {
          measure = c; // newest version first
        } else if (request.grouped() && !hasGroup
            && CellUtil.matchingColumn(c, request.groupFamily(), request.groupQualifier())) {
          group = CellUtil.cloneValue(c);
          hasGroup = true;
        }
      }
      if (measure == null || !hasGroup) {
        continue;
      }
      byte[] value = CellUtil.cloneValue(measure);
      if (request.mode() == AggregationRequest.Mode.ASHE) {
        AsheCell cell;
        try {
          cell = AsheCell.parse(value);
        } catch (IllegalArgumentException e) {
          throw new DoNotRetryIOException("row " + Bytes.toStringBinary(CellUtil.cloneRow(measure)) + ", column "
              + Bytes.toStringBinary(request.family()) + ":" + Bytes.toStringBinary(request.qualifier()) + ": "
              + e.getMessage());
        }
        byte[] key = Bytes.add(group, Bytes.toBytes(cell.keyId()));
        try {
          ashe.computeIfAbsent(key, k -> new AsheSum(cell.keyId())).add(cell);
        } catch (IllegalArgumentException e) {
          throw new DoNotRetryIOException("ASHE identifier reused in this region: " + e.getMessage());
        }
      } else {
        long v;
        if (value.length == 8) {
          v = Bytes.toLong(value);
        } else if (value.length == 4) {
          v = Bytes.toInt(value);
        } else {
          throw new DoNotRetryIOException("row " + Bytes.toStringBinary(CellUtil.cloneRow(measure))
              + ": a plain sum needs 8- or 4-byte values, got " + value.length);
        }
        long[] acc = plain.computeIfAbsent(group, k -> new long[2]);
        acc[0] += v;
        acc[1]++;
      }
    } while (more);
    if (firstRow == null) {
      return false;
    }
    if (request.mode() == AggregationRequest.Mode.ASHE) {
      for (Map.Entry<byte[], AsheSum> e : ashe.entrySet()) {
        result.add(cell(firstRow, e.getKey(), e.getValue().toBytes()));
      }
    } else {
      for (Map.Entry<byte[], long[]> e : plain.entrySet()) {
        result.add(cell(firstRow, e.getKey(),
            ByteBuffer.allocate(16).putLong(e.getValue()[0]).putLong(e.getValue()[1]).array()));
      }
    }
    return false;
  }

  private Cell cell(byte[] row, byte[] qualifier, byte[] value) {
    return ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY)
        .setRow(row)
        .setFamily(request.family())
        .setQualifier(qualifier)
        .setTimestamp(HConstants.LATEST_TIMESTAMP)
        .setType(Cell.Type.Put)
        .setValue(value)
        .build();
  }

  @Override
  public boolean nextRaw(List<Cell> result, ScannerContext scannerContext) throws IOException {
    return nextRaw(result);
  }

  @Override
  public boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
    return nextRaw(result);
  }

  @Override
  public RegionInfo getRegionInfo() {
    return delegate.getRegionInfo();
  }

  @Override
  public boolean isFilterDone() throws IOException {
    return done;
  }

  @Override
  public boolean reseek(byte[] row) throws IOException {
    throw new DoNotRetryIOException("an aggregation scan cannot reseek");
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
