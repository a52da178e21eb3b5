package dev.cryptoworker.coprocessor;

import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.cryptobox.ashe.AsheSum;
import dev.cryptoworker.region.AggregationRequest;
import dev.cryptoworker.sharing.PrimeShareSum;
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
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The aggregation of one region: fed the region's selected rows one at a time, it adds the measure
 * column per group and finally emits the partial results in the form {@link AggregationRequest}
 * documents. Holds no key; values are never logged. Independent of the scanner plumbing, so it is
 * tested on cells directly.
 */
final class RegionAggregator {
  private final AggregationRequest request;
  private final Map<byte[], AsheSum> ashe = new TreeMap<>(Bytes.BYTES_COMPARATOR);
  private final Map<byte[], long[]> plain = new TreeMap<>(Bytes.BYTES_COMPARATOR);
  private final Map<byte[], PrimeShareSum> shares = new TreeMap<>(Bytes.BYTES_COMPARATOR);
  private byte[] firstRow;

  RegionAggregator(AggregationRequest request) {
    this.request = request;
  }

  /**
   * Adds one row's cells (newest version first within a column, as a region scanner returns them).
   * Rows without the measure, or without the group column when grouping, are not counted.
   *
   * @throws DoNotRetryIOException if the measure is not a value of the requested kind, or an ASHE
   *     identifier repeats
   */
  void add(List<Cell> row) throws DoNotRetryIOException {
    if (row.isEmpty()) {
      return;
    }
    if (firstRow == null) {
      firstRow = CellUtil.cloneRow(row.get(0));
    }
    Cell measure = null;
    byte[] group = HConstants.EMPTY_BYTE_ARRAY;
    boolean hasGroup = !request.grouped();
    for (Cell c : row) {
      if (measure == null && CellUtil.matchingColumn(c, request.family(), request.qualifier())) {
        measure = c;
      } else if (!hasGroup && CellUtil.matchingColumn(c, request.groupFamily(), request.groupQualifier())) {
        group = CellUtil.cloneValue(c);
        hasGroup = true;
      }
    }
    if (measure == null || !hasGroup) {
      return;
    }
    byte[] value = CellUtil.cloneValue(measure);
    switch (request.mode()) {
      case ASHE -> addAshe(measure, group, value);
      case SHAMIR_P127 -> addShare(measure, group, value);
      default -> addPlain(measure, group, value);
    }
  }

  private void addAshe(Cell measure, byte[] group, byte[] value) throws DoNotRetryIOException {
    AsheCell cell;
    try {
      cell = AsheCell.parse(value);
    } catch (IllegalArgumentException e) {
      throw new DoNotRetryIOException(where(measure) + ": " + e.getMessage());
    }
    try {
      ashe.computeIfAbsent(request.responseQualifier(group, cell.keyId()), k -> new AsheSum(cell.keyId())).add(cell);
    } catch (IllegalArgumentException e) {
      throw new DoNotRetryIOException("ASHE identifier reused in this region: " + e.getMessage());
    }
  }

  private void addPlain(Cell measure, byte[] group, byte[] value) throws DoNotRetryIOException {
    long v;
    if (value.length == 8) {
      v = Bytes.toLong(value);
    } else if (value.length == 4) {
      v = Bytes.toInt(value);
    } else {
      throw new DoNotRetryIOException(where(measure) + ": a plain sum needs 8- or 4-byte values, got " + value.length);
    }
    long[] acc = plain.computeIfAbsent(request.responseQualifier(group, 0), k -> new long[2]);
    acc[0] += v;
    acc[1]++;
  }

  private void addShare(Cell measure, byte[] group, byte[] value) throws DoNotRetryIOException {
    try {
      shares.computeIfAbsent(request.responseQualifier(group, 0), k -> new PrimeShareSum()).add(value);
    } catch (IllegalArgumentException e) {
      throw new DoNotRetryIOException(where(measure) + ": " + e.getMessage());
    }
  }

  private String where(Cell measure) {
    return "row " + Bytes.toStringBinary(CellUtil.cloneRow(measure)) + ", column "
        + Bytes.toStringBinary(request.family()) + ":" + Bytes.toStringBinary(request.qualifier());
  }

  /** The partial results, one cell per group (and key version); empty if no row was selected. */
  List<Cell> result() {
    List<Cell> out = new ArrayList<>();
    if (firstRow == null) {
      return out;
    }
    for (Map.Entry<byte[], AsheSum> e : ashe.entrySet()) {
      out.add(cell(e.getKey(), e.getValue().toBytes()));
    }
    for (Map.Entry<byte[], PrimeShareSum> e : shares.entrySet()) {
      out.add(cell(e.getKey(), e.getValue().toBytes()));
    }
    for (Map.Entry<byte[], long[]> e : plain.entrySet()) {
      out.add(cell(e.getKey(), ByteBuffer.allocate(16).putLong(e.getValue()[0]).putLong(e.getValue()[1]).array()));
    }
    return out;
  }

  /** The row key of the result: the region's first selected row. */
  private Cell cell(byte[] qualifier, byte[] value) {
    return ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY)
        .setRow(firstRow)
        .setFamily(request.family())
        .setQualifier(qualifier)
        .setTimestamp(HConstants.LATEST_TIMESTAMP)
        .setType(Cell.Type.Put)
        .setValue(value)
        .build();
  }
}
