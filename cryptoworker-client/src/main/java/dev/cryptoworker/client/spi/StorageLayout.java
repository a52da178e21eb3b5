package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.coprocessor.Batch;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * How one logical table is stored: takes logical (plaintext) operations and carries them out on
 * stored HBase cells, returning logical results. {@link SecureTable} is a thin {@code Table}
 * adapter over it (argument checks, refusals, single operations as lists).
 *
 * <p>Opened by a {@link LayoutProvider}. Implementations: one encrypted stored cell per logical
 * cell ({@code CELL}, built in), MiniCrypt packs (many logical rows in one stored cell: module
 * layout-packed) and secret shares (one logical table on several clusters: module layout-shared).
 * One logical operation may become several stored ones (a read, then a
 * conditional write; n writes on n clusters), and one stored row may hold many logical rows, so
 * the methods take whole logical operations, and decoding results is the layout's job too.
 *
 * <p>A layout that cannot do an operation throws {@link UnsupportedSecureOperationException} naming
 * the table and why. Instances serve one {@code SecureTable} (not shared between threads).
 */
public interface StorageLayout extends Closeable {

  /**
   * The stored tables, one per cluster of the table's layout in the order of its {@code clusters()}:
   * first the one whose name, descriptor and settings the caller sees.
   */
  List<Table> storedTables();

  Result[] get(List<Get> gets) throws IOException;

  boolean[] exists(List<Get> gets) throws IOException;

  /**
   * Bytes [{@code offset}, {@code offset + length}) of one cell's latest value, fewer where it ends
   * first; null if the cell is absent. This default reads the whole cell; layouts that can read
   * less override it.
   */
  default byte[] getValueRange(byte[] row, byte[] family, byte[] qualifier, int offset, int length)
      throws IOException {
    byte[] value = get(List.of(new Get(row).addColumn(family, qualifier)))[0].getValue(family, qualifier);
    return value == null ? null : Arrays.copyOfRange(value, Math.min(offset, value.length),
        (int) Math.min(value.length, (long) offset + length));
  }

  SecureResultScanner getScanner(Scan scan) throws IOException;

  /** How {@code scan} would run (see {@link SecureTable#plan(Scan)}); refuses what getScanner refuses. */
  QueryPlan plan(Scan scan) throws IOException;

  /** The rows of forward {@code scan} stored in [{@code storedStartRow}, {@code storedStopRow}). */
  SecureResultScanner getScanner(Scan scan, byte[] storedStartRow, byte[] storedStopRow) throws IOException;

  /**
   * The stored form of {@code puts} for a bulk load (HFiles), per cluster of the layout and in
   * order, refused where a write needs more: the stored puts {@link #put} would send each cluster,
   * new Puts whose cells are new too; cells the caller gave no timestamp keep none (a bulk load
   * stamps them in place with {@link #writeTimestamp}).
   */
  BulkLoadBatch encodeForBulkLoad(List<Put> puts) throws IOException;

  /**
   * The timestamp for cells of a write issued now that carry none, for writers that stamp stored
   * cells themselves (a bulk load's round). This default is the client's clock; layouts that order
   * their writes with a clock of their own (SHARED) give its next timestamp.
   */
  default long writeTimestamp() {
    return System.currentTimeMillis();
  }

  void put(List<Put> puts) throws IOException;

  /** Deletes all of {@code deletes}. */
  void delete(List<Delete> deletes) throws IOException;

  Result mutateRow(RowMutations mutations) throws IOException;

  Result append(Append append) throws IOException;

  Result increment(Increment increment) throws IOException;

  /**
   * Runs {@code actions} as {@link Table#batchCallback}, under the one batch contract of every
   * layout ({@link OneByOneBatch}): {@code results[i]} is action i's logical result or its
   * exception (one that cannot be encoded fails alone), {@code callback} (may be null) sees
   * logical rows, and if any action failed the call ends with HBase's {@code
   * RetriesExhaustedWithDetailsException} naming each failed action and its cause.
   */
  <R> void batch(List<? extends Row> actions, Object[] results, Batch.Callback<R> callback)
      throws IOException, InterruptedException;

  List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException;

  /**
   * Does now the part of a batch of {@code actions} that no earlier write can change, and returns
   * the batch to send later, in order after the batches sent before it: a buffered writer prepares
   * its next buffer while the previous one is in flight. The default prepares nothing, so all the
   * work happens when the batch is sent: right for layouts whose writes read stored data that an
   * earlier batch may still change (packs), or that apply a batch in order.
   */
  default PreparedBatch prepareBatch(List<? extends Row> actions) throws IOException {
    return results -> batch(actions, results, null);
  }

  /** Sum and count of {@code family:qualifier} per group (see {@link SecureTable#aggregateBy}). */
  AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException;

  NavigableMap<byte[], AggregateResult> aggregateBy(
      Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) throws IOException;

  /**
   * How {@code query} over the rows of {@code scan} would run (see {@link SecureTable#plan(Scan,
   * AggregateQuery)}); refuses what {@link #aggregateBy} refuses. This default refuses: layouts
   * whose region servers cannot add stored values.
   */
  default QueryPlan plan(Scan scan, AggregateQuery query) throws IOException {
    throw noRegionAggregates(query);
  }

  /**
   * The part of {@code query} over the rows of forward {@code scan} stored in [{@code
   * storedStartRow}, {@code storedStopRow}): sums, counts and row counts per group, decrypted; partials of
   * disjoint ranges add up to the whole (see {@link SecureTable#aggregateRange}). This default
   * refuses, as {@link #plan(Scan, AggregateQuery)} does.
   */
  default List<AggregateGroup> aggregateRange(Scan scan, AggregateQuery query, byte[] storedStartRow,
      byte[] storedStopRow) throws IOException {
    throw noRegionAggregates(query);
  }

  /**
   * Sets the counts the table's writers share (enhanced SPLASHE's token counts) to what its stored
   * cells show, after overwrites, deletes or failed writes made them drift; returns by how much they
   * moved, in all. This default refuses: layouts whose expansions share counts override it.
   */
  default long recountSharedCounts() throws IOException {
    throw new UnsupportedSecureOperationException(storedTables().get(0).getName().getNameAsString(),
        "recount of shared counts", "this layout keeps no counts shared by writers");
  }

  private UnsupportedSecureOperationException noRegionAggregates(AggregateQuery query) {
    return new UnsupportedSecureOperationException(storedTables().get(0).getName().getNameAsString(),
        "aggregate (" + query.describe() + ")",
        "this layout cannot add values on the region servers; scan and sum on the client");
  }
}
