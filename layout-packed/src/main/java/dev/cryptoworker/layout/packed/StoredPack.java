package dev.cryptoworker.layout.packed;

import dev.cryptoworker.packs.PackRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;

/**
 * One pack of a PACKED table as read: its id (the stored row key it lives under, the lower bound of
 * its key range), its stored bytes (what a conditional write compares), the write's timestamp and
 * its rows, keyed by stored row key.
 */
record StoredPack(byte[] id, byte[] bytes, long timestamp, PackRows rows) {

  /** Whether stored key {@code key} is below {@code bound} (a null bound: no bound). */
  static boolean below(byte[] key, byte[] bound) {
    return bound == null || Arrays.compareUnsigned(key, bound) < 0;
  }

  /**
   * The logical row {@code storedRow} of this pack as a Result, keeping the families and columns
   * {@code columns} names (empty: all; a family mapped to null or empty: all its columns), or null
   * if the pack does not hold it or nothing is kept.
   */
  Result result(byte[] storedRow, byte[] logicalRow, Map<byte[], NavigableSet<byte[]>> columns) {
    return result(rows, timestamp, storedRow, logicalRow, columns);
  }

  /** As {@link #result(byte[], byte[], Map)}, for rows not (yet) stored, cells at {@code timestamp}. */
  static Result result(PackRows rows, long timestamp, byte[] storedRow, byte[] logicalRow,
      Map<byte[], NavigableSet<byte[]>> columns) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> row = rows.row(storedRow);
    if (row == null) {
      return null;
    }
    List<Cell> cells = new ArrayList<>();
    for (Map.Entry<byte[], NavigableMap<byte[], byte[]>> f : row.entrySet()) {
      NavigableSet<byte[]> wanted = null;
      if (!columns.isEmpty()) {
        if (!columns.containsKey(f.getKey())) {
          continue;
        }
        wanted = columns.get(f.getKey());
      }
      for (Map.Entry<byte[], byte[]> c : f.getValue().entrySet()) {
        if (wanted == null || wanted.isEmpty() || wanted.contains(c.getKey())) {
          cells.add(new KeyValue(logicalRow, f.getKey(), c.getKey(), timestamp, c.getValue()));
        }
      }
    }
    if (cells.isEmpty()) {
      return null;
    }
    cells.sort(CellComparator.getInstance());
    return Result.create(cells);
  }

  /** The stored keys of this pack's rows that {@code keep} accepts, ascending or descending. */
  List<byte[]> keys(Predicate<byte[]> keep, boolean descending) {
    List<byte[]> out = new ArrayList<>();
    for (byte[] k : descending ? rows.keys().descendingSet() : rows.keys()) {
      if (keep.test(k)) {
        out.add(k);
      }
    }
    return out;
  }
}
