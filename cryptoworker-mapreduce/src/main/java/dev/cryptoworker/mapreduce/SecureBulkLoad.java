package dev.cryptoworker.mapreduce;

import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.spi.LayoutCapability;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;

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
 * round's time. A round's rows are encrypted by {@link #encodeThreads} threads (default: one per
 * processor), in contiguous slices whose cells keep the rows' order. The staging directory must be
 * on the cluster's filesystem (the region servers move the files from there); its files are gone
 * once loaded. SSE columns are refused (their index lives in the regions and is fed by writes).
 */
public final class SecureBulkLoad {
  /** Rows encrypted, sorted and loaded per round unless set. */
  public static final int DEFAULT_ROWS_PER_ROUND = 100_000;

  /** Turns a logical row into the stored one. */
  @FunctionalInterface
  private interface Encoder {
    Put encode(Put logical) throws IOException;
  }

  private final Table table;
  private final Encoder encoder;
  /** Whether the encoder's cells are new, so their timestamps may be set in place, or the caller's. */
  private final boolean encoderCellsAreNew;
  private final Path staging;
  private int rowsPerRound = DEFAULT_ROWS_PER_ROUND;
  private int encodeThreads = Runtime.getRuntime().availableProcessors();

  private SecureBulkLoad(Table table, Encoder encoder, boolean encoderCellsAreNew, Path staging) {
    this.table = Objects.requireNonNull(table, "table");
    this.encoder = encoder;
    this.encoderCellsAreNew = encoderCellsAreNew;
    this.staging = Objects.requireNonNull(staging, "stagingDirectory");
  }

  /**
   * A bulk load into {@code table} staging its HFiles under {@code stagingDirectory} (a new
   * directory per round is made inside it and removed after the load).
   */
  public static SecureBulkLoad into(SecureTable table, Path stagingDirectory) throws UnsupportedSecureOperationException {
    table.requireCapability(LayoutCapability.BULK_LOAD, "a bulk load");
    return new SecureBulkLoad(table, table::encodeForBulkLoad, true, stagingDirectory);
  }

  /**
   * The same load into a table that protects nothing (a plain HBase table): rows are written as
   * given. For plain tables beside secure ones, and for baselines that measure what protection costs.
   */
  public static SecureBulkLoad intoUnprotected(Table table, Path stagingDirectory) {
    return new SecureBulkLoad(table, put -> put, false, stagingDirectory);
  }

  /** Rows per round (memory: every stored cell of a round is held at once). */
  public SecureBulkLoad rowsPerRound(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rowsPerRound must be at least 1, got " + rows);
    }
    this.rowsPerRound = rows;
    return this;
  }

  /**
   * Threads that encrypt each round's rows (default: one per processor). Encryption is most of a
   * secure bulk load's client time, and the cluster waits while a round is encrypted.
   */
  public SecureBulkLoad encodeThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("encodeThreads must be at least 1, got " + threads);
    }
    this.encodeThreads = threads;
    return this;
  }

  /** What a load did. */
  public record Report(long rows, long storedCells, int hfiles, long hfileBytes, int rounds, long encodeNanos,
      long writeNanos, long loadNanos) {}

  /**
   * Encrypts and loads every row of {@code rows}.
   *
   * @throws dev.cryptoworker.client.UnsupportedSecureOperationException for rows with SSE columns,
   *     before anything of their round is loaded (earlier rounds stay loaded)
   * @throws IOException if writing or loading fails: rounds loaded before stay loaded, and a round
   *     that fails while HBase loads it may be partly loaded (each region takes its files atomically);
   *     loading the same rows again writes newer versions of the same cells
   */
  public Report load(Iterator<Put> rows) throws IOException {
    Configuration conf = table.getConfiguration();
    FileSystem fs = staging.getFileSystem(conf);
    TableDescriptor descriptor = table.getDescriptor();
    byte[][] regionStarts;
    try (RegionLocator locator = table.getRegionLocator()) {
      regionStarts = locator.getStartKeys();
    }
    Report total = new Report(0, 0, 0, 0, 0, 0, 0, 0);
    ExecutorService encoders = Executors.newFixedThreadPool(encodeThreads, runnable -> {
      Thread t = new Thread(runnable, "secure-bulk-load-encoder");
      t.setDaemon(true);
      return t;
    });
    try {
      while (rows.hasNext()) {
        total = add(total, round(rows, conf, fs, descriptor, regionStarts, encoders));
      }
    } finally {
      encoders.shutdownNow();
    }
    return total;
  }

  private Report round(Iterator<Put> rows, Configuration conf, FileSystem fs, TableDescriptor descriptor,
      byte[][] regionStarts, ExecutorService encoders) throws IOException {
    long started = System.nanoTime();
    long timestamp = System.currentTimeMillis();
    byte[] stamp = Bytes.toBytes(timestamp);
    List<Put> logical = new ArrayList<>();
    while (logical.size() < rowsPerRound && rows.hasNext()) {
      logical.add(rows.next());
    }
    Map<byte[], List<Cell>> byFamily = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (Put stored : encodeAll(logical, encoders)) {
      for (Map.Entry<byte[], List<Cell>> family : stored.getFamilyCellMap().entrySet()) {
        List<Cell> cells = byFamily.computeIfAbsent(family.getKey(), f -> new ArrayList<>());
        for (Cell cell : family.getValue()) {
          cells.add(stamped(stored.getRow(), family.getKey(), cell, timestamp, stamp));
        }
      }
    }
    long count = logical.size();
    long encoded = System.nanoTime();
    Path dir = new Path(staging, "round-" + UUID.randomUUID());
    Map<byte[], List<Path>> files = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    long cells = 0;
    long bytes = 0;
    int hfiles = 0;
    try {
      for (Map.Entry<byte[], List<Cell>> family : byFamily.entrySet()) {
        List<Cell> sorted = lastOfEach(family.getValue());
        cells += sorted.size();
        ColumnFamilyDescriptor cf = descriptor.getColumnFamily(family.getKey());
        List<Path> written = writeHFiles(conf, fs, new Path(dir, Bytes.toString(family.getKey())), cf, sorted,
            regionStarts, timestamp);
        for (Path p : written) {
          bytes += fs.getFileStatus(p).getLen();
        }
        hfiles += written.size();
        files.put(family.getKey(), written);
      }
      long wrote = System.nanoTime();
      if (!files.isEmpty()) {
        BulkLoadHFiles.create(conf).bulkLoad(table.getName(), files);
      }
      long loaded = System.nanoTime();
      return new Report(count, cells, hfiles, bytes, 1, encoded - started, wrote - encoded, loaded - wrote);
    } finally {
      fs.delete(dir, true);
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
   * The stored form of each of {@code logical}, in order, encoded by {@link #encodeThreads} threads
   * in contiguous slices; the first failure (by position) is thrown.
   */
  private Put[] encodeAll(List<Put> logical, ExecutorService encoders) throws IOException {
    Put[] stored = new Put[logical.size()];
    int slices = Math.min(encodeThreads, Math.max(1, logical.size() / 1_000));
    List<Future<Void>> work = new ArrayList<>(slices);
    for (int slice = 0; slice < slices; slice++) {
      int from = (int) ((long) logical.size() * slice / slices);
      int to = (int) ((long) logical.size() * (slice + 1) / slices);
      work.add(encoders.submit(() -> {
        for (int i = from; i < to; i++) {
          stored[i] = encoder.encode(logical.get(i));
        }
        return null;
      }));
    }
    try {
      for (Future<Void> slice : work) {
        slice.get();
      }
    } catch (InterruptedException e) {
      work.forEach(w -> w.cancel(true));
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while encrypting a bulk load's rows");
    } catch (ExecutionException e) {
      work.forEach(w -> w.cancel(true));
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException("encrypting a bulk load's rows failed", e.getCause());
    }
    return stored;
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

  /** Writes sorted {@code cells} of one family into one HFile per region they fall in. */
  private static List<Path> writeHFiles(Configuration conf, FileSystem fs, Path familyDir, ColumnFamilyDescriptor cf,
      List<Cell> cells, byte[][] regionStarts, long timestamp) throws IOException {
    List<Path> out = new ArrayList<>();
    StoreFileWriter writer = null;
    int region = -1;
    try {
      for (Cell cell : cells) {
        int cellRegion = regionOf(regionStarts, cell);
        if (cellRegion != region) {
          if (writer != null) {
            close(writer, timestamp);
          }
          region = cellRegion;
          Path file = new Path(familyDir, "region-" + region);
          writer = new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
              .withFilePath(file)
              .withBloomType(cf.getBloomFilterType())
              .withFileContext(new HFileContextBuilder()
                  .withCompression(cf.getCompressionType())
                  .withDataBlockEncoding(cf.getDataBlockEncoding())
                  .withBlockSize(cf.getBlocksize())
                  .withColumnFamily(cf.getName())
                  .withIncludesTags(true)
                  .withCreateTime(timestamp)
                  .build())
              .build();
          out.add(file);
        }
        writer.append(cell);
      }
      if (writer != null) {
        close(writer, timestamp);
        writer = null;
      }
    } finally {
      if (writer != null) {
        writer.close();
      }
    }
    return out;
  }

  private static void close(StoreFileWriter writer, long timestamp) throws IOException {
    // The metadata HBase's own HFileOutputFormat2 records.
    writer.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(timestamp));
    writer.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(false));
    writer.appendTrackedTimestampsToMetadata();
    writer.close();
  }

  /** Index of the region whose start key is the largest at or below the cell's row. */
  private static int regionOf(byte[][] regionStarts, Cell cell) {
    int lo = 0;
    int hi = regionStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (Bytes.compareTo(regionStarts[mid], 0, regionStarts[mid].length, cell.getRowArray(), cell.getRowOffset(),
          cell.getRowLength()) <= 0) {
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
        a.writeNanos() + b.writeNanos(), a.loadNanos() + b.loadNanos());
  }
}
