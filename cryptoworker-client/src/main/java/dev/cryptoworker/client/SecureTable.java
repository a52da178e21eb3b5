package dev.cryptoworker.client;

import dev.cryptoworker.client.spi.BulkLoadBatch;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.client.spi.PreparedBatch;
import dev.cryptoworker.client.spi.StorageLayout;
import dev.cryptoworker.schema.TableLayout;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.coprocessor.Batch;
import org.apache.hadoop.hbase.filter.CompareFilter.CompareOp;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.ipc.CoprocessorRpcChannel;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.Descriptors.MethodDescriptor;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.Message;
import org.apache.hadoop.hbase.shaded.com.google.protobuf.Service;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A {@link Table} that encrypts per its table schema: every operation is encoded before HBase sees
 * it and every result decoded before the caller does. A thin adapter: how the logical table is
 * stored is its {@link StorageLayout}'s business.
 *
 * <p>Obtain one from {@link SecureConnection#getSecureTable(TableName)}. Like HBase's own tables it
 * is lightweight and not meant to be shared between threads; the {@link SecureConnection} is.
 *
 * <p>Every {@code Table} method is overridden: what cannot be done on ciphertext is refused with
 * {@link UnsupportedSecureOperationException}, never forwarded unencrypted. Decoding failures
 * throw {@link CellDecodingException}.
 */
public final class SecureTable implements Table {
  private final StorageLayout layout;
  private final String table;
  private final String layoutType;
  private final List<String> clusters;
  private final Set<LayoutCapability> capabilities;

  SecureTable(StorageLayout layout, String table, TableLayout tableLayout, Set<LayoutCapability> capabilities) {
    this.layout = layout;
    this.table = table;
    this.layoutType = tableLayout.type();
    this.clusters = List.copyOf(tableLayout.clusters());
    this.capabilities = Set.copyOf(capabilities);
  }

  /** What the table's layout can do beyond reads and writes (CELL: everything). */
  public Set<LayoutCapability> capabilities() {
    return capabilities;
  }

  /**
   * Refuses {@code what} (for messages) unless the table's layout has {@code capability}: how tools
   * (bulk loads, MapReduce inputs) ask before they start.
   *
   * @throws UnsupportedSecureOperationException naming the table, its layout and the capability
   */
  public void requireCapability(LayoutCapability capability, String what) throws UnsupportedSecureOperationException {
    capability.require(capabilities, layoutType, table, what);
  }

  /** The plain HBase table underneath (the first, for layouts over several), which sees only ciphertext. */
  public Table unwrap() {
    return stored();
  }

  private Table stored() {
    return layout.storedTables().get(0);
  }

  // ---- aggregates: the region-side Process step

  /**
   * Sum, count and average of {@code family:qualifier} over the rows {@code scan} selects (row
   * range and server-side filters: DET equality, OPE ranges, PLAIN). Each region adds its values
   * in the CryptoWorker coprocessor (ASHE: over ciphertext, without keys), in parallel; the client
   * merges and decrypts. ASHE and PLAIN (8-byte long or 4-byte int) columns only. For a measure
   * splayed by a SPLASHE dimension, a top-level {@code dimension EQUAL value} condition (alone or
   * in an AND list) is answered from the splayed columns: sum of {@code measure|value}, count from
   * the {@code dimension|value} indicators. A SHARED table under the scheme SHAMIR_P127 adds its
   * shares on every cluster's region servers, over the scan's row range only (its layout refuses
   * other schemes, filters and group-bys).
   *
   * @throws UnsupportedSecureOperationException for other boxes, or a scan that would need
   *     client-side evaluation
   */
  public AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    Objects.requireNonNull(scan, "scan");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(qualifier, "qualifier");
    return layout.aggregate(scan, family, qualifier);
  }

  /**
   * Like {@link #aggregate}, per value of {@code groupFamily:groupQualifier} (a DET, OPE without
   * companion, or PLAIN column): the region servers group by stored bytes, the client decrypts the
   * group keys. Rows without the group column are not counted. Keys in unsigned byte order.
   */
  public NavigableMap<byte[], AggregateResult> aggregateBy(
      Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) throws IOException {
    Objects.requireNonNull(scan, "scan");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(qualifier, "qualifier");
    Objects.requireNonNull(groupFamily, "groupFamily");
    Objects.requireNonNull(groupQualifier, "groupQualifier");
    return layout.aggregateBy(scan, family, qualifier, groupFamily, groupQualifier);
  }

  // ---- metadata and settings: those of the stored table(s)

  @Override
  public TableName getName() {
    return stored().getName();
  }

  @Override
  public Configuration getConfiguration() {
    return stored().getConfiguration();
  }

  @Override
  public TableDescriptor getDescriptor() throws IOException {
    return stored().getDescriptor();
  }

  @Override
  @Deprecated
  public HTableDescriptor getTableDescriptor() throws IOException {
    return stored().getTableDescriptor();
  }

  @Override
  public RegionLocator getRegionLocator() throws IOException {
    return stored().getRegionLocator();
  }

  @Override
  public long getRpcTimeout(TimeUnit unit) {
    return stored().getRpcTimeout(unit);
  }

  @Override
  @Deprecated
  public int getRpcTimeout() {
    return stored().getRpcTimeout();
  }

  @Override
  @Deprecated
  public void setRpcTimeout(int rpcTimeout) {
    layout.storedTables().forEach(t -> t.setRpcTimeout(rpcTimeout));
  }

  @Override
  public long getReadRpcTimeout(TimeUnit unit) {
    return stored().getReadRpcTimeout(unit);
  }

  @Override
  @Deprecated
  public int getReadRpcTimeout() {
    return stored().getReadRpcTimeout();
  }

  @Override
  @Deprecated
  public void setReadRpcTimeout(int readRpcTimeout) {
    layout.storedTables().forEach(t -> t.setReadRpcTimeout(readRpcTimeout));
  }

  @Override
  public long getWriteRpcTimeout(TimeUnit unit) {
    return stored().getWriteRpcTimeout(unit);
  }

  @Override
  @Deprecated
  public int getWriteRpcTimeout() {
    return stored().getWriteRpcTimeout();
  }

  @Override
  @Deprecated
  public void setWriteRpcTimeout(int writeRpcTimeout) {
    layout.storedTables().forEach(t -> t.setWriteRpcTimeout(writeRpcTimeout));
  }

  @Override
  public long getOperationTimeout(TimeUnit unit) {
    return stored().getOperationTimeout(unit);
  }

  @Override
  @Deprecated
  public int getOperationTimeout() {
    return stored().getOperationTimeout();
  }

  @Override
  @Deprecated
  public void setOperationTimeout(int operationTimeout) {
    layout.storedTables().forEach(t -> t.setOperationTimeout(operationTimeout));
  }

  @Override
  public Map<String, byte[]> getRequestAttributes() {
    return stored().getRequestAttributes();
  }

  @Override
  public void close() throws IOException {
    layout.close();
  }

  // ---- reads

  @Override
  public Result get(Get get) throws IOException {
    return layout.get(List.of(Objects.requireNonNull(get, "get")))[0];
  }

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    return layout.get(gets);
  }

  /**
   * Bytes [{@code offset}, {@code offset + length}) of one cell's latest value (fewer where the
   * value ends first; null if the cell is absent): one field of a large value. On a SHARED table
   * under SECURE_RAID this reads only the shares holding those bytes (see docs/layouts.md, "Random
   * access"); elsewhere it reads the whole cell and returns the part.
   *
   * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
   */
  public byte[] getValueRange(byte[] row, byte[] family, byte[] qualifier, int offset, int length)
      throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("table " + table + ": offset and length must not be negative, got "
          + offset + " and " + length);
    }
    return layout.getValueRange(Objects.requireNonNull(row, "row"), Objects.requireNonNull(family, "family"),
        Objects.requireNonNull(qualifier, "qualifier"), offset, length);
  }

  @Override
  public boolean exists(Get get) throws IOException {
    return layout.exists(List.of(Objects.requireNonNull(get, "get")))[0];
  }

  @Override
  public boolean[] exists(List<Get> gets) throws IOException {
    return layout.exists(gets);
  }

  @Override
  @Deprecated
  public boolean[] existsAll(List<Get> gets) throws IOException {
    return exists(gets);
  }

  /** Decoded rows; see {@link SecureScans#skipUndecodableRows} for rows that do not decode. */
  @Override
  public SecureResultScanner getScanner(Scan scan) throws IOException {
    return layout.getScanner(Objects.requireNonNull(scan, "scan"));
  }

  @Override
  public SecureResultScanner getScanner(byte[] family) throws IOException {
    return getScanner(new Scan().addFamily(family));
  }

  @Override
  public SecureResultScanner getScanner(byte[] family, byte[] qualifier) throws IOException {
    return getScanner(new Scan().addColumn(family, qualifier));
  }

  /**
   * How {@code scan} would run, without running it: what the region servers do (a stored key range
   * or the whole table, which filters on ciphertext, an SSE index search) and what the client does
   * after decrypting (row range checks, filters, limit, and why). Filters are named by type only.
   *
   * @throws UnsupportedSecureOperationException whatever {@link #getScanner(Scan)} would refuse,
   *     with the same message
   */
  public String explain(Scan scan) throws IOException {
    return plan(scan).describe();
  }

  /**
   * How {@code scan} would run, part by part, without running it: what the region servers answer on
   * ciphertext, what the client evaluates after decrypting, and what each part leaks (see {@link
   * QueryPlan}). A plan that does not {@linkplain QueryPlan#evaluatesOnClient() evaluate on the
   * client} returns exactly the rows the servers select.
   *
   * @throws UnsupportedSecureOperationException whatever {@link #getScanner(Scan)} would refuse,
   *     with the same message
   */
  public QueryPlan plan(Scan scan) throws IOException {
    return layout.plan(Objects.requireNonNull(scan, "scan"));
  }

  /**
   * How {@code query} over the rows of {@code scan} would run, without running it: the scan's own
   * parts, then the addition in each region and the decryption of the sums in the client.
   *
   * @throws UnsupportedSecureOperationException whatever {@link #aggregateBy} or {@link #aggregate}
   *     would refuse, with the same message
   */
  public QueryPlan plan(Scan scan, AggregateQuery query) throws IOException {
    return layout.plan(Objects.requireNonNull(scan, "scan"), Objects.requireNonNull(query, "query"));
  }

  /**
   * The part of {@code query} over the rows of {@code scan} stored in [{@code storedStartRow},
   * {@code storedStopRow}) (empty arrays: unbounded; both empty: the whole table), such as one
   * region from {@link #getRegionLocator()}: per group, each measure's sum and count and, if asked,
   * the row count, added in one pass per region on the region servers and decrypted here; groups
   * in key order. Partials of disjoint ranges add up ({@link AggregateGroup#plus}) to the answer
   * for their union: this is how work split by region (a Spark partition) aggregates its part.
   * Forward scans only.
   *
   * @throws UnsupportedSecureOperationException whatever {@link #plan(Scan, AggregateQuery)} refuses
   */
  public List<AggregateGroup> aggregateRange(Scan scan, AggregateQuery query, byte[] storedStartRow,
      byte[] storedStopRow) throws IOException {
    return layout.aggregateRange(Objects.requireNonNull(scan, "scan"), Objects.requireNonNull(query, "query"),
        Objects.requireNonNull(storedStartRow, "storedStartRow"), Objects.requireNonNull(storedStopRow, "storedStopRow"));
  }

  // ---- split work and bulk loads: HBase's distributed paths (cryptoworker-mapreduce)

  /**
   * The rows of {@code scan} whose stored row keys lie in [{@code storedStartRow}, {@code
   * storedStopRow}) (empty arrays: unbounded), decrypted and checked as {@link #getScanner(Scan)}
   * does; the scan's own row range still applies. Stored keys are the row keys HBase sees, such as
   * region boundaries from {@link #getRegionLocator()}: this is how work split by region (a
   * MapReduce input split) reads its part. Each piece applies the scan's limit on its own. Forward
   * scans only.
   *
   * @throws UnsupportedSecureOperationException for a reversed scan, whatever {@link
   *     #getScanner(Scan)} refuses, or a table whose rows are moving to new stored keys
   */
  public SecureResultScanner getScanner(Scan scan, byte[] storedStartRow, byte[] storedStopRow) throws IOException {
    return layout.getScanner(Objects.requireNonNull(scan, "scan"),
        Objects.requireNonNull(storedStartRow, "storedStartRow"), Objects.requireNonNull(storedStopRow, "storedStopRow"));
  }

  /**
   * The stored (encrypted) form of {@code puts}, in order, exactly what {@link #put(List)} would
   * write, for tools that write HFiles and load them with HBase's bulk-load tool. Cell timestamps
   * are kept as given ({@code HConstants.LATEST_TIMESTAMP} unless set): an HFile writer must set
   * them. The Puts and their cells are new, so the writer may stamp them in place.
   *
   * <p>SSE values get their index entries here, numbered by the search counters in one round trip
   * for all of {@code puts}; the regions index them when their files are loaded. Until then, a
   * search covers the numbers taken but cannot reach the rows: load soon after encoding (a search
   * made in between would reach these rows with its tokens once they are loaded).
   *
   * <p>Per cluster of the table's layout ({@link BulkLoadBatch}): one for CELL tables; for SHARED
   * tables each cluster's shares, and how many clusters must take them.
   *
   * @throws UnsupportedSecureOperationException for layouts without {@link
   *     LayoutCapability#BULK_LOAD} (PACKED) or a table whose rows are moving to new stored keys
   */
  public BulkLoadBatch encodeForBulkLoad(List<Put> puts) throws IOException {
    return layout.encodeForBulkLoad(Objects.requireNonNull(puts, "puts"));
  }

  /**
   * Sets the counts this table's writers share (enhanced SPLASHE's token counts, which padding
   * balances) to what the stored cells show, reading every row's counted cells: after overwrites,
   * deletes or failed writes, the counts stand above the stored ones and later pads would leave
   * those tokens short. Pads of other clients' writes planned meanwhile are lost from the counts.
   *
   * @return by how much the counts moved, in all
   * @throws UnsupportedSecureOperationException for layouts that keep no shared counts
   */
  public long recountSharedCounts() throws IOException {
    return layout.recountSharedCounts();
  }

  /**
   * The timestamp a write issued now gives cells that carry none, for tools that stamp stored
   * cells themselves (a bulk load's round): the client's clock, or the layout's own (SHARED: after
   * every write this connection issued or read).
   */
  public long writeTimestamp() {
    return layout.writeTimestamp();
  }

  /**
   * The plain HBase tables underneath, which see only ciphertext, by the names the table's layout
   * gives their clusters, in its order (one for CELL and PACKED tables; n for SHARED): where the
   * puts of a {@link BulkLoadBatch} for each cluster go. Closed with this table.
   */
  public Map<String, Table> storedTables() {
    Map<String, Table> out = new LinkedHashMap<>();
    List<Table> tables = layout.storedTables();
    for (int i = 0; i < clusters.size(); i++) {
      out.put(clusters.get(i), tables.get(i));
    }
    return Collections.unmodifiableMap(out);
  }

  // ---- writes

  @Override
  public void put(Put put) throws IOException {
    layout.put(List.of(Objects.requireNonNull(put, "put")));
  }

  @Override
  public void put(List<Put> puts) throws IOException {
    layout.put(puts);
  }

  @Override
  public void delete(Delete delete) throws IOException {
    layout.delete(List.of(Objects.requireNonNull(delete, "delete")));
  }

  /** Deletes all; as in HBase, {@code deletes} is left holding nothing on success. */
  @Override
  public void delete(List<Delete> deletes) throws IOException {
    layout.delete(deletes);
    deletes.clear();
  }

  @Override
  public Result mutateRow(RowMutations rm) throws IOException {
    return layout.mutateRow(rm);
  }

  @Override
  public Result append(Append append) throws IOException {
    return layout.append(append);
  }

  @Override
  public Result increment(Increment increment) throws IOException {
    return layout.increment(increment);
  }

  @Override
  public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount)
      throws IOException {
    return incrementColumnValue(row, family, qualifier, amount, Durability.USE_DEFAULT);
  }

  @Override
  public long incrementColumnValue(
      byte[] row, byte[] family, byte[] qualifier, long amount, Durability durability)
      throws IOException {
    Increment inc = new Increment(row).addColumn(family, qualifier, amount);
    inc.setDurability(durability);
    Result r = increment(inc);
    return Bytes.toLong(r.getValue(family, qualifier));
  }

  // ---- batches

  @Override
  public void batch(List<? extends Row> actions, Object[] results) throws IOException, InterruptedException {
    layout.batch(actions, results, null);
  }

  /** {@link #batch} in two steps: what the layout can do ahead now, the write when sent (buffered mutators). */
  PreparedBatch prepareBatch(List<? extends Row> actions) throws IOException {
    return layout.prepareBatch(actions);
  }

  @Override
  public <R> void batchCallback(List<? extends Row> actions, Object[] results, Batch.Callback<R> callback)
      throws IOException, InterruptedException {
    layout.batch(actions, results, Objects.requireNonNull(callback, "callback"));
  }

  // ---- conditional mutations

  @Override
  public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
    return layout.checkAndMutate(List.of(Objects.requireNonNull(checkAndMutate, "checkAndMutate"))).get(0);
  }

  @Override
  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException {
    return layout.checkAndMutate(checkAndMutates);
  }

  @Override
  @Deprecated
  public CheckAndMutateBuilder checkAndMutate(byte[] row, byte[] family) {
    return new SecureCheckAndMutateBuilder(this, row, family);
  }

  @Override
  @Deprecated
  public CheckAndMutateWithFilterBuilder checkAndMutate(byte[] row, Filter filter) {
    return new SecureCheckAndMutateWithFilterBuilder(this, row, filter);
  }

  @Override
  @Deprecated
  public boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, byte[] value, Put put)
      throws IOException {
    return checkAndPut(row, family, qualifier, CompareOperator.EQUAL, value, put);
  }

  @Override
  @Deprecated
  public boolean checkAndPut(
      byte[] row, byte[] family, byte[] qualifier,
      CompareOp op, byte[] value, Put put)
      throws IOException {
    return checkAndPut(row, family, qualifier, CompareOperator.valueOf(op.name()), value, put);
  }

  @Override
  @Deprecated
  public boolean checkAndPut(
      byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value, Put put)
      throws IOException {
    return checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value).build(put))
        .isSuccess();
  }

  @Override
  @Deprecated
  public boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, byte[] value, Delete delete)
      throws IOException {
    return checkAndDelete(row, family, qualifier, CompareOperator.EQUAL, value, delete);
  }

  @Override
  @Deprecated
  public boolean checkAndDelete(
      byte[] row, byte[] family, byte[] qualifier,
      CompareOp op, byte[] value, Delete delete)
      throws IOException {
    return checkAndDelete(row, family, qualifier, CompareOperator.valueOf(op.name()), value, delete);
  }

  @Override
  @Deprecated
  public boolean checkAndDelete(
      byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value, Delete delete)
      throws IOException {
    return checkAndMutate(CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value).build(delete))
        .isSuccess();
  }

  @Override
  @Deprecated
  public boolean checkAndMutate(
      byte[] row, byte[] family, byte[] qualifier,
      CompareOp op, byte[] value, RowMutations mutation)
      throws IOException {
    return checkAndMutate(row, family, qualifier, CompareOperator.valueOf(op.name()), value, mutation);
  }

  @Override
  @Deprecated
  public boolean checkAndMutate(
      byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value, RowMutations mutation)
      throws IOException {
    return checkAndMutate(
            CheckAndMutate.newBuilder(row).ifMatches(family, qualifier, op, value).build(mutation))
        .isSuccess();
  }

  // ---- coprocessor calls: they would see and return ciphertext, bypassing Encode and Decode

  @Override
  public CoprocessorRpcChannel coprocessorService(byte[] row) {
    throw coprocessorRefusal();
  }

  @Override
  public <T extends Service, R> Map<byte[], R> coprocessorService(
      Class<T> service, byte[] startKey, byte[] endKey, Batch.Call<T, R> callable) {
    throw coprocessorRefusal();
  }

  @Override
  public <T extends Service, R> void coprocessorService(
      Class<T> service, byte[] startKey, byte[] endKey, Batch.Call<T, R> callable, Batch.Callback<R> callback) {
    throw coprocessorRefusal();
  }

  @Override
  public <R extends Message> Map<byte[], R> batchCoprocessorService(
      MethodDescriptor method,
      Message request, byte[] startKey, byte[] endKey,
      R responsePrototype) {
    throw coprocessorRefusal();
  }

  @Override
  public <R extends Message> void batchCoprocessorService(
      MethodDescriptor method,
      Message request, byte[] startKey, byte[] endKey,
      R responsePrototype, Batch.Callback<R> callback) {
    throw coprocessorRefusal();
  }

  private UnsupportedOperationException coprocessorRefusal() {
    return new UnsupportedOperationException(
        "table " + table + ": raw coprocessor calls would bypass CryptoWorker's encoding and"
            + " see only ciphertext; call them on unwrap() if that is what you mean");
  }
}
