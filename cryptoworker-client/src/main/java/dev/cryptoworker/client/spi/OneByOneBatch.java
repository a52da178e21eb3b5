package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.coprocessor.Batch;

/**
 * A batch run as single operations, for layouts whose one logical operation is several stored ones
 * (shares on n clusters, a pack's read and conditional write): Put, Delete and Get only.
 */
final class OneByOneBatch {
  private OneByOneBatch() {}

  /** Runs {@code actions} in order on {@code layout}, as {@link StorageLayout#batch} describes. */
  static <R> void run(StorageLayout layout, String table, String layoutName, List<? extends Row> actions,
      Object[] results, Batch.Callback<R> callback) throws IOException, InterruptedException {
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
      } catch (IOException e) {
        results[i] = e;
      }
    }
    for (Object r : results) {
      if (r instanceof IOException e) {
        throw new IOException("table " + table + ": some actions of the batch failed (see the results); first: "
            + e.getMessage(), e);
      }
    }
  }
}
