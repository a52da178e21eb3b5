package dev.cryptoworker.coprocessor;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.ExtendedCell;

/**
 * The write number (MVCC sequence id) HBase stamps on a written cell, read through HBase's private
 * {@link ExtendedCell} ({@code Cell.getSequenceId} is deprecated in 2.x): bound to HBase 2.6, where
 * a batch's cells carry their write number by the time {@code postBatchMutate} runs (the WAL
 * append stamps them; writes that skip the WAL are stamped before the memstore insert).
 */
final class WriteNumbers {
  /** Where the number is unknown: newer than every read point, so nothing is decided from it. */
  static final long UNKNOWN = Long.MAX_VALUE;

  private WriteNumbers() {}

  /** {@code cell}'s write number, or {@link #UNKNOWN}. */
  static long of(Cell cell) {
    if (cell instanceof ExtendedCell extended && extended.getSequenceId() > 0) {
      return extended.getSequenceId();
    }
    return UNKNOWN;
  }
}
