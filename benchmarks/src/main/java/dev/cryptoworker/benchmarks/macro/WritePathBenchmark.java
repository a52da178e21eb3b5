package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.mapreduce.SecureBulkLoad;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * Write paths, plain HBase beside CryptoWorker, on HBase as separate processes (2 region servers):
 * puts in batches of 200 rows with 8-byte sequential keys from one thread, and bulk loads
 * ({@link SecureBulkLoad}: HFiles loaded with HBase's tool; the plain side runs the same code into a
 * plain table, {@link SecureBulkLoad#intoUnprotected}). Rows are YCSB-like: 10 fields of 100 bytes. The secure side
 * runs twice, in stored format 1 (5-byte key headers, SIV row keys) and format 2 (1-byte headers, one-block row keys),
 * to measure what the shorter form saves. Each table is flushed after its load, and the next load waits until its
 * compactions are done; at the end every table is major-compacted and its stored bytes summed, with the stored key and
 * value sizes.
 *
 * <p>Options: {@code --rows=N} (200,000) per table, {@code --regions=N} (4, every table pre-split),
 * {@code --sides=plain,...} (all: plain, format-1, format-2, sized-plain, sized-plain-in-order, det-field,
 * sse-field, det-field-and-count-rows; a dash for each space of a side's name), {@code --stored-format=N} of
 * the det-field, sse-field and count-rows sides (the latest), {@code --out=dir}.
 */
public final class WritePathBenchmark {
  private static final byte[] F = Bytes.toBytes("f");
  private static final int FIELDS = 10;
  private static final int FIELD_BYTES = 100;
  private static final Set<String> FIELD_NAMES = IntStream.range(0, FIELDS).mapToObj(f -> "field" + f)
      .collect(Collectors.toUnmodifiableSet());
  private static final int BATCH = 200;
  /** The STD bytes a value gains (header, IV, tag): 1 + 12 + 16 in format 2. */
  private static final int STD_FORMAT_2_BYTES = 29;
  /** A stored DET row key of an 8-byte key in format 2: a header byte and a 16-byte synthetic IV. */
  private static final int DET_KEY_BYTES = 17;
  /** A control: plain rows with format 2's stored sizes and order (see {@link PaddedRows}). */
  private static final String SIZED = "sized plain";
  /** A control: the same sizes in plain's order, which separates what the bytes cost from what DET's order costs. */
  private static final String SIZED_IN_ORDER = "sized plain in order"; // no comma: a CSV field
  /** Secure sides in the default stored format with field0 under DET or SSE: what SSE's index costs a load. */
  private static final String DET_FIELD = "det field";
  private static final String SSE_FIELD = "sse field";
  /**
   * A control: the DET-field table, each load also writing one count-cell-shaped put per row into
   * the counter table as an SSE load of unique values writes one count cell per row (puts: before
   * each batch; bulk loads: beside the load, all written before it ends), without SSE's crypto or index.
   */
  private static final String DET_COUNTS = "det field and count rows";
  private static final List<String> SIDES = List.of("plain", "format 1", "format 2", SIZED, SIZED_IN_ORDER, DET_FIELD,
      SSE_FIELD, DET_COUNTS);
  private static final String SECURE_FIELD = """
      table: NAME
      FORMAT_LINE
      rowKey: { box: DET }
      families:
        f:
          default: { box: STD }
          columns:
            field0: { box: BOX }
      """;
  private static final String SECURE = """
      table: NAME
      storedFormat: FORMAT
      rowKey: { box: DET }
      families:
        f:
          default: { box: STD }
      """;
  private static final String PLAIN = """
      table: NAME
      rowKey: { box: PLAIN }
      families:
        f:
          default: { box: PLAIN }
      """;

  private final PrintStream out = System.out;
  /** The field sides' stored format, or 0 for the latest. */
  private final int fieldFormat;

  private WritePathBenchmark(int fieldFormat) {
    this.fieldFormat = fieldFormat;
  }

  /** The field sides' stored format, as the result names it. */
  private String fieldFormatName() {
    return fieldFormat == 0 ? "default format" : "stored format " + fieldFormat;
  }

  /** The schema of a field side: field0 under {@code box}, in the field sides' stored format. */
  private TableSchema fieldSchema(String name, String box, String side) {
    return TableSchema.parse(SECURE_FIELD.replace("FORMAT_LINE", fieldFormat == 0 ? "" : "storedFormat: " + fieldFormat)
        .replace("NAME", name).replace("BOX", box), side);
  }

  public static void main(String[] args) throws Exception {
    int rows = 200_000;
    int regions = 4;
    Path outDir = null;
    List<String> sides = SIDES;
    int fieldFormat = 0;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "regions" -> regions = Integer.parseInt(kv[1]);
        case "out" -> outDir = Path.of(kv[1]);
        case "sides" -> sides = Stream.of(kv[1].split(",")).map(side -> side.replace('-', ' ')).toList();
        case "stored-format" -> fieldFormat = Integer.parseInt(kv[1]);
        default -> throw new IllegalArgumentException(
            "unknown option " + a + " (options: --rows, --regions, --sides, --stored-format, --out)");
      }
    }
    if (rows < 1000 || regions < 1) {
      throw new IllegalArgumentException("--rows must be at least 1000 and --regions at least 1");
    }
    if (!sides.contains("plain") || !SIDES.containsAll(sides)) {
      throw new IllegalArgumentException("--sides: plain and any of " + SIDES + ", got " + sides);
    }
    new WritePathBenchmark(fieldFormat).run(rows, regions, sides, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  /** Row {@code i}: an 8-byte sequential key and 10 seeded 100-byte printable fields. */
  static Put row(long i) {
    SplittableRandom random = new SplittableRandom(i);
    Put put = new Put(Bytes.toBytes(i));
    for (int f = 0; f < FIELDS; f++) {
      byte[] value = new byte[FIELD_BYTES];
      for (int b = 0; b < value.length; b++) {
        value[b] = (byte) (' ' + random.nextInt(95));
      }
      put.addColumn(F, Bytes.toBytes("field" + f), value);
    }
    return put;
  }

  /**
   * Row {@code i} padded to its stored size in format 2, in its stored order: a DET-shaped 17-byte
   * key (one block, no body, for an 8-byte key) and 29 more bytes per value.
   */
  static Put sizedRow(long i) {
    Put row = row(i);
    return PaddedRows.padded(row, PaddedRows.detShapedKey(row.getRow(), false), FIELD_NAMES, STD_FORMAT_2_BYTES);
  }

  /** Row {@code i} padded to its stored size in format 2 but in plain order: 9 zero bytes after its key. */
  static Put sizedRowInOrder(long i) {
    Put row = row(i);
    return PaddedRows.padded(row, Bytes.add(row.getRow(), new byte[DET_KEY_BYTES - Long.BYTES]), FIELD_NAMES,
        STD_FORMAT_2_BYTES);
  }

  private static Iterator<Put> rows(LongFunction<Put> rowsOf, int count) {
    return new Iterator<>() {
      private long next;

      @Override
      public boolean hasNext() {
        return next < count;
      }

      @Override
      public Put next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return rowsOf.apply(next++);
      }
    };
  }

  /** One loaded table: how fast, and what it stores. */
  private record Loaded(String method, String side, double seconds, long storedBytes, double keyBytes,
      double valueBytes) {}

  private void run(int rows, int regions, List<String> sides, Path outDir, String args) throws Exception {
    Path data = Files.createTempDirectory("writes-bench-");
    List<Loaded> results = new ArrayList<>();
    Map<String, SecureBulkLoad.Report> bulkPhases = new LinkedHashMap<>();
    try (BenchCluster hbase = BenchCluster.start("processes", data, "1500m", out)) {
      Configuration conf = hbase.configuration();
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      KeyProvider keys = KeyProvider.fromMasterKey(key);
      Map<String, TableSchema> schemas = schemas("writes_", sides);
      Map<String, TableSchema> warmUps = schemas("warmup_", sides);
      List<TableSchema> all = new ArrayList<>(schemas.values());
      all.addAll(warmUps.values());
      Path staging = data.resolve("staging");
      try (Connection connection = ConnectionFactory.createConnection(conf);
          SecureConnection secure = SecureConnection.wrap(connection, keys, all);
          Admin admin = connection.getAdmin()) {
        // The client's JIT compiles each side's path before its timed load, whichever loads first.
        for (Map.Entry<String, TableSchema> e : warmUps.entrySet()) {
          load(secure, connection, admin, e.getKey(), e.getValue(), WARM_UP_ROWS, regions, staging);
          admin.disableTable(TableName.valueOf(e.getValue().tableName()));
          admin.deleteTable(TableName.valueOf(e.getValue().tableName()));
        }
        for (Map.Entry<String, TableSchema> e : schemas.entrySet()) {
          Timed timed = load(secure, connection, admin, e.getKey(), e.getValue(), rows, regions, staging);
          results.add(timed.loaded());
          if (timed.bulk() != null) {
            bulkPhases.put(timed.loaded().side(), timed.bulk());
          }
          out.printf(Locale.ROOT, "%-6s %-9s %,d rows in %.1f s (%,.0f rows/s)%n", timed.loaded().method(),
              timed.loaded().side(), rows, timed.loaded().seconds(), rows / timed.loaded().seconds());
        }
        for (int i = 0; i < results.size(); i++) {
          Loaded l = results.get(i);
          TableName name = TableName.valueOf(schemas.get(l.method() + "|" + l.side()).tableName());
          admin.flush(name);
          admin.majorCompact(name);
          waitForCompaction(admin, name);
          results.set(i, new Loaded(l.method(), l.side(), l.seconds(), storedBytes(admin, name), l.keyBytes(),
              l.valueBytes()));
        }
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
    report(rows, regions, results, bulkPhases, outDir, args);
  }

  /** Untimed rows each side loads first. */
  private static final int WARM_UP_ROWS = 20_000;

  /** A timed load, and a bulk load's phases. */
  private record Timed(Loaded loaded, SecureBulkLoad.Report bulk) {}

  /** The tables of one run, keyed "method|side", their names starting with {@code prefix}. */
  private Map<String, TableSchema> schemas(String prefix, List<String> sides) {
    Map<String, TableSchema> schemas = new LinkedHashMap<>();
    for (String method : List.of("put", "bulk")) {
      schemas.put(method + "|plain", TableSchema.parse(PLAIN.replace("NAME", prefix + method + "_plain"), "plain"));
      schemas.put(method + "|" + SIZED, TableSchema.parse(PLAIN.replace("NAME", prefix + method + "_sized"), SIZED));
      schemas.put(method + "|" + SIZED_IN_ORDER, TableSchema.parse(PLAIN.replace("NAME",
          prefix + method + "_sized_in_order"), SIZED_IN_ORDER));
      for (String format : List.of("1", "2")) {
        schemas.put(method + "|format " + format, TableSchema.parse(SECURE.replace("NAME", prefix + method
            + "_secure_v" + format).replace("FORMAT", format), "secure format " + format));
      }
      schemas.put(method + "|" + DET_FIELD, fieldSchema(prefix + method + "_det_field", "DET", DET_FIELD));
      schemas.put(method + "|" + SSE_FIELD, fieldSchema(prefix + method + "_sse_field", "SSE", SSE_FIELD));
      schemas.put(method + "|" + DET_COUNTS, fieldSchema(prefix + method + "_det_counts", "DET", DET_COUNTS));
    }
    schemas.keySet().removeIf(k -> !sides.contains(k.split("\\|")[1]));
    return schemas;
  }

  /** Creates the table of {@code key} ("method|side") and loads {@code rows} rows into it by its method. */
  private Timed load(SecureConnection secure, Connection connection, Admin admin, String key, TableSchema schema,
      int rows, int regions, Path staging) throws Exception {
    TableName name = TableName.valueOf(schema.tableName());
    String method = key.split("\\|")[0];
    String side = key.split("\\|")[1];
    boolean inOrder = side.equals(SIZED_IN_ORDER);
    boolean sized = side.equals(SIZED);
    boolean sequential = side.equals("plain") || inOrder; // rows in plain's key order
    boolean unprotected = sequential || sized; // written through a plain table
    secure.createTable(schema, sequential ? sequentialSplits(rows, regions)
        : sized ? scatteredSplits(regions) : secure.uniformSplitKeys(name, regions));
    SecureBulkLoad.Report report = null;
    Loaded loaded;
    // The plain put side writes through a plain HBase table, as applications do today.
    try (SecureTable table = secure.getSecureTable(name);
        Table raw = connection.getTable(name)) {
      long t0 = System.nanoTime();
      LongFunction<Put> rowsOf = sized ? WritePathBenchmark::sizedRow
          : inOrder ? WritePathBenchmark::sizedRowInOrder : WritePathBenchmark::row;
      boolean countRows = side.equals(DET_COUNTS);
      if (method.equals("put")) {
        put(unprotected ? raw : table, rowsOf, rows, countRows ? connection : null);
      } else {
        org.apache.hadoop.fs.Path stagingDir = new org.apache.hadoop.fs.Path(staging.toUri());
        CompletableFuture<Void> counts = countRows ? CompletableFuture.runAsync(() -> writeCountRows(connection, rows))
            : CompletableFuture.completedFuture(null);
        report = (unprotected ? SecureBulkLoad.intoUnprotected(raw, stagingDir)
            : SecureBulkLoad.into(table, stagingDir)).load(rows(rowsOf, rows));
        counts.join();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      loaded = new Loaded(method, side, seconds, 0, averageKeyBytes(raw), averageValueBytes(raw));
    }
    // The next load starts on a quiet cluster: no flush or compaction of this table left running.
    admin.flush(name);
    waitForCompaction(admin, name);
    return new Timed(loaded, report);
  }

  /** Puts the rows in batches; with {@code counts}, each batch's count rows first, as an SSE batch writes its count cells. */
  private static void put(Table table, LongFunction<Put> rowsOf, int rows, Connection counts) throws IOException {
    List<Put> batch = new ArrayList<>(BATCH);
    for (long i = 0; i < rows; i++) {
      batch.add(rowsOf.apply(i));
      if (batch.size() == BATCH || i == rows - 1) {
        if (counts != null) {
          putCountRows(counts, batch.size());
        }
        table.put(batch);
        batch.clear();
      }
    }
  }

  /** Writes {@code rows} count-cell-shaped rows into the counter table, 1,000 per call, as an SSE bulk load's chunks do. */
  private static void writeCountRows(Connection connection, int rows) {
    try {
      for (int done = 0; done < rows; done += 1_000) {
        putCountRows(connection, Math.min(1_000, rows - done));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code n} blind puts shaped as writer-lane count cells: a 40-byte random row, an 8-byte value. */
  private static void putCountRows(Connection connection, int n) throws IOException {
    SplittableRandom random = new SplittableRandom();
    List<Put> cells = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] row = new byte[40];
      for (int b = 0; b < row.length; b += 8) {
        Bytes.putLong(row, b, random.nextLong());
      }
      cells.add(new Put(row).addColumn(HBaseIdentifierSource.FAMILY, Bytes.toBytes("sse"), Bytes.toBytes(random.nextLong())));
    }
    try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
      counters.put(cells);
    }
  }

  /** Even splits of keys that start with a header byte 1 and then pseudorandom bytes. */
  private static byte[][] scatteredSplits(int regions) {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = new byte[] {1, (byte) (256 * i / regions)};
    }
    return splits;
  }

  private static byte[][] sequentialSplits(int rows, int regions) {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes((long) rows * i / regions);
    }
    return splits;
  }

  private static double averageKeyBytes(Table raw) throws IOException {
    return sample(raw, true);
  }

  private static double averageValueBytes(Table raw) throws IOException {
    return sample(raw, false);
  }

  /** Average stored row-key or value length over the first 100 stored rows. */
  private static double sample(Table raw, boolean keys) throws IOException {
    long total = 0;
    long count = 0;
    try (ResultScanner s = raw.getScanner(new Scan().setLimit(100))) {
      for (Result r : s) {
        for (var cell : r.rawCells()) {
          total += keys ? cell.getRowLength() : cell.getValueLength();
          count++;
        }
      }
    }
    return count == 0 ? 0 : (double) total / count;
  }

  static void waitForCompaction(Admin admin, TableName name) throws IOException, InterruptedException {
    Thread.sleep(1000);
    for (int i = 0; i < 600 && compacting(admin, name); i++) {
      Thread.sleep(500);
    }
  }

  /**
   * Whether a region of the table is compacting. HBase 2.6.4's HBaseAdmin.getCompactionState
   * throws a NullPointerException when a region it asks is closing (a split of a table loaded
   * without split points): that region is still busy, so the answer is yes.
   */
  private static boolean compacting(Admin admin, TableName name) throws IOException {
    try {
      return admin.getCompactionState(name) != CompactionState.NONE;
    } catch (NullPointerException regionInTransition) {
      return true;
    }
  }

  /**
   * Bytes of the table's live store files, as its region servers report them (whole MB per region:
   * files a compaction replaced are not counted, though they wait on disk a while).
   */
  static long storedBytes(Admin admin, TableName name) throws IOException {
    double bytes = 0;
    for (ServerName server : admin.getRegionServers()) {
      for (RegionMetrics region : admin.getRegionMetrics(server, name)) {
        bytes += region.getStoreFileSize().get(Size.Unit.BYTE);
      }
    }
    return (long) bytes;
  }

  private void report(int rows, int regions, List<Loaded> results, Map<String, SecureBulkLoad.Report> bulkPhases,
      Path outDir, String args) throws IOException {
    StringBuilder md = new StringBuilder("# Write paths: plain HBase vs CryptoWorker, one run\n\n");
    List<String> sides = results.stream().map(Loaded::side).distinct().toList();
    md.append("| method | table | rows/s | of plain | stored MB | stored vs plain | stored row key bytes |"
        + " stored value bytes |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    StringBuilder csv = new StringBuilder("method,side,rows,seconds,rows_per_s,stored_bytes,key_bytes,value_bytes\n");
    for (String method : List.of("put", "bulk")) {
      Loaded p = find(results, method, "plain");
      for (String side : sides) {
        Loaded l = find(results, method, side);
        md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.2f | %.1f | %.2f | %.0f | %.0f |%n",
            method.equals("put") ? "put, batches of " + BATCH : "bulk load (HFiles)",
            side.equals("plain") ? "plain" : side.equals(SIZED) ? "plain, padded to format 2's sizes and order"
                : side.equals(SIZED_IN_ORDER) ? "plain, padded to format 2's sizes, in plain order"
                : side.equals(DET_FIELD) || side.equals(SSE_FIELD) || side.equals(DET_COUNTS)
                ? "secure, " + fieldFormatName() + ", " + side
                : "secure, stored " + side, rows / l.seconds(), p.seconds() / l.seconds(),
            l.storedBytes() / 1e6, (double) l.storedBytes() / p.storedBytes(), l.keyBytes(), l.valueBytes()));
        csv.append(String.format(Locale.ROOT, "%s,%s,%d,%.3f,%.0f,%d,%.1f,%.1f%n", method, side, rows,
            l.seconds(), rows / l.seconds(), l.storedBytes(), l.keyBytes(), l.valueBytes()));
      }
    }
    md.append("\nWhere a bulk load spends its time (s): encoding rows into stored cells on the client (for the"
        + " plain side: copying them), sorting and writing HFiles, HBase's bulk-load tool.\n\n"
        + "| side | encode | sort and write HFiles | load | HFiles | HFile MB |\n|---|---:|---:|---:|---:|---:|\n");
    bulkPhases.forEach((side, r) -> md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %d | %.1f |%n",
        side, r.encodeNanos() / 1e9, r.writeNanos() / 1e9, r.loadNanos() / 1e9, r.hfiles(), r.hfileBytes() / 1e6)));
    md.append(String.format(Locale.ROOT, "%nSetup: %,d rows per table (8-byte sequential keys, %d fields of %d bytes),"
        + " every table pre-split into %d regions (plain at even key values, secure with"
        + " SecureConnection.uniformSplitKeys); puts from one thread in batches of %d; bulk loads in rounds of %,d"
        + " rows, encrypted on one thread per processor; before the timed loads, every table's method and side"
        + " loads " + String.format(Locale.ROOT, "%,d", WARM_UP_ROWS) + " untimed rows into a table dropped after,"
        + " so the client's JIT has compiled each path whichever side loads first; secure schema DET row key, STD values, in stored format 1 and 2 (format 3 stores STD"
        + " and DET as format 2), and in " + (fieldFormat == 0 ? "the " : "") + fieldFormatName() + " with field0 under DET (det field) or SSE (sse field, one"
        + " index entry per row, its values unique), or the DET field with one count-cell-shaped put (40-byte random"
        + " row, 8-byte value) per row into cryptoworker_ids (det field and count rows: before each batch of puts, or"
        + " beside a bulk load in calls of 1,000, as an SSE load of unique values writes its count cells); the control table is plain, its rows padded with zeros to format 2's stored sizes"
        + " (a 17-byte row key: a header byte and 16 bytes of SHA-256 of the key, in pseudorandom order as DET's;"
        + " each value +29 bytes) and pre-split as the secure ones: the ceiling of any encryption storing that many"
        + " bytes in that order; the in-order control pads the same way but keeps plain's order (9 zero bytes after"
        + " the 8-byte key) and plain's splits: the ceiling of an encryption of that size that kept the keys' order,"
        + " as OPE does; stored bytes after flush and major compaction (no"
        + " family compression or block encoding). HBase %s as separate processes (ZooKeeper, 1 master,"
        + " 2 region servers). %s. Arguments: %s%n",
        rows, FIELDS, FIELD_BYTES, regions, BATCH, SecureBulkLoad.DEFAULT_ROWS_PER_ROUND, VersionInfo.getVersion(),
        RunInfo.describe(), args.isEmpty() ? "(defaults)" : args));
    ResultFiles.write(outDir, "writes", md, csv, out);
  }

  private static Loaded find(List<Loaded> results, String method, String side) {
    return results.stream().filter(l -> l.method().equals(method) && l.side().equals(side)).findFirst().orElseThrow();
  }
}
