package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.BulkLoadBatch;
import dev.cryptoworker.client.spi.ClientOnlyLayout;
import dev.cryptoworker.client.spi.ClientSideFilter;
import dev.cryptoworker.client.spi.LayoutContext;
import dev.cryptoworker.client.spi.MergedRows;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.client.spi.StoredUnits;
import dev.cryptoworker.sharing.PartialReads;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.ShareDecodingException;
import dev.cryptoworker.sharing.SharingKind;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SHARED layout: one logical table on n independent clusters. Row keys and qualifier names are
 * stored as the schema protects them, alike on every cluster (so a row's shares meet); every value
 * is split into n shares ({@link SecretSharing}), share i on cluster i, all with one timestamp,
 * which the client's {@link WriteClock} gives every put and delete.
 *
 * <p>Filters run on the client over decoded rows, with the caller's opt-in only (no server can
 * evaluate them on shares).
 *
 * <p>Writes (puts, deletes) go to every cluster at once and are acknowledged when at least n - r
 * clusters took them; a put that fewer took is removed again from those that did (best effort) and
 * fails. Reads ask every cluster and decode each cell from the newest version's shares (see {@link
 * ShareReconciler}): while at most r clusters are down, every acknowledged write reads back;
 * afterwards the clusters that missed writes must be repaired before a different set goes down. A
 * put conditioned on one cell ({@code checkAndMutate}) is a compare-and-set on each cluster's share
 * ({@link ConditionalPut}). A bulk load writes the shares a put would, each cluster's into its own
 * HFiles, under the same quorum ({@link #encodeForBulkLoad}).
 */
public final class SharedLayout extends ClientOnlyLayout {
  private static final Logger LOG = LoggerFactory.getLogger(SharedLayout.class);

  private final SharedTableLayout spec;
  private final ColumnSchemes schemes;
  private final List<Table> tables;
  private final ClusterCalls calls;
  private final WriteClock clock;
  private final ShareReconciler reconciler;
  private final int writeQuorum;
  private final SecureTableOptions options;
  private final ConditionalPut conditionalPut;
  private final SharedSums sums;

  /** The layout of the table {@code context} names, for one {@code SecureTable} or repair. */
  static SharedLayout open(LayoutContext context) throws IOException {
    SharedTableLayout spec = (SharedTableLayout) context.layout();
    List<Table> tables = new ArrayList<>();
    for (String cluster : spec.clusters()) {
      tables.add(context.cluster(cluster).getTable(context.table()));
    }
    // A down cluster is back when its master answers: a cluster-level call, not a read of this
    // table, which may be dropped or disabled on that cluster and would keep it skipped for every table.
    IntFunction<ClusterHealth.Probe> probes = i -> () -> {
      try (Admin admin = context.cluster(spec.clusters().get(i)).getAdmin()) {
        admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.MASTER));
      }
    };
    ClusterCalls calls = new ClusterCalls(context.pool(), context.options().clusterTimeout().toNanos(), spec.clusters(),
        context.connectionService(ClusterHealth.class, ClusterHealth::new), probes);
    return new SharedLayout(tables, context.codec(), spec, context.options(), calls,
        context.connectionService(WriteClock.class, WriteClock::new), context.pool());
  }

  private SharedLayout(List<Table> tables, TableCodec codec, SharedTableLayout spec, SecureTableOptions options,
      ClusterCalls calls, WriteClock clock, ExecutorService pool) {
    super(codec, "SHARED", "region servers cannot add shares of this scheme",
        "the table spans several clusters; not supported yet", null, "a read-modify-write across independent clusters is not atomic");
    this.spec = spec;
    this.schemes = new ColumnSchemes(spec);
    this.tables = List.copyOf(tables);
    this.calls = calls;
    this.clock = clock;
    this.reconciler = new ShareReconciler(codec, schemes, spec.parameters().r(), spec.clusters(), this::decodeJoined,
        clock::observe);
    this.writeQuorum = spec.parameters().n() - spec.parameters().r();
    this.options = options;
    this.conditionalPut = new ConditionalPut(codec, spec.clusters(), this.tables, calls, reconciler, clock, this::encode,
        this::logDegraded, writeQuorum);
    this.sums = new SharedSums(codec, spec, schemes, this.tables, pool, calls);
  }

  /**
   * Whether the column's scheme disperses its STD ciphertext (AES_RS: AES-GCM under the key
   * provider's key, bound to the cell) rather than its value.
   */
  private boolean encryptsFirst(byte[] family, byte[] qualifier) throws IOException {
    return schemes.of(family, codec.encodeQualifier(family, qualifier)).kind() == SharingKind.AES_RS;
  }

  /** The value of joined shares: AES_RS disperses the column's STD ciphertext, which this decrypts. */
  byte[] decodeJoined(byte[] row, byte[] family, byte[] qualifier, byte[] joined) throws IOException {
    return encryptsFirst(family, qualifier) ? codec.decodeValue(row, family, qualifier, joined) : joined;
  }

  /**
   * Every cluster's stored rows after {@code after} (null: from the start), merged by stored key,
   * for walks that need every cluster ({@code what}, for the message when one does not answer).
   */
  RowWalk.Rows<MergedRows> everyCluster(byte[] after, Scan scan, String what) throws IOException {
    ResultScanner[] scanners = new ResultScanner[tables.size()];
    try {
      for (int i = 0; i < scanners.length; i++) {
        Scan own = new Scan(scan);
        if (after != null) {
          own.withStartRow(after, false);
        }
        scanners[i] = tables.get(i).getScanner(own);
      }
    } catch (IOException e) {
      for (ResultScanner s : scanners) {
        if (s != null) {
          s.close();
        }
      }
      throw new IOException("table " + codec.table() + ": " + what + " needs every cluster, and one does not answer: "
          + e.getMessage(), e);
    }
    MergedRows merged = new MergedRows(scanners, false);
    return new RowWalk.Rows<>() {
      @Override
      public MergedRows next() throws IOException {
        return merged.next() ? merged : null;
      }

      @Override
      public void close() {
        merged.close();
      }
    };
  }

  /** The stored shares, for inspection and audits. */
  StoredUnits storedUnits(Collection<Integer> keysetKeyIds) {
    return new SharedUnits(this, codec, keysetKeyIds);
  }

  @Override
  public List<Table> storedTables() {
    return tables;
  }

  private int n() {
    return tables.size();
  }

  ColumnSchemes schemes() {
    return schemes;
  }

  List<String> clusterNames() {
    return spec.clusters();
  }

  // ---- writes

  private byte[][] share(byte[] row, byte[] family, byte[] qualifier, byte[] value) throws IOException {
    SecretSharing sharing = schemes.of(family, codec.encodeQualifier(family, qualifier));
    try {
      if (encryptsFirst(family, qualifier)) {
        return sharing.split(codec.encodeValue(row, family, qualifier, value), null);
      }
      codec.checkValue(family, qualifier, value);
      return sharing.split(value, null);
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + codec.table() + ": cannot share a value: " + e.getMessage(), e);
    }
  }

  /**
   * The n stored puts of {@code put}, every cell at one timestamp on every cluster: {@code now}
   * unless the caller gave one.
   */
  private Put[] encode(Put put, long now) throws IOException {
    now = stamp(put.getTimestamp(), now);
    byte[] row = put.getRow();
    codec.checkRowType(row);
    byte[] storedRow = codec.encodeRow(row);
    Put[] out = new Put[n()];
    for (int i = 0; i < out.length; i++) {
      out[i] = new Put(storedRow).setDurability(put.getDurability());
    }
    for (Map.Entry<byte[], List<Cell>> f : put.getFamilyCellMap().entrySet()) {
      for (Cell cell : f.getValue()) {
        byte[] qualifier = CellUtil.cloneQualifier(cell);
        long ts = stamp(cell.getTimestamp(), now);
        byte[] storedQualifier = codec.encodeQualifier(f.getKey(), qualifier);
        byte[][] shares = share(row, f.getKey(), qualifier, CellUtil.cloneValue(cell));
        for (int i = 0; i < out.length; i++) {
          out[i].addColumn(f.getKey(), storedQualifier, ts, shares[i]);
        }
      }
    }
    return out;
  }

  /** The stored puts of {@code puts} per cluster, in order, cells without a timestamp at {@code now}. */
  private List<List<Put>> encodePerCluster(List<Put> puts, long now) throws IOException {
    List<List<Put>> perCluster = new ArrayList<>();
    for (int i = 0; i < n(); i++) {
      perCluster.add(new ArrayList<>(puts.size()));
    }
    for (Put put : puts) {
      Put[] stored = encode(put, now);
      for (int i = 0; i < stored.length; i++) {
        perCluster.get(i).add(stored[i]);
      }
    }
    return perCluster;
  }

  /**
   * The shares {@link #put} would write, per cluster, acknowledged (as a put is) by n - r clusters;
   * cells without a timestamp keep none, for the loader to stamp them all with one {@link
   * #writeTimestamp()}, as a put stamps its cells with one.
   */
  @Override
  public BulkLoadBatch encodeForBulkLoad(List<Put> puts) throws IOException {
    List<List<Put>> perCluster = encodePerCluster(puts, HConstants.LATEST_TIMESTAMP);
    Map<String, List<Put>> byCluster = new LinkedHashMap<>();
    for (int i = 0; i < n(); i++) {
      byCluster.put(spec.clusters().get(i), perCluster.get(i));
    }
    return BulkLoadBatch.overClusters(byCluster, writeQuorum);
  }

  /** The connection's write clock: a bulk-load round comes after every write it issued or read. */
  @Override
  public long writeTimestamp() {
    return clock.next();
  }

  @Override
  public void put(List<Put> puts) throws IOException {
    List<List<Put>> perCluster = encodePerCluster(puts, clock.next());
    ClusterCalls.Outcomes<Void> outcomes = calls.onEvery(i -> {
      tables.get(i).put(perCluster.get(i));
      return null;
    });
    if (outcomes.answered() >= writeQuorum) {
      logDegraded(outcomes, "put");
      return;
    }
    // Not acknowledged: take the shares back, so that no reader meets a version too few clusters hold.
    calls.onEvery(i -> {
      List<Delete> undo = new ArrayList<>();
      for (Put stored : perCluster.get(i)) {
        Delete d = new Delete(stored.getRow());
        for (List<Cell> cells : stored.getFamilyCellMap().values()) {
          for (Cell c : cells) {
            d.addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), c.getTimestamp());
          }
        }
        undo.add(d);
      }
      tables.get(i).delete(undo);
      return null;
    });
    throw new IOException("table " + codec.table() + ": a put of " + puts.size() + " rows reached "
        + outcomes.answered() + " of " + n() + " clusters, " + writeQuorum + " needed; not written (shares taken"
        + " back where possible). Failed: " + outcomes.describeFailures(spec.clusters()));
  }

  /** A write acknowledged without some clusters: a WARN once per outage, then DEBUG until they take one again. */
  private void logDegraded(ClusterCalls.Outcomes<?> outcomes, String what) {
    List<String> newly = calls.newlyMissed(codec.table(), outcomes);
    if (outcomes.answered() == n()) {
      return;
    }
    String message = "Table {}: a {} was acknowledged by {} of {} clusters; repair the table once the others take writes"
        + " again (SharedTables.repair). Failed: {}";
    if (newly.isEmpty()) {
      LOG.debug(message, codec.table(), what, outcomes.answered(), n(), outcomes.describeFailures(spec.clusters()));
    } else {
      LOG.warn(message + ". Until {} take a write again, the writes they miss are logged at DEBUG", codec.table(),
          what, outcomes.answered(), n(), outcomes.describeFailures(spec.clusters()), newly);
    }
  }

  /**
   * The stored delete of {@code delete}, its markers at {@code now} unless the caller gave a
   * timestamp: the same on every cluster, from the client's write clock, never each cluster's own.
   */
  private Delete encode(Delete delete, long now) throws IOException {
    byte[] row = delete.getRow();
    codec.checkRowType(row);
    Delete out = new Delete(codec.encodeRow(row), stamp(delete.getTimestamp(), now));
    for (Map.Entry<byte[], List<Cell>> f : delete.getFamilyCellMap().entrySet()) {
      codec.familySchema(f.getKey()); // refuses unknown families by name
      for (Cell c : f.getValue()) {
        if (c.getQualifierLength() == 0 && (c.getType() == Cell.Type.DeleteFamily
            || c.getType() == Cell.Type.DeleteFamilyVersion)) {
          out.addFamily(f.getKey(), stamp(c.getTimestamp(), now));
        } else if (c.getType() == Cell.Type.DeleteColumn) {
          out.addColumns(f.getKey(), codec.encodeQualifier(f.getKey(), CellUtil.cloneQualifier(c)),
              stamp(c.getTimestamp(), now));
        } else {
          throw new UnsupportedSecureOperationException(codec.table(), "family " + Bytes.toStringBinary(f.getKey()),
              "a SHARED table keeps one version per cell: delete whole columns (addColumns) or families, not single"
                  + " versions");
        }
      }
    }
    return out;
  }

  private static long stamp(long given, long now) {
    return given == HConstants.LATEST_TIMESTAMP ? now : given;
  }

  @Override
  public void delete(List<Delete> deletes) throws IOException {
    List<Delete> stored = new ArrayList<>(deletes.size());
    long now = clock.next();
    for (Delete d : deletes) {
      stored.add(encode(d, now));
    }
    ClusterCalls.Outcomes<Void> outcomes = calls.onEvery(i -> {
      tables.get(i).delete(copies(stored));
      return null;
    });
    if (outcomes.answered() < writeQuorum) {
      throw new IOException("table " + codec.table() + ": a delete of " + deletes.size() + " rows reached "
          + outcomes.answered() + " of " + n() + " clusters, " + writeQuorum + " needed; retry it. Failed: "
          + outcomes.describeFailures(spec.clusters()));
    }
    logDegraded(outcomes, "delete");
  }

  /** HBase's batch delete removes what it applied from the list it is given: one copy per cluster. */
  private static List<Delete> copies(List<Delete> deletes) {
    List<Delete> out = new ArrayList<>(deletes.size());
    for (Delete d : deletes) {
      out.add(new Delete(d));
    }
    return out;
  }

  // ---- reads

  private Get encode(Get get) throws IOException {
    clientSideFilter(get);
    refuseVersions(get.getMaxVersions());
    codec.checkRowType(get.getRow());
    Get out = new Get(codec.encodeRow(get.getRow()));
    encodeColumns(get.getFamilyMap(), out::addFamily, out::addColumn);
    out.setTimeRange(get.getTimeRange().getMin(), get.getTimeRange().getMax());
    return out;
  }

  private void refuseVersions(int maxVersions) throws UnsupportedSecureOperationException {
    if (maxVersions > 1) {
      throw new UnsupportedSecureOperationException(codec.table(), codec.describeRowKey(),
          "a SHARED table keeps the latest version of each cell only: readVersions(" + maxVersions + ") is refused");
    }
  }

  /** Adds a query's families and (stored) columns to its stored form. */
  private void encodeColumns(Map<byte[], NavigableSet<byte[]>> families, Consumer<byte[]> addFamily,
      BiConsumer<byte[], byte[]> addColumn) throws IOException {
    for (Map.Entry<byte[], NavigableSet<byte[]>> f : families.entrySet()) {
      codec.familySchema(f.getKey()); // refuses unknown families by name
      if (f.getValue() == null || f.getValue().isEmpty()) {
        addFamily.accept(f.getKey());
      } else {
        for (byte[] q : f.getValue()) {
          addColumn.accept(f.getKey(), codec.encodeQualifier(f.getKey(), q));
        }
      }
    }
  }

  private ClientSideFilter clientSideFilter(org.apache.hadoop.hbase.client.Query query) throws IOException {
    return ClientSideFilter.forQuery(codec, options, query, "SHARED", "the shares of a SHARED table");
  }

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    List<Get> stored = new ArrayList<>(gets.size());
    for (Get g : gets) {
      stored.add(encode(g));
    }
    ClusterCalls.Outcomes<Result[]> outcomes = calls.onEvery(i -> tables.get(i).get(stored));
    Result[] out = new Result[gets.size()];
    for (int g = 0; g < out.length; g++) {
      Result[] perCluster = new Result[n()];
      for (int i = 0; i < perCluster.length; i++) {
        perCluster[i] = outcomes.answered(i) ? outcomes.result(i)[g] : null;
      }
      out[g] = reconciler.reconcile(stored.get(g).getRow(), perCluster);
      ClientSideFilter filter = clientSideFilter(gets.get(g));
      if (filter != null) {
        Result kept = filter.apply(out[g]);
        out[g] = kept == null ? Result.EMPTY_RESULT : kept;
      }
    }
    return out;
  }

  /**
   * Under SECURE_RAID, from the z key shares and the data shares holding the bytes, in two rounds:
   * first the key shares, with every other cluster's timestamp of the cell (a key-only probe); then
   * the data shares of that timestamp. It answers only if at least r + 1 clusters answered the first
   * round (one of them holds every acknowledged write) and all that answered hold the cell at one
   * timestamp; otherwise, and if a needed share is missing, it reads the whole cell as {@link #get}
   * does. The bytes it returns are not cross-checked (see {@link PartialReads}).
   */
  @Override
  public byte[] getValueRange(byte[] row, byte[] family, byte[] qualifier, int offset, int length)
      throws IOException {
    codec.familySchema(family);
    byte[] storedQualifier = codec.encodeQualifier(family, qualifier);
    PartialReads reads = schemes.of(family, storedQualifier).partialReads().orElse(null);
    if (reads == null) {
      return super.getValueRange(row, family, qualifier, offset, length);
    }
    codec.checkRowType(row);
    byte[] storedRow = codec.encodeRow(row);
    boolean[] key = new boolean[n()];
    for (int l : reads.keyShares()) {
      key[l] = true;
    }
    Get full = new Get(storedRow).addColumn(family, storedQualifier);
    Get probe = new Get(storedRow).addColumn(family, storedQualifier).setFilter(new KeyOnlyFilter(true));
    ClusterCalls.Outcomes<Result> first = calls.onEvery(i -> tables.get(i).get(key[i] ? full : probe));
    Long version = agreedVersion(first, family, storedQualifier, key);
    if (version != null) {
      Map<Integer, byte[]> shares = new HashMap<>();
      for (int l : reads.keyShares()) {
        shares.put(l, first.result(l).getValue(family, storedQualifier));
      }
      try {
        boolean[] data = new boolean[n()];
        for (int i : reads.dataSharesFor(shares.get(reads.keyShares()[0]), offset, length)) {
          data[i] = true;
        }
        Get exact = new Get(storedRow).addColumn(family, storedQualifier).setTimestamp(version);
        ClusterCalls.Outcomes<Result> second = calls.on(data, i -> tables.get(i).get(exact));
        boolean complete = true;
        for (int i = 0; i < data.length && complete; i++) {
          if (data[i]) {
            byte[] share = second.answered(i) ? second.result(i).getValue(family, storedQualifier) : null;
            complete = share != null;
            shares.put(i, share);
          }
        }
        if (complete) {
          return reads.read(shares, offset, length);
        }
      } catch (ShareDecodingException e) {
        LOG.debug("Table {}: a partial read found shares that do not fit ({}); reading the whole cell", codec.table(),
            e.getMessage());
      }
    } else if (absentEverywhere(first, family, storedQualifier)) {
      return null;
    }
    return super.getValueRange(row, family, qualifier, offset, length);
  }

  /**
   * The one timestamp at which every answering cluster holds the cell, if at least r + 1 answered
   * and every key cluster did; else null.
   */
  private Long agreedVersion(ClusterCalls.Outcomes<Result> outcomes, byte[] family, byte[] storedQualifier,
      boolean[] key) {
    if (outcomes.answered() < spec.parameters().r() + 1) {
      return null;
    }
    Long version = null;
    for (int i = 0; i < n(); i++) {
      if (!outcomes.answered(i)) {
        if (key[i]) {
          return null;
        }
        continue;
      }
      Cell cell = outcomes.result(i).getColumnLatestCell(family, storedQualifier);
      if (cell == null || (version != null && version != cell.getTimestamp())) {
        return null;
      }
      version = cell.getTimestamp();
    }
    return version;
  }

  /** Whether enough answering clusters hold no version of the cell for it to be absent (as {@link ShareReconciler}). */
  private boolean absentEverywhere(ClusterCalls.Outcomes<Result> outcomes, byte[] family, byte[] storedQualifier) {
    int answering = outcomes.answered();
    for (int i = 0; i < n(); i++) {
      if (outcomes.answered(i) && outcomes.result(i).containsColumn(family, storedQualifier)) {
        return false;
      }
    }
    return answering >= Math.max(schemes.threshold(), spec.parameters().r() + 1);
  }

  private Scan encode(Scan scan) throws IOException {
    refuseVersions(scan.getMaxVersions());
    Scan out = new Scan().setCaching(scan.getCaching() > 0 ? scan.getCaching() : 500).setReversed(scan.isReversed());
    if (checkRowRange(scan)) {
      if (scan.getStartRow().length > 0) {
        out.withStartRow(codec.encodeRow(scan.getStartRow()), scan.includeStartRow());
      }
      if (scan.getStopRow().length > 0) {
        out.withStopRow(codec.encodeRow(scan.getStopRow()), scan.includeStopRow());
      }
    }
    encodeColumns(scan.getFamilyMap(), out::addFamily, out::addColumn);
    out.setTimeRange(scan.getTimeRange().getMin(), scan.getTimeRange().getMax());
    return out;
  }

  @Override
  public SecureResultScanner getScanner(Scan scan) throws IOException {
    ClientSideFilter filter = clientSideFilter(scan);
    Scan stored = encode(scan);
    ClusterCalls.Outcomes<ResultScanner> opened =
        calls.onEvery(i -> FirstRowScanner.open(tables.get(i).getScanner(stored)));
    ResultScanner[] scanners = new ResultScanner[n()];
    for (int i = 0; i < scanners.length; i++) {
      scanners[i] = opened.answered(i) ? opened.result(i) : null;
    }
    return new SharedScanner(scanners, scan.isReversed(), reconciler, filter, scan.getLimit());
  }

  @Override
  public QueryPlan plan(Scan scan) throws IOException {
    boolean filtered = clientSideFilter(scan) != null;
    Scan stored = encode(scan);
    return new QueryPlan(codec.table(), List.of(
        QueryPlan.Step.onServers("SHARED " + spec.scheme() + " (n=" + n() + ", r=" + spec.parameters().r() + ", z="
            + spec.parameters().z() + ") over clusters " + spec.clusters() + ": each runs "
            + (stored.getStartRow().length > 0 || stored.getStopRow().length > 0 ? "a row-range scan" : "a full scan"),
            "to each cluster, the rows read and the sizes of their shares"),
        QueryPlan.Step.onClient("merges rows and decodes their cells from " + schemes.threshold() + " shares"
            + (filtered ? ", filter over every decoded row" : ""))),
        filtered ? "the SHARED layout's servers hold shares, which no comparison can read" : null);
  }

  // ---- sums: on the region servers where the scheme's shares add up (SharedSums)

  @Override
  public AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    List<AggregateGroup> all = aggregateRange(scan, AggregateQuery.of(family, qualifier), ALL, ALL);
    return all.isEmpty() ? new AggregateResult(0, 0) : all.get(0).measures().get(0);
  }

  @Override
  public NavigableMap<byte[], AggregateResult> aggregateBy(Scan scan, byte[] family, byte[] qualifier,
      byte[] groupFamily, byte[] groupQualifier) throws IOException {
    NavigableMap<byte[], AggregateResult> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (AggregateGroup g : aggregateRange(scan, AggregateQuery.groupedBy(family, qualifier, groupFamily,
        groupQualifier), ALL, ALL)) {
      out.put(g.firstKey(), g.measures().get(0));
    }
    return out; // refused today (shares cannot be grouped), kept general for a scheme that could
  }

  @Override
  public List<AggregateGroup> aggregateRange(Scan scan, AggregateQuery query, byte[] storedStartRow,
      byte[] storedStopRow) throws IOException {
    return sums.sum(scan, encode(scan), query, storedStartRow, storedStopRow);
  }

  @Override
  public QueryPlan plan(Scan scan, AggregateQuery query) throws IOException {
    return sums.plan(scan, encode(scan), query);
  }

  private static final byte[] ALL = new byte[0];

  // ---- refused

  @Override
  public Result mutateRow(RowMutations mutations) throws IOException {
    throw refused("mutateRow", "atomicity across independent clusters cannot be had");
  }

  /** One at a time, as {@link ConditionalPut} does them; not atomic together (nor are HBase's, across rows). */
  @Override
  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException {
    if (!ConditionalPut.quorumsIntersect(n(), spec.parameters().r())) {
      throw refused("checkAndMutate", "with n = " + n() + " and r = " + spec.parameters().r() + ", two writes can each"
          + " reach n - r clusters with none in common, so two conditional writes could both succeed (it needs"
          + " 2(n - r) > n)");
    }
    List<CheckAndMutateResult> out = new ArrayList<>(checkAndMutates.size());
    for (CheckAndMutate cam : checkAndMutates) {
      out.add(new CheckAndMutateResult(conditionalPut.run(cam), null));
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    for (Table t : tables) {
      t.close();
    }
  }
}
