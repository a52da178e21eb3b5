package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.coprocessor.Batch;

/**
 * The one batch contract of every layout, HBase's own ({@code Table.batch}): every action runs,
 * {@code results[i]} is action i's logical result or the exception it failed with, the callback
 * sees each success, and if any action failed the batch then throws HBase's {@link
 * RetriesExhaustedWithDetailsException} naming each failed action and its cause. {@link #run} is
 * the batch of layouts whose one logical operation is several stored ones (shares on n clusters,
 * a pack's read and conditional write): single operations, Put, Delete and Get only.
 */
public final class OneByOneBatch {
  private OneByOneBatch() {}

  /** Runs {@code actions} in order on {@code layout}, as {@link StorageLayout#batch} describes. */
  public static <R> void run(StorageLayout layout, String table, String layoutName, List<? extends Row> actions,
      Object[] results, Batch.Callback<R> callback) throws IOException {
    for (int i = 0; i < actions.size(); i++) {
      Row action = actions.get(i);
      try {
        if (action instanceof Put put) {
          layout.put(List.of(put));
          results[i] = Result.EMPTY_RESULT;
        } else if (action instanceof Delete delete) {
          layout.delete(List.of(delete));
          results[i] = Result.EMPTY_RESULT;
        } else if (action instanceof Get get) {
          results[i] = layout.get(List.of(get))[0];
        } else {
          throw new UnsupportedSecureOperationException(table, "batch", action.getClass().getSimpleName()
              + " in a batch on a " + layoutName + " table: only Put, Delete and Get are supported");
        }
        if (callback != null) {
          @SuppressWarnings("unchecked")
          R typed = (R) results[i];
          callback.update(null, action.getRow(), typed);
        }
      } catch (IOException | RuntimeException e) {
        results[i] = e;
      }
    }
    throwIfAnyFailed(actions, results);
  }

  /**
   * Ends a batch whose results are in: throws {@link RetriesExhaustedWithDetailsException} naming
   * every action whose result is a {@link Throwable}, as HBase does; returns if none failed.
   */
  public static void throwIfAnyFailed(List<? extends Row> actions, Object[] results)
      throws RetriesExhaustedWithDetailsException {
    List<Throwable> causes = new ArrayList<>();
    List<Row> failed = new ArrayList<>();
    List<String> where = new ArrayList<>();
    for (int i = 0; i < results.length; i++) {
      if (results[i] instanceof Throwable t) {
        causes.add(t);
        failed.add(actions.get(i));
        where.add("client");
      }
    }
    if (!causes.isEmpty()) {
      throw new RetriesExhaustedWithDetailsException(causes, failed, where);
    }
  }
}
