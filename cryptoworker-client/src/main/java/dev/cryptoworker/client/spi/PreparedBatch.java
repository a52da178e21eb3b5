package dev.cryptoworker.client.spi;

import java.io.IOException;

/**
 * A batch a layout has prepared ({@link StorageLayout#prepareBatch}) and will write when sent,
 * under the one batch contract of {@link StorageLayout#batch}.
 */
@FunctionalInterface
public interface PreparedBatch {
  /**
   * Writes the batch: {@code results} gets one entry per action, as {@code Table.batch} fills it.
   *
   * @throws org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException naming each action
   *     that failed (encoding included) and its cause
   */
  void send(Object[] results) throws IOException, InterruptedException;
}
