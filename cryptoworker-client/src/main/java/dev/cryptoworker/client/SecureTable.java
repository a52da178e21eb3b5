package dev.cryptoworker.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
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
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.coprocessor.Batch;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.ipc.CoprocessorRpcChannel;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Table} that encrypts per its {@link dev.cryptoworker.schema.TableSchema}: every
 * operation is encoded before HBase sees it and every result decoded before the caller does.
 *
 * <p>Obtain one from {@link SecureConnection#getSecureTable(TableName)}. Like HBase's own tables it
 * is lightweight and not meant to be shared between threads; the {@link SecureConnection} is.
 *
 * <p>Every {@code Table} method is overridden: what cannot be done on ciphertext is refused with
 * {@link UnsupportedSecureOperationException}, never forwarded unencrypted. Decoding failures
 * throw {@link CellDecodingException}.
 */
public final class SecureTable implements Table {
  private static final Logger LOG = LoggerFactory.getLogger(SecureTable.class);

  private final Table raw;
  private final TableCodec codec;
  private final OperationEncoder encoder;
  private final ScanPlanner planner;
  private final ResultDecoder decoder;
  private final AggregationRunner aggregations;

  SecureTable(Table raw, TableCodec codec, SecureTableOptions options, java.util.concurrent.ExecutorService pool) {
    this.raw = raw;
    this.codec = codec;
    FilterTranslator filters = new FilterTranslator(codec, options);
    this.encoder = new OperationEncoder(codec, filters);
    this.planner = new ScanPlanner(codec, encoder, filters);
    this.decoder = new ResultDecoder(codec);
    this.aggregations = new AggregationRunner(raw, codec, planner, pool);
  }

  /** The plain HBase table underneath, which sees only ciphertext. */
  public Table unwrap() {
    return raw;
  }

  // ---- aggregates: the region-side Process step

  /**
   * Sum, count and average of {@code family:qualifier} over the rows {@code scan} selects (row
   * range and server-side filters: DET equality, OPE ranges, PLAIN). Each region adds its values
   * in the CryptoWorker coprocessor (ASHE: over ciphertext, without keys), in parallel; the client
   * merges and decrypts. ASHE and PLAIN (8-byte long or 4-byte int) columns only. For a measure
   * splayed by a SPLASHE dimension, a top-level {@code dimension EQUAL value} condition (alone or
   * in an AND list) is answered from the splayed columns: sum of {@code measure|value}, count from
   * the {@code dimension|value} indicators.
   *
   * @throws UnsupportedSecureOperationException for other boxes, or a scan that would need
   *     client-side evaluation
   */
  public AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    return aggregations.aggregate(scan, family, qualifier);
  }

  /**
   * Like {@link #aggregate}, per value of {@code groupFamily:groupQualifier} (a DET, OPE without
   * companion, or PLAIN column): the region servers group by stored bytes, the client decrypts the
   * group keys. Rows without the group column are not counted. Keys in unsigned byte order.
   */
  public java.util.NavigableMap<byte[], AggregateResult> aggregateBy(
      Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) throws IOException {
    java.util.Objects.requireNonNull(groupFamily, "groupFamily");
    java.util.Objects.requireNonNull(groupQualifier, "groupQualifier");
    return aggregations.aggregateBy(scan, family, qualifier, groupFamily, groupQualifier);
  }

  // ---- metadata and settings: passed through

  @Override
  public TableName getName() {
    return raw.getName();
  }

  @Override
  public Configuration getConfiguration() {
    return raw.getConfiguration();
  }

  @Override
  public TableDescriptor getDescriptor() throws IOException {
    return raw.getDescriptor();
  }

  @Override
  @Deprecated
  public org.apache.hadoop.hbase.HTableDescriptor getTableDescriptor() throws IOException {
    return raw.getTableDescriptor();
  }

  @Override
  public RegionLocator getRegionLocator() throws IOException {
    return raw.getRegionLocator();
  }

  @Override
  public long getRpcTimeout(TimeUnit unit) {
    return raw.getRpcTimeout(unit);
  }

  @Override
  @Deprecated
  public int getRpcTimeout() {
    return raw.getRpcTimeout();
  }

  @Override
  @Deprecated
  public void setRpcTimeout(int rpcTimeout) {
    raw.setRpcTimeout(rpcTimeout);
  }

  @Override
  public long getReadRpcTimeout(TimeUnit unit) {
    return raw.getReadRpcTimeout(unit);
  }

  @Override
  @Deprecated
  public int getReadRpcTimeout() {
    return raw.getReadRpcTimeout();
  }

  @Override
  @Deprecated
  public void setReadRpcTimeout(int readRpcTimeout) {
    raw.setReadRpcTimeout(readRpcTimeout);
  }

  @Override
  public long getWriteRpcTimeout(TimeUnit unit) {
    return raw.getWriteRpcTimeout(unit);
  }

  @Override
  @Deprecated
  public int getWriteRpcTimeout() {
    return raw.getWriteRpcTimeout();
  }

  @Override
  @Deprecated
  public void setWriteRpcTimeout(int writeRpcTimeout) {
    raw.setWriteRpcTimeout(writeRpcTimeout);
  }

  @Override
  public long getOperationTimeout(TimeUnit unit) {
    return raw.getOperationTimeout(unit);
  }

  @Override
  @Deprecated
  public int getOperationTimeout() {
    return raw.getOperationTimeout();
  }

  @Override
  @Deprecated
  public void setOperationTimeout(int operationTimeout) {
    raw.setOperationTimeout(operationTimeout);
  }

  @Override
  public Map<String, byte[]> getRequestAttributes() {
    return raw.getRequestAttributes();
  }

  @Override
  public void close() throws IOException {
    raw.close();
  }

  // ---- reads

  @Override
  public Result get(Get get) throws IOException {
    return decoder.decode(raw.get(encoder.encode(get)));
  }

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    List<Get> encoded = new ArrayList<>(gets.size());
    for (Get g : gets) {
      encoded.add(encoder.encode(g));
    }
    return decoder.decode(raw.get(encoded));
  }

  @Override
  public boolean exists(Get get) throws IOException {
    return raw.exists(encoder.encode(get));
  }

  @Override
  public boolean[] exists(List<Get> gets) throws IOException {
    List<Get> encoded = new ArrayList<>(gets.size());
    for (Get g : gets) {
      encoded.add(encoder.encode(g));
    }
    return raw.exists(encoded);
  }

  @Override
  @Deprecated
  public boolean[] existsAll(List<Get> gets) throws IOException {
    return exists(gets);
  }

  @Override
  public ResultScanner getScanner(Scan scan) throws IOException {
    ScanPlan plan = planner.plan(scan);
    if (plan.evaluatesOnClient()) {
      // Once per table and reason at WARN (the caller opted in, but should know the cost), then DEBUG.
      if (codec.firstClientSideScan(plan.clientSideReason())) {
        LOG.warn(
            "Table {}: scans evaluated on the client ({}); fetching and decrypting rows the server"
                + " cannot select. Further such scans are logged at DEBUG.",
            codec.table(), plan.clientSideReason());
      } else {
        LOG.debug("Table {}: scan evaluated on the client ({})", codec.table(), plan.clientSideReason());
      }
      if (plan.residualFilter() != null) {
        // Filters keep per-scan state; never run the caller's instance.
        plan =
            new ScanPlan(plan.serverScan(), copyOf(plan.residualFilter()), plan.rowRange(), plan.limit(),
                plan.clientSideReason());
      }
    }
    return new DecodingResultScanner(raw.getScanner(plan.serverScan()), decoder, plan);
  }

  private static Filter copyOf(Filter filter) throws IOException {
    return ProtobufUtil.toFilter(ProtobufUtil.toFilter(filter));
  }

  @Override
  public ResultScanner getScanner(byte[] family) throws IOException {
    return getScanner(new Scan().addFamily(family));
  }

  @Override
  public ResultScanner getScanner(byte[] family, byte[] qualifier) throws IOException {
    return getScanner(new Scan().addColumn(family, qualifier));
  }

  // ---- writes

  @Override
  public void put(Put put) throws IOException {
    raw.put(encoder.encode(put));
  }

  @Override
  public void put(List<Put> puts) throws IOException {
    List<Put> encoded = new ArrayList<>(puts.size());
    for (Put p : puts) {
      encoded.add(encoder.encode(p));
    }
    raw.put(encoded);
  }

  @Override
  public void delete(Delete delete) throws IOException {
    raw.delete(encoder.encode(delete));
  }

  /** Deletes all; as in HBase, {@code deletes} is left holding nothing on success. */
  @Override
  public void delete(List<Delete> deletes) throws IOException {
    List<Delete> encoded = new ArrayList<>(deletes.size());
    for (Delete d : deletes) {
      encoded.add(encoder.encode(d));
    }
    raw.delete(encoded);
    deletes.clear();
  }

  @Override
  public Result mutateRow(RowMutations rm) throws IOException {
    return decoder.decode(raw.mutateRow(encoder.encode(rm)));
  }

  @Override
  public Result append(Append append) throws IOException {
    return decoder.decode(raw.append(encoder.encode(append)));
  }

  @Override
  public Result increment(Increment increment) throws IOException {
    return decoder.decode(raw.increment(encoder.encode(increment)));
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
    List<Row> encoded = new ArrayList<>(actions.size());
    for (Row action : actions) {
      encoded.add(encoder.encodeAction(action));
    }
    try {
      raw.batch(encoded, results);
    } finally {
      decodeBatchResults(results);
    }
  }

  @Override
  public <R> void batchCallback(List<? extends Row> actions, Object[] results, Batch.Callback<R> callback)
      throws IOException, InterruptedException {
    List<Row> encoded = new ArrayList<>(actions.size());
    Map<ByteBuffer, byte[]> plainRows = new HashMap<>();
    for (Row action : actions) {
      Row e = encoder.encodeAction(action);
      encoded.add(e);
      plainRows.put(ByteBuffer.wrap(e.getRow()), action.getRow());
    }
    raw.batchCallback(
        encoded,
        results,
        (region, storedRow, result) -> {
          Object decoded = result instanceof Result ? decodeOrError((Result) result) : result;
          @SuppressWarnings("unchecked")
          R typed = (R) decoded;
          callback.update(region, plainRows.getOrDefault(ByteBuffer.wrap(storedRow), storedRow), typed);
        });
    decodeBatchResults(results);
  }

  private Object decodeOrError(Result r) {
    try {
      return decoder.decode(r);
    } catch (IOException e) {
      return e;
    }
  }

  /** Decodes Results in place; a row that fails to decode becomes its exception, as HBase reports. */
  private void decodeBatchResults(Object[] results) {
    for (int i = 0; i < results.length; i++) {
      if (results[i] instanceof Result) {
        results[i] = decodeOrError((Result) results[i]);
      } else if (results[i] instanceof CheckAndMutateResult) {
        CheckAndMutateResult c = (CheckAndMutateResult) results[i];
        Object r = c.getResult() == null ? null : decodeOrError(c.getResult());
        results[i] = r instanceof IOException ? r : new CheckAndMutateResult(c.isSuccess(), (Result) r);
      }
    }
  }

  // ---- conditional mutations

  @Override
  public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
    CheckAndMutateResult r = raw.checkAndMutate(encoder.encode(checkAndMutate));
    return new CheckAndMutateResult(r.isSuccess(), decoder.decode(r.getResult()));
  }

  @Override
  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException {
    List<CheckAndMutate> encoded = new ArrayList<>(checkAndMutates.size());
    for (CheckAndMutate c : checkAndMutates) {
      encoded.add(encoder.encode(c));
    }
    List<CheckAndMutateResult> out = new ArrayList<>();
    for (CheckAndMutateResult r : raw.checkAndMutate(encoded)) {
      out.add(new CheckAndMutateResult(r.isSuccess(), decoder.decode(r.getResult())));
    }
    return out;
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
      org.apache.hadoop.hbase.filter.CompareFilter.CompareOp op, byte[] value, Put put)
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
      org.apache.hadoop.hbase.filter.CompareFilter.CompareOp op, byte[] value, Delete delete)
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
      org.apache.hadoop.hbase.filter.CompareFilter.CompareOp op, byte[] value, RowMutations mutation)
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
  public <T extends org.apache.hadoop.hbase.shaded.com.google.protobuf.Service, R> Map<byte[], R> coprocessorService(
      Class<T> service, byte[] startKey, byte[] endKey, Batch.Call<T, R> callable) {
    throw coprocessorRefusal();
  }

  @Override
  public <T extends org.apache.hadoop.hbase.shaded.com.google.protobuf.Service, R> void coprocessorService(
      Class<T> service, byte[] startKey, byte[] endKey, Batch.Call<T, R> callable, Batch.Callback<R> callback) {
    throw coprocessorRefusal();
  }

  @Override
  public <R extends org.apache.hadoop.hbase.shaded.com.google.protobuf.Message> Map<byte[], R> batchCoprocessorService(
      org.apache.hadoop.hbase.shaded.com.google.protobuf.Descriptors.MethodDescriptor method,
      org.apache.hadoop.hbase.shaded.com.google.protobuf.Message request, byte[] startKey, byte[] endKey,
      R responsePrototype) {
    throw coprocessorRefusal();
  }

  @Override
  public <R extends org.apache.hadoop.hbase.shaded.com.google.protobuf.Message> void batchCoprocessorService(
      org.apache.hadoop.hbase.shaded.com.google.protobuf.Descriptors.MethodDescriptor method,
      org.apache.hadoop.hbase.shaded.com.google.protobuf.Message request, byte[] startKey, byte[] endKey,
      R responsePrototype, Batch.Callback<R> callback) {
    throw coprocessorRefusal();
  }

  private UnsupportedOperationException coprocessorRefusal() {
    return new UnsupportedOperationException(
        "table " + codec.table() + ": raw coprocessor calls would bypass CryptoWorker's encoding and"
            + " see only ciphertext; call them on unwrap() if that is what you mean");
  }
}
