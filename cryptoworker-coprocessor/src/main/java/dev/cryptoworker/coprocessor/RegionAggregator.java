package dev.cryptoworker.coprocessor;

import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.cryptobox.ashe.GroupedAsheSums;
import dev.cryptoworker.region.AggregationRequest;
import dev.cryptoworker.sharing.PrimeShareSum;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
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
 * The aggregation of one region: fed the region's selected rows one at a time, it adds each measure
 * column (and counts rows, if asked) per group in the same pass, and finally emits the partial
 * results in the form {@link AggregationRequest} documents. Holds no key; values are never logged. Independent of the scanner plumbing, so it is
 * tested on cells directly.
 */
final class RegionAggregator {
  private final AggregationRequest request;
  /** Each ASHE response qualifier's group in {@link #asheSums}. */
  private final Map<Qualifier, Integer> asheGroups = new HashMap<>();
  private final GroupedAsheSums asheSums = new GroupedAsheSums();
  private final Map<Qualifier, long[]> plain = new HashMap<>();
  private final Map<Qualifier, PrimeShareSum> shares = new HashMap<>();
  private final Map<Qualifier, long[]> rows = new HashMap<>();
  private byte[] firstRow;
  private byte[] responseFamily;

  RegionAggregator(AggregationRequest request) {
    this.request = request;
  }

  /**
   * Adds one row's cells (newest version first within a column, as a region scanner returns them).
   * A row lacking a group column is skipped unless the request forms null groups; a measure counts
   * only in rows that have it; the row count counts every row added.
   *
   * @throws DoNotRetryIOException if a measure is not a value of the requested kind, or an ASHE
   *     identifier repeats
   */
  void add(List<Cell> row) throws DoNotRetryIOException {
    if (row.isEmpty()) {
      return;
    }
    if (firstRow == null) {
      firstRow = CellUtil.cloneRow(row.get(0));
      // a family of the table for the response cells (a row count has no measure column)
      responseFamily = request.measures().isEmpty() ? CellUtil.cloneFamily(row.get(0))
          : request.measures().get(0).column().family();
    }
    List<AggregationRequest.Measure> measures = request.measures();
    Cell[] measureCells = new Cell[measures.size()];
    List<byte[]> group = new ArrayList<>(Collections.nCopies(request.groups().size(), (byte[]) null));
    for (Cell c : row) {
      for (int i = 0; i < measureCells.length; i++) {
        if (measureCells[i] == null && matches(c, measures.get(i).column())) {
          measureCells[i] = c;
        }
      }
      for (int i = 0; i < group.size(); i++) {
        if (group.get(i) == null && matches(c, request.groups().get(i))) {
          group.set(i, CellUtil.cloneValue(c));
        }
      }
    }
    if (!request.formsNullGroups() && group.contains(null)) {
      return;
    }
    for (int i = 0; i < measureCells.length; i++) {
      if (measureCells[i] != null) {
        addMeasure(i, measureCells[i], group);
      }
    }
    if (request.countsRows()) {
      rows.computeIfAbsent(qualifier(group, request.rowCountSlot(), 0), k -> new long[1])[0]++;
    }
  }

  private Qualifier qualifier(List<byte[]> group, int slot, int keyId) {
    return new Qualifier(request.responseQualifier(group, slot, keyId));
  }

  /**
   * A response qualifier as a hash key. Every row looks its group up: in a tree of a thousand
   * groups that took ten comparisons of DET ciphertexts that share their first bytes; results are
   * put in qualifier order once, at the end.
   */
  private record Qualifier(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Qualifier q && Arrays.equals(bytes, q.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return Bytes.toStringBinary(bytes);
    }
  }

  private static boolean matches(Cell c, AggregationRequest.Column column) {
    return CellUtil.matchingColumn(c, column.family(), column.qualifier());
  }

  private void addMeasure(int slot, Cell measure, List<byte[]> group) throws DoNotRetryIOException {
    switch (request.measures().get(slot).mode()) {
      case ASHE -> addAshe(slot, measure, group);
      case SHAMIR_P127 -> addShare(slot, measure, group, CellUtil.cloneValue(measure));
      default -> addPlain(slot, measure, group);
    }
  }

  private void addAshe(int slot, Cell measure, List<byte[]> group) throws DoNotRetryIOException {
    AsheCell cell;
    try {
      cell = AsheCell.parse(RegionCells.value(measure));
    } catch (IllegalArgumentException e) {
      throw new DoNotRetryIOException(where(measure) + ": " + e.getMessage());
    }
    try {
      asheSums.add(asheGroups.computeIfAbsent(qualifier(group, slot, cell.keyId()),
          k -> asheSums.newGroup(cell.keyId())), cell);
    } catch (IllegalArgumentException e) {
      throw new DoNotRetryIOException("ASHE identifier reused in this region: " + e.getMessage());
    }
  }

  private void addPlain(int slot, Cell measure, List<byte[]> group) throws DoNotRetryIOException {
    ByteBuffer value = RegionCells.value(measure);
    long v;
    if (value.remaining() == 8) {
      v = value.getLong(value.position());
    } else if (value.remaining() == 4) {
      v = value.getInt(value.position());
    } else {
      throw new DoNotRetryIOException(where(measure) + ": a plain sum needs 8- or 4-byte values, got " + value.remaining());
    }
    long[] acc = plain.computeIfAbsent(qualifier(group, slot, 0), k -> new long[2]);
    acc[0] += v;
    acc[1]++;
  }

  private void addShare(int slot, Cell measure, List<byte[]> group, byte[] value) throws DoNotRetryIOException {
    try {
      shares.computeIfAbsent(qualifier(group, slot, 0), k -> new PrimeShareSum()).add(value);
    } catch (IllegalArgumentException e) {
      throw new DoNotRetryIOException(where(measure) + ": " + e.getMessage());
    }
  }

  private static String where(Cell measure) {
    return "row " + Bytes.toStringBinary(CellUtil.cloneRow(measure)) + ", column "
        + Bytes.toStringBinary(CellUtil.cloneFamily(measure)) + ":" + Bytes.toStringBinary(CellUtil.cloneQualifier(measure));
  }

  /**
   * The partial results, one cell per group, slot (and key version), in qualifier order; empty if no row was selected.
   *
   * @throws DoNotRetryIOException if an ASHE identifier repeats (identifiers the scan met out of
   *     order are checked here, all at once)
   */
  List<Cell> result() throws DoNotRetryIOException {
    Map<byte[], byte[]> values = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (Map.Entry<Qualifier, Integer> e : asheGroups.entrySet()) {
      try {
        values.put(e.getKey().bytes(), asheSums.sum(e.getValue()).toBytes());
      } catch (IllegalArgumentException reused) {
        throw new DoNotRetryIOException("ASHE identifier reused in this region: " + reused.getMessage());
      }
    }
    shares.forEach((q, sum) -> values.put(q.bytes(), sum.toBytes()));
    plain.forEach((q, acc) -> values.put(q.bytes(), ByteBuffer.allocate(16).putLong(acc[0]).putLong(acc[1]).array()));
    rows.forEach((q, count) -> values.put(q.bytes(), Bytes.toBytes(count[0])));
    List<Cell> out = new ArrayList<>();
    values.forEach((q, v) -> out.add(cell(q, v)));
    return out;
  }

  /** The row key of the result: the region's first selected row. */
  private Cell cell(byte[] qualifier, byte[] value) {
    return ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY)
        .setRow(firstRow)
        .setFamily(responseFamily)
        .setQualifier(qualifier)
        .setTimestamp(HConstants.LATEST_TIMESTAMP)
        .setType(Cell.Type.Put)
        .setValue(value)
        .build();
  }
}
