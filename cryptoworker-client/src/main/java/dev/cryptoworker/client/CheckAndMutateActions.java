package dev.cryptoworker.client;

import java.io.IOException;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RowMutations;

/**
 * The actions of HBase's deprecated fluent check-and-mutate builders, expressed as a {@link
 * CheckAndMutate} and sent through {@link SecureTable#checkAndMutate(CheckAndMutate)}, so they are
 * encoded like any other conditional mutation.
 */
abstract class CheckAndMutateActions {
  private final SecureTable table;

  CheckAndMutateActions(SecureTable table) {
    this.table = table;
  }

  /** The condition built so far. */
  abstract CheckAndMutate.Builder condition();

  public boolean thenPut(Put put) throws IOException {
    return table.checkAndMutate(condition().build(put)).isSuccess();
  }

  public boolean thenDelete(Delete delete) throws IOException {
    return table.checkAndMutate(condition().build(delete)).isSuccess();
  }

  public boolean thenMutate(RowMutations mutation) throws IOException {
    return table.checkAndMutate(condition().build(mutation)).isSuccess();
  }
}
