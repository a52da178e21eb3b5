package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.aggregate.AggregationClient;
import dev.cryptoworker.client.codec.ColumnExpansion;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.BulkLoadBatch;
import dev.cryptoworker.client.spi.OneByOneBatch;
import dev.cryptoworker.client.spi.PreparedBatch;
import dev.cryptoworker.client.spi.StorageLayout;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion.CellValue;
import dev.cryptoworker.cryptobox.expansion.Recount;
import dev.cryptoworker.region.CountCellsFirst;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.coprocessor.Batch;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layout of one encrypted stored cell per logical cell (plus the extra cells a column's
 * {@link ColumnExpansion} keeps), in one table of one cluster: each logical operation is encoded
 * into one stored operation ({@link OperationEncoder}, {@link ScanPlanner}) and each stored result
 * decoded ({@link ResultDecoder}).
 */
public final class CellLayout implements StorageLayout {
  private static final Logger LOG = LoggerFactory.getLogger(SecureTable.class);

  private final Table raw;
  private final TableCodec codec;
  private final OperationEncoder encoder;
  private final ScanPlanner planner;
  private final ResultDecoder decoder;
  private final AggregationClient aggregations;
  private final RegionFanOut regions;
  private final boolean countsBesideRows;

  /**
   * @param countsBesideRows whether the table is on the cluster of the counter table, so that a
   *     single put's count cells can travel to its region ({@link #putCarryingCountCells})
   */
  public CellLayout(Table raw, TableCodec codec, SecureTableOptions options, ExecutorService pool,
      boolean countsBesideRows) {
    this.raw = raw;
    this.countsBesideRows = countsBesideRows;
    this.codec = codec;
    FilterTranslator filters = new FilterTranslator(codec, options);
    this.encoder = new OperationEncoder(codec, filters);
    this.planner = new ScanPlanner(codec, encoder, filters);
    this.decoder = new ResultDecoder(codec);
    this.regions = new RegionFanOut(raw, pool);
    this.aggregations = new AggregationClient(codec, planner, regions);
  }

  @Override
  public List<Table> storedTables() {
    return List.of(raw);
  }

  /** Encodes one operation. */
  @FunctionalInterface
  private interface Encoding<I, O> {
    O encode(I operation) throws IOException;
  }

  private static <I, O> List<O> encodeAll(List<? extends I> operations, Encoding<I, O> encoding) throws IOException {
    List<O> out = new ArrayList<>(operations.size());
    for (I operation : operations) {
      out.add(encoding.encode(operation));
    }
    return out;
  }

  // A single operation goes through HBase's single-operation call, which reports errors unwrapped.

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    if (gets.size() == 1) {
      return new Result[] {decoder.decode(raw.get(encoder.encode(gets.get(0))))};
    }
    return decoder.decode(raw.get(encodeAll(gets, encoder::encode)));
  }

  @Override
  public boolean[] exists(List<Get> gets) throws IOException {
    if (gets.size() == 1) {
      return new boolean[] {raw.exists(encoder.encode(gets.get(0)))};
    }
    return raw.exists(encodeAll(gets, encoder::encode));
  }

  @Override
  public SecureResultScanner getScanner(Scan scan) throws IOException {
    ScanPlan plan = scanPlan(scan);
    if (plan.searchesIndex()) {
      return new DecodingResultScanner(new ListResultScanner(regions.scanEachRegion(plan.serverScan())), decoder, plan,
          codec.table(), this::currentValue);
    }
    return new DecodingResultScanner(raw.getScanner(plan.serverScan()), decoder, plan, codec.table());
  }

  @Override
  public SecureResultScanner getScanner(Scan scan, byte[] storedStartRow, byte[] storedStopRow) throws IOException {
    if (scan.isReversed()) {
      throw new UnsupportedSecureOperationException(codec.table(), codec.describeRowKey(),
          "a scan of a stored-key range runs forward only (it serves work split by region, such as MapReduce);"
              + " use getScanner(Scan) for reversed scans");
    }
    ScanPlan plan = scanPlan(scan);
    Scan piece = RegionFanOut.within(plan.serverScan(), storedStartRow, storedStopRow);
    ResultScanner stored = piece == null ? new ListResultScanner(List.of()) : raw.getScanner(piece);
    return new DecodingResultScanner(stored, decoder, plan, codec.table(), this::currentValue);
  }

  /** The current decrypted value of one column of {@code row}, or null (for a search's row check). */
  private byte[] currentValue(byte[] row, byte[] family, byte[] qualifier) throws IOException {
    Cell cell = decoder.decode(raw.get(encoder.encode(new Get(row).addColumn(family, qualifier))))
        .getColumnLatestCell(family, qualifier);
    return cell == null ? null : CellUtil.cloneValue(cell);
  }

  @Override
  public QueryPlan plan(Scan scan) throws IOException {
    return planner.plan(scan).toQueryPlan(codec.table());
  }

  /** Plans {@code scan}, saying so when part of it runs on the client. */
  private ScanPlan scanPlan(Scan scan) throws IOException {
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
        plan = plan.withResidualFilter(copyOf(plan.residualFilter()));
      }
    }
    return plan;
  }

  /** A fresh copy of {@code filter} (filters keep per-scan state). */
  public static Filter copyOf(Filter filter) throws IOException {
    return ProtobufUtil.toFilter(ProtobufUtil.toFilter(filter));
  }

  /**
   * Takes the search-index entries of all of {@code puts} at once, as a batch put does, all for the
   * table's one cluster; what the entries must have written goes with the batch, for the load to
   * store first, and the regions read back only the files of index cells.
   */
  @Override
  public BulkLoadBatch encodeForBulkLoad(List<Put> puts) throws IOException {
    List<Put> stored = takingSearchEntries(puts, true, () -> encodeAll(puts, encoder::encode));
    encoder.endBatch();
    BulkLoadBatch batch = BulkLoadBatch.onCluster(codec.schema().layout().clusters().get(0), stored);
    Optional<BulkLoadBatch.CellsOfTable> first = encoder.releaseSearchEntriesForBulkLoad();
    if (first.isPresent()) {
      batch = batch.loadingFirst(first.get());
    }
    return codec.hasSearchIndex() ? batch.readingBack(codec.searchIndex().orElseThrow()::isReadBackAfterLoad) : batch;
  }

  @Override
  public void put(List<Put> puts) throws IOException {
    if (puts.size() == 1 && codec.hasSearchIndex() && countsBesideRows) {
      putCarryingCountCells(puts.get(0));
      return;
    }
    // A batch waits for its search-index count cells (formats 6 and 7) before its rows go out: sent
    // at once, a writer that died between the two would leave stored rows no search finds.
    raw.put(encodeBatch(puts, encoder::encode));
  }

  /**
   * One put on a table with a search index, in one round trip when it can: the count cells its
   * entries need stored before the row (formats 6 and 7) travel in the put, and its region writes
   * them first ({@link CountCellsFirst}), if their counter regions are on the row's server (by the
   * cached locations). Otherwise this writes them, then the row: from another server the region's
   * write would cost what this one does (single-put-processes-8896d62.md) and hold one of its
   * handlers meanwhile.
   */
  private void putCarryingCountCells(Put put) throws IOException {
    Put row = takingSearchEntries(List.of(put), true, () -> encoder.encode(put));
    encoder.endBatch();
    Optional<BulkLoadBatch.CellsOfTable> first = encoder.releaseSearchEntriesForBulkLoad();
    if (first.isPresent()) {
      try (Table counters = first.get().table()) {
        if (!onServerOf(row, counters, first.get().cells())) {
          try {
            counters.put(first.get().cells());
          } catch (IOException e) {
            throw new IOException("table " + codec.table() + ": search-index entry counts were not written to "
                + counters.getName() + ", so the row was not sent", e);
          }
          raw.put(row);
          return;
        }
        row.addColumn(CountCellsFirst.FAMILY, counters.getName().getName(), CountCellsFirst.encode(cellsOf(first.get())));
      }
    }
    try {
      raw.put(row);
    } catch (NoSuchColumnFamilyException e) {
      if (first.isEmpty() || !String.valueOf(e.getMessage()).contains(Bytes.toString(CountCellsFirst.FAMILY))) {
        throw e;
      }
      throw new UnsupportedSecureOperationException(codec.table(), "its searchable columns",
          "the region servers run a CryptoWorker observer older than this client, which cannot write a put's count"
              + " cells before its row; nothing was stored. Deploy this version's cryptoworker-coprocessor jar");
    }
  }

  /** Whether the cached locations put every one of {@code counts}' counter regions on {@code row}'s server. */
  private boolean onServerOf(Put row, Table counters, List<Put> counts) throws IOException {
    try (RegionLocator rows = raw.getRegionLocator(); RegionLocator counterRegions = counters.getRegionLocator()) {
      ServerName server = rows.getRegionLocation(row.getRow()).getServerName();
      for (Put count : counts) {
        if (!server.equals(counterRegions.getRegionLocation(count.getRow()).getServerName())) {
          return false;
        }
      }
      return true;
    }
  }

  private static List<CountCellsFirst.CounterCell> cellsOf(BulkLoadBatch.CellsOfTable counts) {
    List<CountCellsFirst.CounterCell> cells = new ArrayList<>();
    for (Put count : counts.cells()) {
      for (List<Cell> family : count.getFamilyCellMap().values()) {
        for (Cell c : family) {
          cells.add(new CountCellsFirst.CounterCell(CellUtil.cloneRow(c), CellUtil.cloneFamily(c),
              CellUtil.cloneQualifier(c), c.getTimestamp(), CellUtil.cloneValue(c)));
        }
      }
    }
    return cells;
  }

  /** Encodes a batch, taking the search-index entry numbers of all its puts in one round trip. */
  private <I extends Row, O> List<O> encodeBatch(List<? extends I> operations, Encoding<I, O> encoding)
      throws IOException {
    return withSearchEntries(operations, () -> encodeAll(operations, encoding));
  }

  /** Work done with the search-index entries of a batch taken ahead. */
  private interface WithEntries<T> {
    T run() throws IOException;
  }

  /**
   * Takes the search-index entries of {@code operations} ahead, runs {@code work}, and releases
   * them whatever happens (numbers taken before a failure must not outlive this batch: forward
   * privacy), waiting for their count cells; a failed release does not hide a failure of the work.
   * Expansions that plan batches see the whole batch first ({@link OperationEncoder#beginBatch}).
   */
  private <T> T withSearchEntries(List<? extends Row> operations, WithEntries<T> work) throws IOException {
    T out = takingSearchEntries(operations, false, work);
    encoder.endBatch();
    encoder.releaseSearchEntries();
    return out;
  }

  /**
   * Begins the batch ({@link OperationEncoder#beginBatch}), takes the search-index entries of
   * {@code operations} ahead and runs {@code work}; if any fails, releases the entries (a failed
   * release does not hide the failure) and ends the batch. On success the caller ends the batch
   * and releases the entries.
   */
  private <T> T takingSearchEntries(List<? extends Row> operations, boolean forBulkLoad, WithEntries<T> work)
      throws IOException {
    try {
      encoder.beginBatch(operations);
      encoder.takeSearchEntriesAhead(operations, forBulkLoad);
      return work.run();
    } catch (IOException | RuntimeException e) {
      try {
        encoder.releaseSearchEntries();
      } catch (IOException | RuntimeException released) {
        e.addSuppressed(released);
      } finally {
        encoder.endBatch();
      }
      throw e;
    }
  }

  /** Reads each family's counted cells ({@link ColumnExpansion#recount}) and gives them to its re-count. */
  @Override
  public long recountSharedCounts() throws IOException {
    long moved = 0;
    for (String name : codec.schema().families().keySet()) {
      byte[] family = Bytes.toBytes(name);
      Optional<Recount> recount = codec.expansion(family).recount();
      if (recount.isPresent()) {
        count(family, recount.get());
        moved += recount.get().finish();
      }
    }
    return moved;
  }

  private void count(byte[] family, Recount recount) throws IOException {
    Scan scan = new Scan();
    for (byte[] q : recount.qualifiers()) {
      scan.addColumn(family, q);
    }
    try (ResultScanner rows = raw.getScanner(scan)) {
      for (Result stored : rows) {
        byte[] row = codec.decodeRow(stored.getRow());
        for (Cell c : stored.rawCells()) {
          try {
            recount.add(row, new CellValue(CellUtil.cloneQualifier(c), c.getTimestamp(), CellUtil.cloneValue(c)));
          } catch (GeneralSecurityException e) {
            throw new CellDecodingException(codec.table(), codec.printableRow(row),
                codec.describeColumn(family, CellUtil.cloneQualifier(c)), e.getMessage());
          }
        }
      }
    }
  }

  @Override
  public void delete(List<Delete> deletes) throws IOException {
    if (deletes.size() == 1) {
      raw.delete(encoder.encode(deletes.get(0)));
    } else {
      raw.delete(encodeAll(deletes, encoder::encode));
    }
  }

  @Override
  public Result mutateRow(RowMutations mutations) throws IOException {
    return decoder.decode(raw.mutateRow(encoder.encode(mutations)));
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
  public <R> void batch(List<? extends Row> actions, Object[] results, Batch.Callback<R> callback)
      throws IOException, InterruptedException {
    send(actions, encodeForBatch(actions), results, callback);
  }

  /** Encodes now (and takes SSE entry numbers); the stored cells do not depend on earlier writes. */
  @Override
  public PreparedBatch prepareBatch(List<? extends Row> actions) throws IOException {
    EncodedBatch encoded = encodeForBatch(actions);
    return results -> send(actions, encoded, results, null);
  }

  /**
   * A batch's stored actions, the position of each among the caller's actions, and the failure of
   * each action that could not be encoded (null for the others).
   */
  private record EncodedBatch(List<Row> actions, int[] positions, Object[] failures) {}

  private EncodedBatch encodeForBatch(List<? extends Row> actions) throws IOException {
    // Each action is encoded on its own: one that cannot be (a family the schema lacks, a value of
    // the wrong type) fails alone, in its result, like an action the servers refuse.
    List<Row> encoded = new ArrayList<>(actions.size());
    int[] positions = new int[actions.size()];
    Object[] failures = new Object[actions.size()];
    withSearchEntries(actions, () -> {
      for (int i = 0; i < actions.size(); i++) {
        try {
          encoded.add(encoder.encodeAction(actions.get(i)));
          positions[encoded.size() - 1] = i;
        } catch (IOException | RuntimeException e) {
          failures[i] = e;
        }
      }
      return null;
    });
    return new EncodedBatch(encoded, positions, failures);
  }

  private <R> void send(List<? extends Row> actions, EncodedBatch batch, Object[] results, Batch.Callback<R> callback)
      throws IOException, InterruptedException {
    System.arraycopy(batch.failures(), 0, results, 0, actions.size());
    List<Row> encoded = batch.actions();
    int[] positions = batch.positions();
    Object[] sent = new Object[encoded.size()];
    try {
      if (callback == null) {
        raw.batch(encoded, sent);
      } else {
        // The callback names rows: map stored rows back to the caller's.
        Map<ByteBuffer, byte[]> plainRows = new HashMap<>();
        for (int j = 0; j < encoded.size(); j++) {
          plainRows.put(ByteBuffer.wrap(encoded.get(j).getRow()), actions.get(positions[j]).getRow());
        }
        raw.batchCallback(encoded, sent, (region, storedRow, result) -> {
          Object decoded = result instanceof Result ? decodeOrError((Result) result) : result;
          @SuppressWarnings("unchecked")
          R typed = (R) decoded;
          callback.update(region, plainRows.getOrDefault(ByteBuffer.wrap(storedRow), storedRow), typed);
        });
      }
    } catch (RetriesExhaustedWithDetailsException e) {
      // The failed actions' causes are in their results; reported below with the encoding failures.
    } finally {
      decodeBatchResults(sent);
      for (int j = 0; j < sent.length; j++) {
        results[positions[j]] = sent[j];
      }
    }
    OneByOneBatch.throwIfAnyFailed(actions, results);
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

  @Override
  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException {
    List<CheckAndMutateResult> out = new ArrayList<>(checkAndMutates.size());
    if (checkAndMutates.size() == 1) {
      CheckAndMutateResult r = raw.checkAndMutate(encoder.encode(checkAndMutates.get(0)));
      out.add(new CheckAndMutateResult(r.isSuccess(), decoder.decode(r.getResult())));
      return out;
    }
    for (CheckAndMutateResult r : raw.checkAndMutate(encodeAll(checkAndMutates, encoder::encode))) {
      out.add(new CheckAndMutateResult(r.isSuccess(), decoder.decode(r.getResult())));
    }
    return out;
  }

  @Override
  public AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    return aggregations.aggregate(scan, family, qualifier);
  }

  @Override
  public NavigableMap<byte[], AggregateResult> aggregateBy(
      Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) throws IOException {
    return aggregations.aggregateBy(scan, family, qualifier, groupFamily, groupQualifier);
  }

  @Override
  public QueryPlan plan(Scan scan, AggregateQuery query) throws IOException {
    return aggregations.plan(scan, query);
  }

  @Override
  public List<AggregateGroup> aggregateRange(Scan scan, AggregateQuery query, byte[] storedStartRow,
      byte[] storedStopRow) throws IOException {
    return aggregations.aggregateRange(scan, query, storedStartRow, storedStopRow);
  }

  @Override
  public void close() throws IOException {
    raw.close();
  }
}
