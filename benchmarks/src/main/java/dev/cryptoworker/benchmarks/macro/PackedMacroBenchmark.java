package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.layout.packed.PackedTables;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.synthetic.Patient;
import dev.cryptoworker.synthetic.PatientGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * MiniCrypt packs on HBase, in one run on one embedded HBase whose block cache is sized so that the
 * per-row tables do not fit in it and the packed one does: the same synthetic patients stored
 * plain, plain with HBase's ZSTD family compression, STD per row (with ZSTD, which cannot help), and
 * PACKED (GENERIC, 50 rows per pack, ZSTD with a dictionary trained on the first rows), each loaded in
 * batches of 200 puts; stored bytes
 * after major compaction; point reads (uniform and Zipfian) and 100-row scans, one thread; then
 * write throughput of GENERIC and APPEND puts against plain puts with 1, 4 and 16 writers, and the
 * rate at which one client merges APPEND's entries into packs.
 *
 * <p>Options: {@code --rows=N} (50,000), {@code --reads=N} per distribution (3,000), {@code
 * --scans=N} (200), {@code --out=dir}. Run with {@code ./mvnw -q -DskipTests -pl benchmarks -am
 * package exec:exec@packed}.
 */
public final class PackedMacroBenchmark {
  private static final String HEAP = "1g";
  private static final String CACHE_FRACTION = "0.1";
  private static final int WRITE_ROWS = 3_000;
  private static final String PLAIN = """
      table: NAME
      rowKey: { box: PLAIN }
      families:
        FAMILIES
      """;
  private static final String PACKED_LAYOUT =
      "layout: { type: PACKED, mode: GENERIC, rowsPerPack: 50, compression: ZSTD, dictionary: DICT }\n";
  /** APPEND: epochs of a second, merged in the background two seconds (a lease) after they close. */
  private static final String APPEND_LAYOUT = "layout: { type: PACKED, mode: APPEND, rowsPerPack: 50,"
      + " compression: ZSTD, epochMillis: 1000, leaseMillis: 2000 }\n";
  private static final List<String> WRITE_KINDS = List.of("plain", "packed GENERIC", "packed APPEND");

  private final PrintStream out = System.out;

  public static void main(String[] args) throws Exception {
    int rows = 50_000;
    int reads = 3_000;
    int scans = 200;
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "reads" -> reads = Integer.parseInt(kv[1]);
        case "scans" -> scans = Integer.parseInt(kv[1]);
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + a
            + " (options: --rows, --reads, --scans, --out)");
      }
    }
    if (rows < 2_000 || reads < 100 || scans < 10) {
      throw new IllegalArgumentException("--rows must be at least 2000, --reads 100, --scans 10");
    }
    new PackedMacroBenchmark().run(rows, reads, scans, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  /** A directory under {@code data} holding an hbase-site.xml that names HBase's zstd-jni codec for ZSTD. */
  private static Path zstdSiteDirectory(Path data) throws IOException {
    Path dir = Files.createDirectories(data.resolve("site"));
    Files.writeString(dir.resolve("hbase-site.xml"), """
        <?xml version="1.0"?>
        <configuration>
          <property>
            <name>hbase.io.compress.zstd.codec</name>
            <value>org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec</value>
          </property>
        </configuration>
        """);
    return dir;
  }

  /** The jar (or directory) this JVM loads {@code resource} from. */
  private static Path jarOf(String resource) {
    java.net.URL url = PackedMacroBenchmark.class.getClassLoader().getResource(resource);
    if (url == null) {
      throw new IllegalStateException(resource + " is not on the benchmark's classpath");
    }
    String s = url.toString();
    try {
      return s.startsWith("jar:") ? Path.of(new java.net.URI(s.substring(4, s.indexOf("!/"))))
          : Path.of(url.toURI()).getParent();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static byte[] key(long i) {
    return Bytes.toBytes(String.format(Locale.ROOT, "patient-%08d", i));
  }

  /** Patient {@code i} as a put under {@link #key}. */
  static Put patient(PatientGenerator generator, long i) {
    Patient p = generator.patient(i);
    Put put = new Put(key(i));
    p.cells().forEach((family, columns) -> columns.forEach((q, v) -> put.addColumn(Bytes.toBytes(family),
        Bytes.toBytes(q), Bytes.toBytes(v))));
    return put;
  }

  /** A schema of the patients' families with every column under {@code box}. */
  private static String schema(String name, String box, String layout) {
    StringBuilder families = new StringBuilder();
    Patient sample = new PatientGenerator(1).patient(0);
    for (String family : sample.cells().keySet()) {
      families.append(family).append(":\n    default: { box: ").append(box).append(" }\n  ");
    }
    return PLAIN.replace("NAME", name).replace("FAMILIES", families.toString().stripTrailing())
        .replace("families:", layout + "families:");
  }

  /** One table's measurements. */
  private record Measured(String table, double loadSeconds, long storedBytes, double[] uniform, double[] zipfian,
      double[] scans) {}

  private void run(int rows, int reads, int scans, Path outDir, String args) throws Exception {
    Path data = Files.createTempDirectory("packed-bench-");
    List<Measured> measured = new ArrayList<>();
    Map<String, double[]> writes = new LinkedHashMap<>();
    out.printf("Starting an embedded HBase (%s heap, block cache %s of it) in %s ...%n", HEAP, CACHE_FRACTION, data);
    try (EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(data).maxHeap(HEAP).fullJit(true)
        // HBase's own ZSTD codec (zstd-jni) instead of Hadoop's, which needs native libhadoop; named in an
        // hbase-site.xml, where compression algorithms read their codec from
        .addClasspath(zstdSiteDirectory(data))
        .addClasspath(jarOf("org/apache/hadoop/hbase/io/compress/zstd/ZstdCodec.class"))
        .addClasspath(jarOf("com/github/luben/zstd/Zstd.class"))
        .setting("hfile.block.cache.size", CACHE_FRACTION).start()) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", hbase.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", hbase.zookeeperPort());
      byte[] master = new byte[32];
      new SecureRandom().nextBytes(master);
      KeyProvider keys = KeyProvider.fromMasterKey(master);
      Map<String, TableSchema> schemas = new LinkedHashMap<>();
      schemas.put("plain", TableSchema.parse(schema("packed_bench_plain", "PLAIN", ""), "plain"));
      schemas.put("plain, ZSTD family compression", TableSchema.parse(schema("packed_bench_plain_zstd", "PLAIN", ""),
          "zstd"));
      schemas.put("STD per row, ZSTD family compression", TableSchema.parse(schema("packed_bench_std", "STD", ""),
          "std"));
      schemas.put("PACKED, 50 rows, ZSTD + dictionary", TableSchema.parse(schema("packed_bench_packed", "STD",
          PACKED_LAYOUT.replace("DICT", "true")), "packed"));
      for (int writers : new int[] {1, 4, 16}) {
        schemas.put("writes plain " + writers, TableSchema.parse(schema("packed_bench_w_plain_" + writers, "PLAIN", ""),
            "w"));
        schemas.put("writes packed GENERIC " + writers, TableSchema.parse(schema("packed_bench_w_packed_" + writers,
            "STD", PACKED_LAYOUT.replace("DICT", "false")), "w"));
        schemas.put("writes packed APPEND " + writers, TableSchema.parse(schema("packed_bench_w_append_" + writers,
            "STD", APPEND_LAYOUT), "w"));
      }
      try (Connection connection = ConnectionFactory.createConnection(conf);
          SecureConnection secure = SecureConnection.wrap(connection, keys, schemas.values());
          SecureConnection manual = SecureConnection.wrap(connection, keys, schemas.values(),
              SecureTableOptions.builder().backgroundMerges(false).build());
          Admin admin = connection.getAdmin()) {
        for (Map.Entry<String, TableSchema> e : schemas.entrySet()) {
          if (e.getKey().startsWith("writes")) {
            continue;
          }
          TableName name = TableName.valueOf(e.getValue().tableName());
          TableDescriptorBuilder d = SecureConnection.descriptorFor(e.getValue());
          if (e.getKey().contains("ZSTD family")) {
            for (ColumnFamilyDescriptor cf : d.build().getColumnFamilies()) {
              d.modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(cf)
                  .setCompressionType(Compression.Algorithm.ZSTD).build());
            }
          }
          secure.createTable(d, null);
          double seconds = load(secure, connection, e.getKey(), name, rows);
          admin.flush(name);
          admin.majorCompact(name);
          WritePathBenchmark.waitForCompaction(admin, name);
          long stored = StoreFiles.bytesAfterMajorCompaction(data, name);
          out.printf(Locale.ROOT, "%-36s loaded %,d rows in %.1f s, stores %,.1f MB%n", e.getKey(), rows, seconds,
              stored / 1e6);
          measured.add(new Measured(e.getKey(), seconds, stored, null, null, null));
        }
        for (int i = 0; i < measured.size(); i++) {
          Measured m = measured.get(i);
          TableName name = TableName.valueOf(schemas.get(m.table()).tableName());
          try (Table t = m.table().startsWith("plain") ? connection.getTable(name) : secure.getSecureTable(name)) {
            read(t, rows, reads, false); // warm the caches as far as they hold the table
            measured.set(i, new Measured(m.table(), m.loadSeconds(), m.storedBytes(), read(t, rows, reads, false),
                read(t, rows, reads, true), scan(t, rows, scans)));
          }
          Measured r = measured.get(i);
          out.printf(Locale.ROOT, "%-36s gets: uniform %,.0f/s, Zipfian %,.0f/s; 100-row scans %,.1f/s%n", r.table(),
              rate(r.uniform()), rate(r.zipfian()), rate(r.scans()));
        }
        for (int writers : new int[] {1, 4, 16}) {
          for (String kind : WRITE_KINDS) {
            TableSchema schema = schemas.get("writes " + kind + " " + writers);
            TableName name = TableName.valueOf(schema.tableName());
            secure.createTable(schema);
            boolean append = kind.endsWith("APPEND");
            double rowsPerSecond = writeWith(append ? manual : secure, connection, kind.equals("plain"), name,
                writers);
            int column = writers == 1 ? 0 : writers == 4 ? 1 : 2;
            writes.computeIfAbsent(kind, k -> new double[3])[column] = rowsPerSecond;
            out.printf(Locale.ROOT, "writes %-14s %2d writers: %,.0f rows/s%n", kind, writers, rowsPerSecond);
            if (append) {
              // The merge's own rate: once the epoch is due (1 s), closed, and has been closed for a lease
              // (2 s), rounds until every entry is in a pack.
              Thread.sleep(1_100);
              PackedTables.of(manual).mergeEpochs(name);
              Thread.sleep(2_100);
              long t0 = System.nanoTime();
              while (PackedTables.of(manual).unmergedEntries(name) > 0) {
                PackedTables.of(manual).mergeEpochs(name);
              }
              double merged = WRITE_ROWS / ((System.nanoTime() - t0) / 1e9);
              writes.computeIfAbsent("APPEND merge by one client", k -> new double[3])[column] = merged;
              out.printf(Locale.ROOT, "merge of %,d entries: %,.0f rows/s%n", WRITE_ROWS, merged);
            }
          }
        }
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
    report(rows, reads, scans, measured, writes, outDir, args);
  }

  /** Loads the patients: plain tables through HBase, secure ones through SecureTable; the packed one in 4 threads. */
  private double load(SecureConnection secure, Connection connection, String label, TableName name, int rows)
      throws Exception {
    PatientGenerator generator = new PatientGenerator(7);
    long t0 = System.nanoTime();
    try (Table t = label.startsWith("plain") ? connection.getTable(name) : secure.getSecureTable(name)) {
      if (label.startsWith("PACKED")) {
        // A dictionary trained on the first rows, then every row written with it.
        int sample = Math.min(5_000, rows);
        putInBatches(t, generator, sample);
        PackedTables.of(secure).trainDictionary(name, sample);
      }
    }
    // Reopened: a packed table compresses with the dictionary current when it is opened.
    try (Table t = label.startsWith("plain") ? connection.getTable(name) : secure.getSecureTable(name)) {
      putInBatches(t, generator, rows);
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Rows [0, rows) in batches of 200 (a packed table writes each batch pack by pack). */
  private static void putInBatches(Table t, PatientGenerator generator, int rows) throws IOException {
    List<Put> batch = new ArrayList<>();
    for (long i = 0; i < rows; i++) {
      batch.add(patient(generator, i));
      if (batch.size() == 200 || i == rows - 1) {
        t.put(batch);
        batch.clear();
      }
    }
  }

  /** What writer {@code index} of a pool does. */
  @FunctionalInterface
  private interface Writer {
    void run(int index) throws Exception;
  }

  /** Runs {@code writer} in {@code threads} threads (indexes 0..threads-1) and waits for all. */
  private static void inThreads(int threads, Writer writer) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        int index = w;
        done.add(pool.submit(() -> {
          writer.run(index);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static double[] read(Table t, int rows, int reads, boolean zipfian) throws IOException {
    ScrambledZipfianGenerator zipf = new ScrambledZipfianGenerator(0, rows - 1);
    SplittableRandom random = new SplittableRandom(zipfian ? 3 : 5);
    double[] micros = new double[reads];
    for (int i = 0; i < reads; i++) {
      long row = zipfian ? zipf.nextValue() : random.nextLong(rows);
      long t0 = System.nanoTime();
      Result r = t.get(new Get(key(row)));
      micros[i] = (System.nanoTime() - t0) / 1e3;
      if (r.isEmpty()) {
        throw new IllegalStateException("row " + row + " is missing");
      }
    }
    return micros;
  }

  private static double[] scan(Table t, int rows, int scans) throws IOException {
    SplittableRandom random = new SplittableRandom(11);
    double[] micros = new double[scans];
    for (int i = 0; i < scans; i++) {
      long start = random.nextLong(rows - 100);
      long t0 = System.nanoTime();
      int n = 0;
      try (ResultScanner s = t.getScanner(new Scan().withStartRow(key(start)).withStopRow(key(start + 100))
          .setCaching(100))) {
        for (Result r = s.next(); r != null; r = s.next()) {
          n++;
        }
      }
      micros[i] = (System.nanoTime() - t0) / 1e3;
      if (n != 100) {
        throw new IllegalStateException("a 100-row scan from " + start + " read " + n + " rows");
      }
    }
    return micros;
  }

  /** Rows per second of {@value #WRITE_ROWS} single-row puts spread over {@code writers} threads. */
  private static double writeWith(SecureConnection secure, Connection connection, boolean plain, TableName name,
      int writers) throws Exception {
    PatientGenerator generator = new PatientGenerator(9);
    long t0 = System.nanoTime();
    inThreads(writers, w -> {
      try (Table t = plain ? connection.getTable(name) : secure.getSecureTable(name)) {
        // Interleaved keys: the writers share packs, as clients of one table do.
        for (long i = w; i < WRITE_ROWS; i += writers) {
          t.put(patient(generator, i));
        }
      }
    });
    return WRITE_ROWS / ((System.nanoTime() - t0) / 1e9);
  }

  private static double rate(double[] micros) {
    double sum = 0;
    for (double m : micros) {
      sum += m;
    }
    return micros.length / (sum / 1e6);
  }

  private void report(int rows, int reads, int scans, List<Measured> measured, Map<String, double[]> writes,
      Path outDir, String args) throws IOException {
    Measured std = measured.stream().filter(m -> m.table().startsWith("STD")).findFirst().orElseThrow();
    StringBuilder md = new StringBuilder("# PACKED tables on HBase, one run\n\n");
    md.append("| table | stored MB | of plain | load s | gets/s uniform | p50 us | gets/s Zipfian | p50 us |"
        + " 100-row scans/s | p50 ms | reads vs STD per row (uniform, Zipfian, scans) |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    StringBuilder csv = new StringBuilder("table,stored_bytes,load_seconds,uniform_gets_per_s,zipfian_gets_per_s,"
        + "scans_per_s\n");
    long plainBytes = measured.get(0).storedBytes();
    for (Measured m : measured) {
      md.append(String.format(Locale.ROOT,
          "| %s | %.1f | %.2f | %.1f | %,.0f | %,.0f | %,.0f | %,.0f | %,.1f | %.1f | %.2f, %.2f, %.2f |%n", m.table(),
          m.storedBytes() / 1e6, (double) m.storedBytes() / plainBytes, m.loadSeconds(), rate(m.uniform()),
          Percentiles.of(m.uniform(), 50), rate(m.zipfian()), Percentiles.of(m.zipfian(), 50), rate(m.scans()),
          Percentiles.of(m.scans(), 50) / 1e3, rate(m.uniform()) / rate(std.uniform()),
          rate(m.zipfian()) / rate(std.zipfian()), rate(m.scans()) / rate(std.scans())));
      csv.append(String.format(Locale.ROOT, "%s,%d,%.2f,%.0f,%.0f,%.2f%n", m.table(), m.storedBytes(), m.loadSeconds(),
          rate(m.uniform()), rate(m.zipfian()), rate(m.scans())));
    }
    md.append("\nWrites: single-row puts of " + WRITE_ROWS + " patients over 1, 4 and 16 threads, keys interleaved"
        + " between the threads (so the packed writers share packs; packs of 50 rows, no dictionary). APPEND: epochs"
        + " of 1 s and leases of 2 s, no merge during the puts; then one client merges them all into packs (its"
        + " rate: entries merged per second of merge rounds, from the first round that may merge).\n\n"
        + "| | 1 writer | 4 writers | 16 writers |\n|---|---:|---:|---:|\n");
    for (Map.Entry<String, double[]> w : writes.entrySet()) {
      md.append(String.format(Locale.ROOT, "| %s, rows/s | %,.0f | %,.0f | %,.0f |%n", w.getKey(), w.getValue()[0],
          w.getValue()[1], w.getValue()[2]));
      csv.append(String.format(Locale.ROOT, "writes %s,,,%.0f,%.0f,%.0f%n", w.getKey(), w.getValue()[0],
          w.getValue()[1], w.getValue()[2]));
    }
    double[] q = writes.get("plain");
    for (String kind : List.of("packed GENERIC", "packed APPEND")) {
      double[] p = writes.get(kind);
      md.append(String.format(Locale.ROOT, "| %s / plain | %.2f | %.2f | %.2f |%n", kind, p[0] / q[0], p[1] / q[1],
          p[2] / q[2]));
    }
    md.append(String.format(Locale.ROOT, "%nSetup: %,d synthetic patients (%d families, PLAIN row keys"
        + " patient-NNNNNNNN so that scans have ranges), one embedded HBase %s (master and region server in one"
        + " child JVM, %s heap, hfile.block.cache.size %s: about %d MB of block cache, which holds data blocks"
        + " uncompressed, so only the packed table fits); every table loaded in batches of 200 puts from one"
        + " thread (a packed table writes a batch pack by pack; for the packed one 5,000 rows first, then a"
        + " dictionary trained on them, then every row). Family compression ZSTD: HBase's own codec"
        + " (hbase-compression-zstd, zstd-jni) on the region server. Stored bytes after flush and major compaction"
        + " (exact store file sizes). Reads:"
        + " %,d single-row gets per distribution (uniform; YCSB's scrambled Zipfian) and %,d scans of 100 rows from"
        + " a random key, one thread, after one pass of %,d uniform gets to warm the caches. %s. Arguments: %s%n",
        rows, new PatientGenerator(1).patient(0).cells().size(), VersionInfo.getVersion(), HEAP, CACHE_FRACTION,
        (int) (1024 * Double.parseDouble(CACHE_FRACTION)), reads, scans, reads, RunInfo.describe(),
        args.isEmpty() ? "(defaults)" : args));
    ResultFiles.write(outDir, "packed", md, csv, out);
  }
}
