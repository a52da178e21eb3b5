package dev.cryptoworker.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A scan of a SHARED table: one scanner per cluster, merged by stored row key (alike on every
 * cluster), each row reconciled from the clusters' copies. A cluster whose scanner fails is dropped
 * for the rest of the scan; while enough answer, the scan goes on.
 */
final class SharedScanner implements SecureResultScanner {
  /** Where a cluster's scanner is. */
  private enum State { ACTIVE, EXHAUSTED, FAILED }

  private final ResultScanner[] scanners;
  private final Result[] heads;
  private final State[] states;
  private final ShareReconciler reconciler;
  private final int limit;
  private int returned;
  private boolean started;

  /**
   * @param scanners one per cluster, null where the cluster did not answer
   * @param limit logical rows to return at most (0 or less: no limit)
   */
  SharedScanner(ResultScanner[] scanners, ShareReconciler reconciler, int limit) {
    this.scanners = scanners;
    this.heads = new Result[scanners.length];
    this.states = new State[scanners.length];
    for (int i = 0; i < scanners.length; i++) {
      states[i] = scanners[i] == null ? State.FAILED : State.ACTIVE;
    }
    this.reconciler = reconciler;
    this.limit = limit;
  }

  /** Moves cluster {@code i} to its next row; a failing scanner drops the cluster for the rest of the scan. */
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

  @Override
  public Result next() throws IOException {
    if (!started) {
      for (int i = 0; i < scanners.length; i++) {
        if (states[i] == State.ACTIVE) {
          advance(i);
        }
      }
      started = true;
    }
    while (limit <= 0 || returned < limit) {
      byte[] row = null;
      for (Result head : heads) {
        if (head != null && (row == null || Bytes.compareTo(head.getRow(), row) < 0)) {
          row = head.getRow();
        }
      }
      if (row == null) {
        return null;
      }
      Result[] perCluster = new Result[heads.length];
      for (int i = 0; i < heads.length; i++) {
        if (heads[i] != null && Bytes.equals(heads[i].getRow(), row)) {
          perCluster[i] = heads[i];
          advance(i);
        } else if (states[i] != State.FAILED) {
          perCluster[i] = Result.EMPTY_RESULT; // answering, and holds nothing of this row
        }
      }
      Result logical = reconciler.reconcile(row, perCluster);
      if (!logical.isEmpty()) {
        returned++;
        return logical;
      }
    }
    return null;
  }

  @Override
  public void close() {
    for (int i = 0; i < scanners.length; i++) {
      if (states[i] == State.ACTIVE) {
        scanners[i].close();
      }
    }
  }

  @Override
  public boolean renewLease() {
    return false;
  }

  @Override
  public ScanMetrics getScanMetrics() {
    return null;
  }

  @Override
  public long skippedRows() {
    return 0;
  }

  @Override
  public Iterator<Result> iterator() {
    return new Iterator<>() {
      private Result next;

      @Override
      public boolean hasNext() {
        if (next == null) {
          try {
            next = SharedScanner.this.next();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return next != null;
      }

      @Override
      public Result next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Result r = next;
        next = null;
        return r;
      }
    };
  }
}
