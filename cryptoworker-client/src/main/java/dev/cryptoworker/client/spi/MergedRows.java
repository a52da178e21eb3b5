package dev.cryptoworker.client.spi;

import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The rows of one stored table on several clusters, merged by stored row key (alike on every
 * cluster; ascending, or descending for reversed scans): each step gives a row and what each cluster holds of it (empty: answering, holds
 * nothing; null: not answering). A cluster whose scanner fails is dropped for the rest of the walk.
 */
public final class MergedRows implements AutoCloseable {
  /** Where a cluster's scanner is. */
  private enum State { ACTIVE, EXHAUSTED, FAILED }

  private final ResultScanner[] scanners;
  private final Result[] heads;
  private final State[] states;
  private final boolean reversed;
  private boolean started;
  private byte[] row;
  private Result[] perCluster;

  /**
   * @param scanners one per cluster, null where the cluster did not answer
   * @param reversed whether the scanners run in descending stored key order
   */
  public MergedRows(ResultScanner[] scanners, boolean reversed) {
    this.scanners = scanners;
    this.reversed = reversed;
    this.heads = new Result[scanners.length];
    this.states = new State[scanners.length];
    for (int i = 0; i < scanners.length; i++) {
      states[i] = scanners[i] == null ? State.FAILED : State.ACTIVE;
    }
  }

  private void advance(int i) {
    try {
      heads[i] = scanners[i].next();
      if (heads[i] == null) {
        states[i] = State.EXHAUSTED;
      }
    } catch (IOException | RuntimeException e) {
      heads[i] = null;
      states[i] = State.FAILED;
    }
    if (states[i] != State.ACTIVE) {
      scanners[i].close();
    }
  }

  /** Moves to the next stored row; false at the end. */
  public boolean next() {
    if (!started) {
      for (int i = 0; i < scanners.length; i++) {
        if (states[i] == State.ACTIVE) {
          advance(i);
        }
      }
      started = true;
    }
    row = null;
    for (Result head : heads) {
      if (head != null && (row == null || (reversed ? -1 : 1) * Bytes.compareTo(head.getRow(), row) < 0)) {
        row = head.getRow();
      }
    }
    if (row == null) {
      return false;
    }
    perCluster = new Result[heads.length];
    for (int i = 0; i < heads.length; i++) {
      if (heads[i] != null && Bytes.equals(heads[i].getRow(), row)) {
        perCluster[i] = heads[i];
        advance(i);
      } else if (states[i] != State.FAILED) {
        perCluster[i] = Result.EMPTY_RESULT;
      }
    }
    return true;
  }

  /** The current stored row key. */
  public byte[] row() {
    return row;
  }

  /** What each cluster holds of the current row (null: not answering). */
  public Result[] perCluster() {
    return perCluster;
  }

  /**
   * The cells of one stored row as each cluster holds them, grouped by stored column: element i of
   * each array is cluster i's cell (null: it holds none, or did not answer), columns in stored order.
   */
  public static Collection<Cell[]> byColumn(Result[] perCluster) {
    Map<String, Cell[]> columns = new TreeMap<>();
    for (int i = 0; i < perCluster.length; i++) {
      if (perCluster[i] == null || perCluster[i].isEmpty()) {
        continue; // rawCells() of an empty result is null
      }
      for (Cell c : perCluster[i].rawCells()) {
        String key = Bytes.toStringBinary(CellUtil.cloneFamily(c)) + ":" + Bytes.toStringBinary(CellUtil.cloneQualifier(c));
        columns.computeIfAbsent(key, k -> new Cell[perCluster.length])[i] = c;
      }
    }
    return columns.values();
  }

  @Override
  public void close() {
    for (int i = 0; i < scanners.length; i++) {
      if (states[i] == State.ACTIVE) {
        scanners[i].close();
      }
    }
  }
}
