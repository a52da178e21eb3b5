package dev.cryptoworker.mapreduce;

import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.spi.BulkLoadBatch;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.region.LoadedFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads rows into a secure table the way HBase users load data at scale: rows are encrypted per
 * schema ({@link SecureTable#encodeForBulkLoad}: the same stored form {@code put} writes), their
 * stored cells sorted by stored key and written as HFiles cut at region boundaries, then handed to
 * HBase's bulk-load tool ({@link BulkLoadHFiles}), which moves them into the regions: no write-ahead
 * log, no memstore, no flushes.
 *
 * <pre>
 * try (SecureTable table = secure.getSecureTable(name)) {
 *   SecureBulkLoad.Report report = SecureBulkLoad.into(table, new Path("file:///data/staging")).load(rows);
 * }
 * </pre>
 *
 * <p>Rows are taken {@link #rowsPerRound} at a time (default {@value #DEFAULT_ROWS_PER_ROUND}):
 * each round is sorted in memory, written and loaded before the next is read. Within a round, a
 * later put of the same cell wins, as with successive puts; cells without a timestamp get the
 * round's time. A round is encrypted, sorted and written by {@link #threads} threads (default: one
 * per processor): rows in chunks of 1,000, kept in the order read, then each region's rows sorted
 * and written to its HFiles apart from the others'. The staging directory must be
 * on the cluster's filesystem (the region servers move the files from there); its files are gone
 * once loaded. SSE values get their index entries when their chunk is encrypted. The entries' count
 * cells are written as HFiles of the counter table and loaded before the round's own files (a
 * batch's {@link BulkLoadBatch#loadFirst}); if they are not, nothing of the round is loaded. Index
 * cells go to files of their own, so each region reads back only those to index the entries
 * ({@link BulkLoadBatch#readBack}). A search made between a chunk's entries and its round's
 * load covers those numbers, so its tokens reach the rows once loaded (the window a put has between
 * its take and its write, here a round long).
 *
 * <p>A table over several clusters (SHARED) gets, per round, each cluster's stored rows as its
 * layout encodes them ({@link BulkLoadBatch}), written as that cluster's HFiles and loaded into it,
 * all clusters at once; the round is written when the layout's quorum of clusters took it, and
 * fails naming the clusters otherwise. Cells without a timestamp get the table's {@link
 * SecureTable#writeTimestamp()}, the same on every cluster.
 */
public final class SecureBulkLoad {
  private static final Logger LOG = LoggerFactory.getLogger(SecureBulkLoad.class);
  /** Rows encrypted, sorted and loaded per round unless set. */
  public static final int DEFAULT_ROWS_PER_ROUND = 100_000;

  /** Rows a worker encrypts at a time. */
  private static final int CHUNK_ROWS = 1_000;
  private static final String ENCRYPTING = "encrypting a bulk load's rows";

  /** The cluster name of an unprotected table's batches (its one cluster). */
  private static final String UNPROTECTED = "unprotected";

  /** The stored form of a chunk of rows, per cluster, in order. */
  @FunctionalInterface
  private interface Encoder {
    BulkLoadBatch encode(List<Put> logical) throws IOException;
  }

  private final TableName name;
  /** The stored table on each cluster, by the names the encoder's batches use. */
  private final Map<String, Table> tables;
  private final Encoder encoder;
  /** The timestamp of a round's cells that carry none. */
  private final LongSupplier clock;
  /** Whether the encoder's cells are new, so their timestamps may be set in place, or the caller's. */
  private final boolean encoderCellsAreNew;
  private final Path staging;
  private int rowsPerRound = DEFAULT_ROWS_PER_ROUND;
  private int threads = Runtime.getRuntime().availableProcessors();

  private SecureBulkLoad(TableName name, Map<String, Table> tables, Encoder encoder, LongSupplier clock,
      boolean encoderCellsAreNew, Path staging) {
    this.name = name;
    this.tables = tables;
    this.encoder = encoder;
    this.clock = clock;
    this.encoderCellsAreNew = encoderCellsAreNew;
    this.staging = Objects.requireNonNull(staging, "stagingDirectory");
  }

  /**
   * A bulk load into {@code table} staging its HFiles under {@code stagingDirectory} (a new
   * directory per round is made inside it and removed after the load).
   */
  public static SecureBulkLoad into(SecureTable table, Path stagingDirectory) throws UnsupportedSecureOperationException {
    table.requireCapability(LayoutCapability.BULK_LOAD, "a bulk load");
    return new SecureBulkLoad(table.getName(), table.storedTables(), table::encodeForBulkLoad, table::writeTimestamp,
        true, stagingDirectory);
  }

  /**
   * The same load into a table that protects nothing (a plain HBase table): rows are written as
   * given. For plain tables beside secure ones, and for baselines that measure what protection costs.
   */
  public static SecureBulkLoad intoUnprotected(Table table, Path stagingDirectory) {
    Objects.requireNonNull(table, "table");
    return new SecureBulkLoad(table.getName(), Map.of(UNPROTECTED, table),
        puts -> BulkLoadBatch.onCluster(UNPROTECTED, puts), System::currentTimeMillis, false, stagingDirectory);
  }

  /** Rows per round (memory: a round's rows and every stored cell of them are held at once). */
  public SecureBulkLoad rowsPerRound(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rowsPerRound must be at least 1, got " + rows);
    }
    this.rowsPerRound = rows;
    return this;
  }

  /**
   * Threads that encrypt, sort and write each round (default: one per processor): the client's
   * work, while the cluster waits for the round's files.
   */
  public SecureBulkLoad threads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    this.threads = threads;
    return this;
  }

  /**
   * What a load did. {@code missedClusters}: clusters that failed to take a round the others took
   * enough of (a SHARED table: repair it, {@code SharedTables.repair}); empty for tables on one cluster.
   */
  public record Report(long rows, long storedCells, int hfiles, long hfileBytes, int rounds, long encodeNanos,
      long writeNanos, long loadNanos, Set<String> missedClusters) {
    public Report {
      missedClusters = Set.copyOf(missedClusters);
    }
  }

  /**
   * Encrypts and loads every row of {@code rows}.
   *
   * @throws dev.cryptoworker.client.UnsupportedSecureOperationException for a table whose layout or
   *     migration refuses bulk loads, before anything of their round is loaded (earlier rounds stay
   *     loaded)
   * @throws IOException if writing fails (nothing of the round is loaded), or if fewer clusters than
   *     the table's layout needs took a round (naming the table and which clusters took it and which
   *     failed, and why): rounds loaded before stay loaded, and a round that fails while HBase loads
   *     it may be partly loaded (each region takes its files atomically); loading the same rows
   *     again writes newer versions of the same cells
   */
  public Report load(Iterator<Put> rows) throws IOException {
    List<Cluster> clusters = new ArrayList<>(tables.size());
    for (Map.Entry<String, Table> t : tables.entrySet()) {
      clusters.add(Cluster.of(name, t.getKey(), clusters.size(), t.getValue(), staging));
    }
    Report total = new Report(0, 0, 0, 0, 0, 0, 0, 0, Set.of());
    ExecutorService workers = Executors.newFixedThreadPool(threads, runnable -> {
      Thread t = new Thread(runnable, "secure-bulk-load-worker");
      t.setDaemon(true);
      return t;
    });
    try {
      while (rows.hasNext()) {
        total = add(total, round(rows, clusters, workers));
      }
    } finally {
      workers.shutdownNow();
    }
    return total;
  }

  /**
   * One cluster's stored table, its families and regions when the load began, and where its HFiles
   * are staged: the staging directory on the cluster's own filesystem unless it names one.
   */
  private record Cluster(String name, Table table, Configuration conf, FileSystem fs, TableDescriptor descriptor,
      byte[][] regionStarts, Path staging, String directory) {
    static Cluster of(TableName table, String name, int index, Table stored, Path staging) throws IOException {
      try (RegionLocator locator = stored.getRegionLocator()) {
        Configuration conf = stored.getConfiguration();
        FileSystem fs = staging.getFileSystem(conf);
        return new Cluster(name, stored, conf, fs, stored.getDescriptor(), locator.getStartKeys(),
            fs.makeQualified(staging), "cluster-" + index);
      } catch (IOException e) {
        throw new IOException("table " + table + ": a bulk load reads each cluster's regions when it starts, and cluster '"
            + name + "' did not answer; nothing is loaded: " + e.getMessage(), e);
      }
    }
  }

  private Report round(Iterator<Put> rows, List<Cluster> clusters, ExecutorService workers) throws IOException {
    long started = System.nanoTime();
    long timestamp = clock.getAsLong();
    byte[] stamp = Bytes.toBytes(timestamp);
    List<BulkLoadBatch> batches = encodeRound(rows, workers);
    int quorum = batches.get(0).quorum();
    Predicate<Cell> readBack = batches.get(0).readBack().orElse(null);
    long count = 0;
    // Cells of other tables the rows need stored first, by table; every batch's Table is closed after the round.
    Map<TableName, Table> firstTables = new TreeMap<>();
    Map<TableName, List<Put>> firstCells = new TreeMap<>();
    List<Table> opened = new ArrayList<>();
    for (BulkLoadBatch b : batches) {
      count += b.first().size();
      for (BulkLoadBatch.CellsOfTable cells : b.loadFirst()) {
        opened.add(cells.table());
        firstTables.putIfAbsent(cells.table().getName(), cells.table());
        firstCells.computeIfAbsent(cells.table().getName(), t -> new ArrayList<>()).addAll(cells.cells());
      }
    }
    Map<String, List<Put>> round = BulkLoadBatch.concat(batches);
    batches.clear();
    long encoded = System.nanoTime();
    String roundDir = "round-" + UUID.randomUUID() + "-";
    // The table's clusters, then the other tables the round loads first: where HFiles are written.
    List<Cluster> targets = new ArrayList<>(clusters);
    try {
      if (!round.keySet().equals(tables.keySet())) {
        throw new IOException("table " + name + ": the layout encoded a bulk-load round for clusters " + round.keySet()
            + ", not the table's " + tables.keySet() + "; nothing of this round is loaded");
      }
      for (Table t : firstTables.values()) {
        targets.add(Cluster.of(name, "of " + t.getName(), targets.size(), t, staging));
      }
      // Per target and region: each region's rows are sorted and written apart, on the workers.
      List<Future<List<Written>>> writes = new ArrayList<>();
      List<Integer> targetOfWrite = new ArrayList<>();
      for (int i = 0; i < targets.size(); i++) {
        Cluster c = targets.get(i);
        List<Put> stored = i < clusters.size() ? round.remove(c.name()) : firstCells.get(c.table().getName());
        List<Future<List<Written>>> own = writeCluster(c, stored, new Path(c.staging(), roundDir + c.directory()),
            timestamp, stamp, i < clusters.size() ? readBack : null, workers);
        writes.addAll(own);
        int index = i;
        own.forEach(w -> targetOfWrite.add(index));
      }
      List<Map<byte[], List<Path>>> files = new ArrayList<>();
      targets.forEach(c -> files.add(new TreeMap<>(Bytes.BYTES_COMPARATOR)));
      long cells = 0;
      long bytes = 0;
      int hfiles = 0;
      List<List<Written>> written = awaitAll(writes, "writing a bulk load's HFiles");
      for (int i = 0; i < written.size(); i++) {
        int target = targetOfWrite.get(i);
        for (Written w : written.get(i)) {
          files.get(target).computeIfAbsent(w.family(), f -> new ArrayList<>()).add(w.file());
          if (target < clusters.size()) {
            cells += w.cells();
            bytes += w.bytes();
            hfiles++;
          }
        }
      }
      long wrote = System.nanoTime();
      try {
        loadFirst(targets.subList(clusters.size(), targets.size()), files.subList(clusters.size(), targets.size()));
      } catch (InterruptedIOException e) {
        throw e;
      } catch (IOException e) {
        throw new IOException("table " + name + ": nothing of this round is loaded: " + e.getMessage(), e);
      }
      Set<String> missed = loadEverywhere(clusters, files.subList(0, clusters.size()), quorum, count, workers);
      long loaded = System.nanoTime();
      return new Report(count, cells, hfiles, bytes, 1, encoded - started, wrote - encoded, loaded - wrote, missed);
    } finally {
      for (Cluster c : targets) {
        c.fs().delete(new Path(c.staging(), roundDir + c.directory()), true);
      }
      for (Table t : opened) {
        t.close();
      }
    }
  }

  /**
   * Loads the files of the cells the round's rows need stored before them, one table after
   * another, and returns once all are loaded.
   *
   * @throws IOException naming the table whose files were not loaded
   */
  private void loadFirst(List<Cluster> tables, List<Map<byte[], List<Path>>> files) throws IOException {
    for (int i = 0; i < tables.size(); i++) {
      TableName table = tables.get(i).table().getName();
      // Without a sequence id: with one, each region flushes its memstore before taking a file, and
      // these cells' own timestamps order them (BulkLoadBatch.CellsOfTable).
      Configuration conf = new Configuration(tables.get(i).conf());
      conf.setBoolean(BulkLoadHFiles.ASSIGN_SEQ_IDS, false);
      try {
        BulkLoadHFiles.create(conf).bulkLoad(table, files.get(i));
      } catch (IOException | RuntimeException e) {
        throw new IOException("cells of table " + table + ", which the round's rows need stored before them, were not"
            + " loaded: " + e.getMessage(), e);
      }
    }
  }

  /** Submits the HFiles of {@code stored} on {@code cluster} to the workers, a task per region. */
  private List<Future<List<Written>>> writeCluster(Cluster cluster, List<Put> stored, Path dir, long timestamp,
      byte[] stamp, Predicate<Cell> readBack, ExecutorService workers) {
    List<Future<List<Written>>> writes = new ArrayList<>();
    byRegion(cluster, stored).forEach((region, puts) -> writes.add(workers.submit(() -> writeRegion(cluster.conf(),
        cluster.fs(), dir, "region-" + region, cluster.descriptor(), puts, timestamp, stamp, readBack))));
    return writes;
  }

  /** {@code stored} by the index of the region of {@code cluster} each row falls in, regions without rows left out. */
  private static Map<Integer, List<Put>> byRegion(Cluster cluster, List<Put> stored) {
    Map<Integer, List<Put>> out = new TreeMap<>();
    for (Put put : stored) {
      out.computeIfAbsent(regionOf(cluster.regionStarts(), put.getRow()), r -> new ArrayList<>()).add(put);
    }
    return out;
  }

  /**
   * Loads each cluster's files into it, all clusters at once; the clusters that failed, if at least
   * {@code quorum} took theirs.
   *
   * @throws IOException naming the clusters that took the round and those that failed, if fewer
   *     than {@code quorum} took it
   */
  private Set<String> loadEverywhere(List<Cluster> clusters, List<Map<byte[], List<Path>>> files, int quorum,
      long rows, ExecutorService workers) throws IOException {
    List<Future<Void>> loads = new ArrayList<>(clusters.size());
    for (int i = 0; i < clusters.size(); i++) {
      Cluster c = clusters.get(i);
      Map<byte[], List<Path>> own = files.get(i);
      loads.add(workers.submit(() -> {
        if (!own.isEmpty()) {
          BulkLoadHFiles.create(c.conf()).bulkLoad(c.table().getName(), own);
        }
        return null;
      }));
    }
    List<String> took = new ArrayList<>();
    Map<String, String> failed = new LinkedHashMap<>();
    Exception first = null;
    for (int i = 0; i < loads.size(); i++) {
      String cluster = clusters.get(i).name();
      try {
        awaitAll(List.of(loads.get(i)), "loading a bulk load's HFiles into cluster '" + cluster + "'");
        took.add(cluster);
      } catch (InterruptedIOException e) {
        loads.forEach(l -> l.cancel(true));
        throw e;
      } catch (IOException | RuntimeException e) {
        failed.put(cluster, e.getClass().getSimpleName() + ": " + e.getMessage());
        first = first == null ? e : first;
      }
    }
    if (took.size() < quorum) {
      throw new IOException("table " + name + ": a bulk-load round of " + rows + " rows was loaded into " + took.size()
          + " of " + clusters.size() + " clusters, " + quorum + " needed. Loaded: " + took + "; failed: " + failed
          + ". Rounds before it stay loaded; this one stays where it was loaded, in part where a cluster failed"
          + " midway (see the table's layout for what reads make of it)", first);
    }
    if (!failed.isEmpty()) {
      LOG.warn("Table {}: a bulk-load round of {} rows was loaded into {} of {} clusters ({} needed); {} missed it and"
          + " need the table's repair once they take writes again. Failed: {}", name, rows, took.size(),
          clusters.size(), quorum, failed.keySet(), failed);
    }
    return failed.keySet();
  }

  /**
   * Writes one region's stored rows as one HFile per family, {@code dir/family/file}; with {@code
   * readBack}, the cells it selects go to a second file per family, and every file is marked
   * ({@link LoadedFiles}), so that the region reads back only those. Rows are sorted by stored key,
   * then each row's cells: sorting a round's rows, not its cells, compares ten times fewer items for
   * ten-cell rows.
   */
  private List<Written> writeRegion(Configuration conf, FileSystem fs, Path dir, String file,
      TableDescriptor descriptor, List<Put> puts, long timestamp, byte[] stamp, Predicate<Cell> readBack)
      throws IOException {
    puts.sort((a, b) -> Bytes.compareTo(a.getRow(), b.getRow())); // stable: a later put of a row stays later
    // Per family: the file of its cells, then (with readBack) the file of the cells read back.
    Map<byte[], HFileOfFamily[]> writers = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    try {
      Map<byte[], List<Cell>> row = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      for (int i = 0; i < puts.size(); i++) {
        Put put = puts.get(i);
        for (Map.Entry<byte[], List<Cell>> family : put.getFamilyCellMap().entrySet()) {
          List<Cell> cells = row.computeIfAbsent(family.getKey(), f -> new ArrayList<>());
          for (Cell cell : family.getValue()) {
            cells.add(stamped(put.getRow(), family.getKey(), cell, timestamp, stamp));
          }
        }
        if (i + 1 < puts.size() && Bytes.equals(puts.get(i + 1).getRow(), put.getRow())) {
          continue; // the row's next put joins it; of equal cells, the one added last is written
        }
        for (Map.Entry<byte[], List<Cell>> family : row.entrySet()) {
          HFileOfFamily[] files = writers.get(family.getKey());
          if (files == null) {
            ColumnFamilyDescriptor cf = descriptor.getColumnFamily(family.getKey());
            if (cf == null) {
              throw new IOException("table " + descriptor.getTableName() + " has no family "
                  + Bytes.toStringBinary(family.getKey()) + ": a bulk load cannot write its cells; nothing of this"
                  + " round is loaded");
            }
            Path familyDir = new Path(dir, Bytes.toString(family.getKey()));
            files = readBack == null
                ? new HFileOfFamily[] {new HFileOfFamily(conf, fs, new Path(familyDir, file), cf, timestamp, null)}
                : new HFileOfFamily[] {
                    new HFileOfFamily(conf, fs, new Path(familyDir, file), cf, timestamp,
                        LoadedFiles.Mark.NOTHING_TO_READ_BACK),
                    new HFileOfFamily(conf, fs, new Path(familyDir, file + "-read-back"), cf, timestamp,
                        LoadedFiles.Mark.READ_BACK)};
            writers.put(family.getKey(), files);
          }
          for (Cell cell : lastOfEach(family.getValue())) {
            files[readBack != null && readBack.test(cell) ? 1 : 0].append(cell);
          }
        }
        row.clear();
      }
      List<Written> out = new ArrayList<>(writers.size());
      for (HFileOfFamily[] files : writers.values()) {
        for (HFileOfFamily writer : files) {
          if (writer.cells > 0) {
            out.add(writer.finish(fs));
          }
        }
      }
      return out;
    } finally {
      for (HFileOfFamily[] files : writers.values()) {
        for (HFileOfFamily writer : files) {
          writer.abandon();
        }
      }
    }
  }

  /** A stored put's cell with the round's time if it has none: the cell itself if it is new, else a copy. */
  private KeyValue stamped(byte[] row, byte[] family, Cell cell, long timestamp, byte[] stamp) {
    if (encoderCellsAreNew && cell instanceof KeyValue kv && cell.getType() == Cell.Type.Put) {
      kv.updateLatestStamp(stamp);
      return kv;
    }
    long ts = cell.getTimestamp() == HConstants.LATEST_TIMESTAMP ? timestamp : cell.getTimestamp();
    return new KeyValue(row, family, CellUtil.cloneQualifier(cell), ts, KeyValue.Type.Put, CellUtil.cloneValue(cell));
  }

  /**
   * The stored form of the round's next rows, in order. Rows are read in chunks of {@value
   * #CHUNK_ROWS}, each encrypted by a worker, a few chunks in flight: a chunk's logical rows are
   * dropped once encrypted, so only the round's stored rows stay in memory (holding both made young
   * collections copy twice as much).
   */
  private List<BulkLoadBatch> encodeRound(Iterator<Put> rows, ExecutorService workers) throws IOException {
    List<Future<BulkLoadBatch>> work = new ArrayList<>();
    int read = 0;
    while (read < rowsPerRound && rows.hasNext()) {
      List<Put> chunk = new ArrayList<>(CHUNK_ROWS);
      while (chunk.size() < CHUNK_ROWS && read < rowsPerRound && rows.hasNext()) {
        chunk.add(rows.next());
        read++;
      }
      work.add(workers.submit(() -> encoder.encode(chunk)));
      // At most a few chunks ahead of the workers; a failed chunk ends the reading, and awaitAll throws it.
      if (work.size() > 2 * threads && !endedWell(work.get(work.size() - 1 - 2 * threads))) {
        break;
      }
    }
    return awaitAll(work, ENCRYPTING);
  }

  /** Waits for {@code task}: whether it ended without failing. */
  private static boolean endedWell(Future<?> task) throws InterruptedIOException {
    try {
      task.get();
      return true;
    } catch (ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while " + ENCRYPTING);
    }
  }

  /**
   * The results of {@code work}, in order, once all of it has ended (so nothing still writes into a
   * staging directory about to be deleted); the first failure by position is thrown.
   */
  private static <T> List<T> awaitAll(List<Future<T>> work, String what) throws IOException {
    List<T> out = new ArrayList<>(work.size());
    Throwable failed = null;
    for (Future<T> f : work) {
      try {
        out.add(f.get());
      } catch (InterruptedException e) {
        work.forEach(w -> w.cancel(true));
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while " + what);
      } catch (ExecutionException e) {
        failed = failed == null ? e.getCause() : failed;
      }
    }
    if (failed instanceof IOException io) {
      throw io;
    }
    if (failed instanceof RuntimeException r) {
      throw r;
    }
    if (failed != null) {
      throw new IOException(what + " failed", failed);
    }
    return out;
  }

  /** {@code cells} sorted by stored key; of cells with equal keys, the one added last. */
  private static List<Cell> lastOfEach(List<Cell> cells) {
    // A stable sort keeps equal keys in the order they were added.
    cells.sort(CellComparator.getInstance());
    List<Cell> out = new ArrayList<>(cells.size());
    for (int i = 0; i < cells.size(); i++) {
      if (i + 1 < cells.size() && CellComparator.getInstance().compare(cells.get(i), cells.get(i + 1)) == 0) {
        continue;
      }
      out.add(cells.get(i));
    }
    return out;
  }

  /** One HFile written: its family, path, cells and bytes. */
  private record Written(byte[] family, Path file, long cells, long bytes) {}

  /** The HFile of one family and region, written in stored-key order. */
  private static final class HFileOfFamily {
    private final StoreFileWriter writer;
    private final byte[] family;
    private final Path file;
    private final long timestamp;
    private final LoadedFiles.Mark mark;
    private long cells;
    private boolean closed;

    /** {@code mark}: what the file tells the region about its read-back cells, or null for nothing. */
    HFileOfFamily(Configuration conf, FileSystem fs, Path file, ColumnFamilyDescriptor cf, long timestamp,
        LoadedFiles.Mark mark) throws IOException {
      this.writer = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
          .withFilePath(file)
          .withBloomType(cf.getBloomFilterType())
          .withFileContext(new HFileContextBuilder()
              .withCompression(cf.getCompressionType())
              .withDataBlockEncoding(cf.getDataBlockEncoding())
              .withBlockSize(cf.getBlocksize())
              // the checksums HBase's own bulk load output writes: the configured algorithm
              .withChecksumType(StoreUtils.getChecksumType(conf))
              .withBytesPerCheckSum(StoreUtils.getBytesPerChecksum(conf))
              .withColumnFamily(cf.getName())
              .withIncludesTags(true)
              .withCreateTime(timestamp)
              .build())
          .build();
      this.family = cf.getName();
      this.file = file;
      this.timestamp = timestamp;
      this.mark = mark;
    }

    void append(Cell cell) throws IOException {
      writer.append(cell);
      cells++;
    }

    Written finish(FileSystem fs) throws IOException {
      closed = true;
      // The metadata HBase's own HFileOutputFormat2 records.
      writer.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(timestamp));
      writer.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(false));
      writer.appendTrackedTimestampsToMetadata();
      if (mark != null) {
        writer.appendFileInfo(LoadedFiles.fileInfoKey(), mark.value());
      }
      writer.close();
      return new Written(family, file, cells, fs.getFileStatus(file).getLen());
    }

    /** Closes the writer if {@link #finish} did not (a failed write; the staging directory goes with it). */
    void abandon() throws IOException {
      if (!closed) {
        closed = true;
        writer.close();
      }
    }
  }


  /** Index of the region whose start key is the largest at or below {@code row}. */
  private static int regionOf(byte[][] regionStarts, byte[] row) {
    int lo = 0;
    int hi = regionStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (Bytes.compareTo(regionStarts[mid], row) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private static Report add(Report a, Report b) {
    return new Report(a.rows() + b.rows(), a.storedCells() + b.storedCells(), a.hfiles() + b.hfiles(),
        a.hfileBytes() + b.hfileBytes(), a.rounds() + b.rounds(), a.encodeNanos() + b.encodeNanos(),
        a.writeNanos() + b.writeNanos(), a.loadNanos() + b.loadNanos(),
        Stream.concat(a.missedClusters().stream(), b.missedClusters().stream()).collect(Collectors.toSet()));
  }
}
