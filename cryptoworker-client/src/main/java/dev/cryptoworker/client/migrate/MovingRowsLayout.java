package dev.cryptoworker.client.migrate;

import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.cell.CellLayout;
import dev.cryptoworker.client.cell.DecodingResultScanner;
import dev.cryptoworker.client.cell.PlainRowRange;
import dev.cryptoworker.client.cell.ResultDecoder;
import dev.cryptoworker.client.cell.ScanPlan;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.BulkLoadBatch;
import dev.cryptoworker.client.spi.MergedRows;
import dev.cryptoworker.client.spi.OneByOneBatch;
import dev.cryptoworker.client.spi.StorageLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.coprocessor.Batch;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table whose rows a migration is moving to new stored keys (its row key's protection or the key
 * of its row keys changes): each logical row may be stored in the old form, the new form, or both
 * for a moment. Writes go to the new form; reads merge both; deletes remove both. Operations that
 * must act on one stored row atomically (checkAndMutate, increment, append, mutateRow) and
 * aggregations are refused until the migration is done.
 *
 * <p>Scans read the whole table and evaluate row ranges, filters and limits on the client. A row
 * is returned once: where its old form is (merged with its new form), or where its new form is if
 * it has no old form; a row whose old form vanished while the scan ran is fetched at the end. The
 * scan remembers the keys of the rows it returned to that end.
 */
public final class MovingRowsLayout implements StorageLayout {
  private static final Logger LOG = LoggerFactory.getLogger(SecureTable.class);

  private final Table raw;
  private final TableCodec codec;
  private final CellLayout current;
  private final CellLayout previous;
  private final SecureTableOptions options;

  public MovingRowsLayout(Table raw, TableCodec codec, SecureTableOptions options, ExecutorService pool) {
    this.raw = raw;
    this.codec = codec;
    this.options = options;
    // Single puts take the batch path while rows move (no count cells carried).
    this.current = new CellLayout(raw, codec, options, pool, false);
    this.previous = new CellLayout(raw, codec.previousForm().orElseThrow(), options, pool, false);
  }

  private UnsupportedSecureOperationException refused(String operation) {
    return new UnsupportedSecureOperationException(codec.table(), operation,
        "the table's rows are moving to new stored keys (a migration), so one logical row may be two stored rows"
            + " that no single atomic operation spans; retry when the migration is done");
  }

  @Override
  public List<Table> storedTables() {
    return current.storedTables();
  }

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    Result[] now = current.get(gets);
    Result[] before = previous.get(gets);
    Result[] out = new Result[gets.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = merge(now[i], before[i]);
    }
    return out;
  }

  /** The union of a row's cells in both forms; of two cells of one column and timestamp, the new form's. */
  static Result merge(Result now, Result before) {
    if (before == null || before.isEmpty()) {
      return now;
    }
    if (now == null || now.isEmpty()) {
      return before;
    }
    List<Cell> cells = new ArrayList<>(now.size() + before.size());
    cells.addAll(List.of(now.rawCells()));
    cells.addAll(List.of(before.rawCells()));
    // A stable sort keeps the new form's cell first among equal keys; drop the later duplicates.
    cells.sort(CellComparator.getInstance());
    List<Cell> out = new ArrayList<>(cells.size());
    for (Cell c : cells) {
      Cell last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last == null || CellComparator.getInstance().compare(last, c) != 0) {
        out.add(c);
      }
    }
    return Result.create(out);
  }

  @Override
  public boolean[] exists(List<Get> gets) throws IOException {
    Result[] rows = get(gets);
    boolean[] out = new boolean[rows.length];
    for (int i = 0; i < rows.length; i++) {
      out[i] = rows[i] != null && !rows[i].isEmpty();
    }
    return out;
  }

  @Override
  public void put(List<Put> puts) throws IOException {
    current.put(puts);
  }

  @Override
  public void delete(List<Delete> deletes) throws IOException {
    List<Delete> copies = new ArrayList<>(deletes.size());
    for (Delete d : deletes) {
      copies.add(new Delete(d));
    }
    current.delete(deletes);
    previous.delete(copies);
  }

  @Override
  public Result mutateRow(RowMutations mutations) throws IOException {
    throw refused("mutateRow");
  }

  @Override
  public Result append(Append append) throws IOException {
    throw refused("append");
  }

  @Override
  public Result increment(Increment increment) throws IOException {
    throw refused("increment");
  }

  @Override
  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException {
    throw refused("checkAndMutate");
  }

  @Override
  public AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    throw refused("aggregate");
  }

  @Override
  public NavigableMap<byte[], AggregateResult> aggregateBy(Scan scan, byte[] family, byte[] qualifier,
      byte[] groupFamily, byte[] groupQualifier) throws IOException {
    throw refused("aggregateBy");
  }

  /** Runs each action on its own: puts, deletes and gets as above; anything else is refused. */
  @Override
  public <R> void batch(List<? extends Row> actions, Object[] results, Batch.Callback<R> callback) throws IOException {
    OneByOneBatch.run(this, codec.table(), "migrating (rows moving)", actions, results, callback);
  }


  @Override
  public SecureResultScanner getScanner(Scan scan, byte[] storedStartRow, byte[] storedStopRow)
      throws UnsupportedSecureOperationException {
    throw new UnsupportedSecureOperationException(codec.table(), "scan of a stored-key range",
        "the table's rows are moving to new stored keys (a migration), so one logical row may be stored in two"
            + " ranges and would be read twice; run split work (MapReduce) when the migration is done");
  }

  @Override
  public BulkLoadBatch encodeForBulkLoad(List<Put> puts) throws UnsupportedSecureOperationException {
    throw new UnsupportedSecureOperationException(codec.table(), "bulk load",
        "the table's rows are moving to new stored keys (a migration), so loaded rows could land beside an old"
            + " form of the same row; bulk load when the migration is done");
  }

  @Override
  public SecureResultScanner getScanner(Scan scan) throws IOException {
    ScanPlan plan = scanPlan(scan);
    if (codec.firstClientSideScan(plan.clientSideReason())) {
      LOG.warn("Table {}: scans read the whole table and evaluate on the client while its rows move to new"
          + " stored keys (migration). Further such scans are logged at DEBUG.", codec.table());
    }
    return new DecodingResultScanner(new MergedRows(raw.getScanner(plan.serverScan()), scan), row -> row, plan,
        codec.table());
  }

  @Override
  public QueryPlan plan(Scan scan) throws IOException {
    return scanPlan(scan).toQueryPlan(codec.table());
  }

  private ScanPlan scanPlan(Scan scan) throws IOException {
    if (scan.isReversed() || scan.getBatch() > 0 || scan.getAllowPartialResults()) {
      throw refused("reversed or partial-row scan");
    }
    String reason = "rows moving to new stored keys (migration)";
    Scan stored = new Scan().readAllVersions().setCaching(scan.getCaching() > 0 ? scan.getCaching() : 100)
        .setTimeRange(scan.getTimeRange().getMin(), scan.getTimeRange().getMax());
    for (byte[] family : scan.getFamilyMap().keySet()) {
      stored.addFamily(family);
    }
    boolean hasRange = scan.getStartRow().length > 0 || scan.getStopRow().length > 0;
    return new ScanPlan(stored, scan.getFilter() == null ? null : CellLayout.copyOf(scan.getFilter()),
        hasRange ? PlainRowRange.of(scan) : null, scan.getLimit(), reason,
        SecureScans.skipsUndecodableRows(scan, options), null);
  }

  /** Logical rows of a whole-table scan over both stored forms, each once (see the class comment). */
  private final class MergedRows implements ResultScanner {
    private final ResultScanner stored;
    private final Scan scan;
    private final ResultDecoder newForm = new ResultDecoder(codec);
    private final ResultDecoder oldForm = new ResultDecoder(codec.previousForm().orElseThrow());
    private final Set<ByteBuffer> returned = new HashSet<>();
    private final Set<ByteBuffer> deferred = new HashSet<>();
    private Iterator<ByteBuffer> leftovers;

    MergedRows(ResultScanner stored, Scan scan) {
      this.stored = stored;
      this.scan = scan;
    }

    private Get get(byte[] row) throws IOException {
      Get get = new Get(row).readAllVersions().setTimeRange(scan.getTimeRange().getMin(), scan.getTimeRange().getMax());
      for (byte[] family : scan.getFamilyMap().keySet()) {
        get.addFamily(family);
      }
      return get;
    }

    @Override
    public Result next() throws IOException {
      for (Result raw = stored.next(); raw != null; raw = stored.next()) {
        Result row = nextOf(raw);
        if (row != null) {
          return select(row);
        }
      }
      if (leftovers == null) {
        leftovers = new ArrayList<>(deferred).iterator();
      }
      while (leftovers.hasNext()) {
        ByteBuffer key = leftovers.next();
        if (!returned.contains(key)) {
          Result row = MovingRowsLayout.this.get(List.of(get(Bytes.getBytes(key))))[0];
          if (row != null && !row.isEmpty()) {
            returned.add(key);
            return select(row);
          }
        }
      }
      return null;
    }

    private Result nextOf(Result raw) throws IOException {
      Result logical;
      boolean old = false;
      try {
        logical = newForm.decode(raw);
      } catch (CellDecodingException notNewForm) {
        try {
          logical = oldForm.decode(raw);
          old = true;
        } catch (CellDecodingException notOldFormEither) {
          throw notNewForm;
        }
      }
      ByteBuffer key = ByteBuffer.wrap(logical.getRow());
      if (returned.contains(key)) {
        return null;
      }
      if (old) {
        returned.add(key);
        deferred.remove(key);
        return merge(current.get(List.of(get(logical.getRow())))[0], logical);
      }
      if (!previous.get(List.of(get(logical.getRow())))[0].isEmpty()) {
        deferred.add(key); // returned where its old form is, or at the end if that vanishes first
        return null;
      }
      returned.add(key);
      return logical;
    }

    /** The scan's columns and versions of a merged row. */
    private Result select(Result row) {
      Map<byte[], NavigableSet<byte[]>> columns = scan.getFamilyMap();
      int versions = scan.getMaxVersions();
      List<Cell> out = new ArrayList<>();
      byte[] lastFamily = null;
      byte[] lastQualifier = null;
      int seen = 0;
      for (Cell c : row.rawCells()) {
        byte[] family = CellUtil.cloneFamily(c);
        byte[] qualifier = CellUtil.cloneQualifier(c);
        NavigableSet<byte[]> wanted = columns.get(family);
        if (!columns.isEmpty() && (!columns.containsKey(family) || (wanted != null && !wanted.contains(qualifier)))) {
          continue;
        }
        if (Bytes.equals(family, lastFamily) && Bytes.equals(qualifier, lastQualifier)) {
          seen++;
        } else {
          seen = 1;
          lastFamily = family;
          lastQualifier = qualifier;
        }
        if (seen <= versions) {
          out.add(c);
        }
      }
      return Result.create(out);
    }

    @Override
    public void close() {
      stored.close();
    }

    @Override
    public boolean renewLease() {
      return stored.renewLease();
    }

    @Override
    public ScanMetrics getScanMetrics() {
      return stored.getScanMetrics();
    }
  }

  @Override
  public void close() throws IOException {
    current.close();
  }
}
