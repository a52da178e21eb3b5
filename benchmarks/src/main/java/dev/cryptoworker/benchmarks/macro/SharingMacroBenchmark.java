package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
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
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * The SHARED layout end to end: a logical table over 4 independent HBase clusters (each an embedded
 * HBase in its own child JVM on this machine) under each sharing scheme, beside a STD table and a
 * plain table on one of them, in one run. For each table: puts (rows of 10 fields of 100 bytes, DET
 * row keys, batches of 200, one thread), single-row gets at random rows (one thread), and the bytes
 * stored on all clusters after flush and major compaction. Then random access: one 128-byte field of
 * large values (64 KiB and 1 MiB) read with {@link SecureTable#getValueRange} from a Secure RAID
 * table (the key share and the one data share holding it) and with whole-value gets.
 *
 * <p>Options: {@code --rows=N} (20,000), {@code --gets=N} (5,000), {@code --out=dir}. Run with
 * {@code ./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@sharing}.
 */
public final class SharingMacroBenchmark {
  private static final List<String> CLUSTERS = List.of("east", "west", "north", "south");
  private static final List<String> SCHEMES = List.of("SHAMIR", "PACKED_SHAMIR", "SECURE_RAID", "AONT_RS", "AES_RS");
  private static final byte[] F = Bytes.toBytes("f");
  private static final int BATCH = 200;
  private static final int FIELD = 128;
  private static final int[] DOCUMENT_SIZES = {64 << 10, 1 << 20};
  private static final int DOCUMENTS = 16;
  private static final int FIELD_READS = 400;
  /** Warm-up reads: the JDK's AES-GCM intrinsic is compiled only after ~600 calls on 1 MiB inputs. */
  private static final int FIELD_WARMUP = 800;
  private static final String SHARED = """
      table: NAME
      rowKey: { box: DET }
      layout: { type: SHARED, scheme: SCHEME, n: 4, r: 1, z: 1, clusters: [east, west, north, south] }
      families:
        f:
          default: { box: STD }
      """;
  private static final String ONE_CLUSTER = """
      table: NAME
      rowKey: { box: BOX }
      families:
        f:
          default: { box: BOX }
      """;

  private final PrintStream out = System.out;
  private final Map<String, Path> clusterDirs = new LinkedHashMap<>();

  public static void main(String[] args) throws Exception {
    int rows = 20_000;
    int gets = 5_000;
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "gets" -> gets = Integer.parseInt(kv[1]);
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + a + " (options: --rows, --gets, --out)");
      }
    }
    if (rows < 1000 || gets < 100) {
      throw new IllegalArgumentException("--rows must be at least 1000 and --gets at least 100");
    }
    new SharingMacroBenchmark().run(rows, gets, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  /** One table's measurements. */
  private record Measured(String table, double putSeconds, double[] getMicros, long storedBytes, long[] perCluster) {}

  /** One way of reading one field of a large value. */
  private record FieldRead(int size, String how, double[] micros, long bytesPerRead) {}

  private void run(int rows, int gets, Path outDir, String args) throws Exception {
    Path data = Files.createTempDirectory("sharing-bench-");
    List<BenchCluster> hbases = new ArrayList<>();
    Map<String, Connection> connections = new LinkedHashMap<>();
    clusterDirs.clear();
    List<Measured> measured = new ArrayList<>();
    List<FieldRead> fieldReads = new ArrayList<>();
    try {
      startClusters(data, hbases);
      for (int i = 0; i < CLUSTERS.size(); i++) {
        connections.put(CLUSTERS.get(i), ConnectionFactory.createConnection(hbases.get(i).configuration()));
        clusterDirs.put(CLUSTERS.get(i), data.resolve(CLUSTERS.get(i)));
      }
      byte[] master = new byte[32];
      new SecureRandom().nextBytes(master);
      KeyProvider keys = KeyProvider.fromMasterKey(master);
      Map<String, TableSchema> schemas = new LinkedHashMap<>();
      schemas.put("plain, east only", TableSchema.parse(ONE_CLUSTER.replace("NAME", "share_plain")
          .replace("BOX", "PLAIN"), "plain"));
      schemas.put("STD, east only", TableSchema.parse(ONE_CLUSTER.replace("NAME", "share_std")
          .replace("rowKey: { box: BOX }", "rowKey: { box: DET }").replace("BOX", "STD"), "std"));
      for (String scheme : SCHEMES) {
        schemas.put(scheme, TableSchema.parse(SHARED.replace("NAME", "share_" + scheme.toLowerCase(Locale.ROOT))
            .replace("SCHEME", scheme), scheme));
      }
      TableSchema documents = TableSchema.parse(SHARED.replace("NAME", "share_documents")
          .replace("SCHEME", "SECURE_RAID"), "documents");
      TableSchema stdDocuments = TableSchema.parse(ONE_CLUSTER.replace("NAME", "share_std_documents")
          .replace("rowKey: { box: BOX }", "rowKey: { box: DET }").replace("BOX", "STD"), "std documents");
      List<TableSchema> all = new ArrayList<>(schemas.values());
      all.add(documents);
      all.add(stdDocuments);
      SecureConnection.Builder builder = SecureConnection.builder().keys(keys).schemas(all)
          .cluster(SecureConnection.DEFAULT_CLUSTER, connections.get("east"));
      connections.forEach(builder::cluster);
      try (SecureConnection secure = builder.build()) {
        for (Map.Entry<String, TableSchema> e : schemas.entrySet()) {
          measured.add(measure(secure, connections, e.getKey(), e.getValue(), rows, gets));
        }
        fieldReads.addAll(fieldReads(secure, connections, documents, stdDocuments));
      }
    } finally {
      for (Connection c : connections.values()) {
        c.close();
      }
      for (BenchCluster h : hbases) {
        h.close();
      }
      RunDirectories.deleteScratch(data);
    }
    report(rows, gets, measured, fieldReads, outDir, args);
  }

  private void startClusters(Path data, List<BenchCluster> hbases) throws Exception {
    ExecutorService starter = Executors.newFixedThreadPool(CLUSTERS.size());
    try {
      List<Future<BenchCluster>> starting = new ArrayList<>();
      for (String name : CLUSTERS) {
        Path dir = Files.createDirectories(data.resolve(name));
        starting.add(starter.submit(() -> BenchCluster.start("embedded", dir, "1g", out)));
      }
      for (Future<BenchCluster> f : starting) {
        hbases.add(f.get());
      }
    } finally {
      starter.shutdown();
    }
  }

  private Measured measure(SecureConnection secure, Map<String, Connection> connections, String label,
      TableSchema schema, int rows, int gets) throws Exception {
    TableName name = TableName.valueOf(schema.tableName());
    secure.createTable(schema);
    boolean plain = label.startsWith("plain");
    double putSeconds;
    double[] micros = new double[gets];
    try (SecureTable secureTable = secure.getSecureTable(name);
        Table raw = connections.get("east").getTable(name)) {
      Table table = plain ? raw : secureTable;
      long t0 = System.nanoTime();
      List<Put> batch = new ArrayList<>(BATCH);
      for (long i = 0; i < rows; i++) {
        batch.add(WritePathBenchmark.row(i));
        if (batch.size() == BATCH || i == rows - 1) {
          table.put(batch);
          batch.clear();
        }
      }
      putSeconds = (System.nanoTime() - t0) / 1e9;
      SplittableRandom random = new SplittableRandom(42);
      for (int i = 0; i < Math.min(gets, 1000); i++) { // warm-up
        table.get(new Get(Bytes.toBytes(random.nextLong(rows))));
      }
      for (int i = 0; i < gets; i++) {
        long row = random.nextLong(rows);
        long g0 = System.nanoTime();
        Result r = table.get(new Get(Bytes.toBytes(row)));
        micros[i] = (System.nanoTime() - g0) / 1e3;
        if (r.size() != 10) {
          throw new IllegalStateException(label + ": row " + row + " read back with " + r.size() + " cells, not 10");
        }
      }
    }
    long[] perCluster = new long[CLUSTERS.size()];
    long stored = 0;
    for (int i = 0; i < CLUSTERS.size(); i++) {
      try (Admin admin = connections.get(CLUSTERS.get(i)).getAdmin()) {
        if (!admin.tableExists(name)) {
          continue;
        }
        admin.flush(name);
        admin.majorCompact(name);
        WritePathBenchmark.waitForCompaction(admin, name);
        perCluster[i] = StoreFiles.bytesAfterMajorCompaction(clusterDirs.get(CLUSTERS.get(i)), name);
        stored += perCluster[i];
      }
    }
    Measured m = new Measured(label, putSeconds, micros, stored, perCluster);
    out.printf(Locale.ROOT, "%-18s put %,8.0f rows/s   get %,7.0f /s (p50 %,.0f us)   stored %,.1f MB%n", label,
        rows / putSeconds, gets / (sum(micros) / 1e6), Percentiles.of(micros, 50), stored / 1e6);
    return m;
  }

  private List<FieldRead> fieldReads(SecureConnection secure, Map<String, Connection> connections,
      TableSchema shared, TableSchema std) throws Exception {
    List<FieldRead> reads = new ArrayList<>();
    secure.createTable(shared);
    secure.createTable(std);
    try (SecureTable sharedTable = secure.getSecureTable(TableName.valueOf(shared.tableName()));
        SecureTable stdTable = secure.getSecureTable(TableName.valueOf(std.tableName()))) {
      SplittableRandom random = new SplittableRandom(7);
      for (int size : DOCUMENT_SIZES) {
        byte[] q = Bytes.toBytes("doc" + size);
        for (int d = 0; d < DOCUMENTS; d++) {
          byte[] doc = new byte[size];
          for (int b = 0; b < size; b++) {
            doc[b] = (byte) (' ' + random.nextInt(95));
          }
          Put put = new Put(Bytes.toBytes((long) d)).addColumn(F, q, doc);
          sharedTable.put(put);
          stdTable.put(put);
        }
        // n = 4, r = z = 1: k = 2, so each share holds half a value (plus a 7-byte header).
        long share = size / 2 + 7;
        reads.add(read(sharedTable, size, q, "SECURE_RAID, getValueRange (1 key + 1 data share)", true, 2 * share));
        reads.add(read(sharedTable, size, q, "SECURE_RAID, whole-value get (4 shares)", false, 4 * share));
        reads.add(read(stdTable, size, q, "STD on one cluster, whole-value get", false, size + 29));
      }
    }
    return reads;
  }

  private FieldRead read(SecureTable table, int size, byte[] q, String how, boolean partial, long bytesPerRead)
      throws IOException {
    SplittableRandom random = new SplittableRandom(size);
    double[] micros = new double[FIELD_READS];
    for (int i = -FIELD_WARMUP; i < FIELD_READS; i++) {
      byte[] row = Bytes.toBytes((long) random.nextInt(DOCUMENTS));
      int offset = random.nextInt(size / FIELD) * FIELD;
      long t0 = System.nanoTime();
      byte[] field = partial ? table.getValueRange(row, F, q, offset, FIELD)
          : java.util.Arrays.copyOfRange(table.get(new Get(row).addColumn(F, q)).getValue(F, q), offset, offset + FIELD);
      if (i >= 0) {
        micros[i] = (System.nanoTime() - t0) / 1e3;
      }
      if (field.length != FIELD) {
        throw new IllegalStateException(how + ": read " + field.length + " bytes, not " + FIELD);
      }
    }
    out.printf(Locale.ROOT, "%,9d B  %-52s p50 %,8.0f us%n", size, how, Percentiles.of(micros, 50));
    return new FieldRead(size, how, micros, bytesPerRead);
  }

  private static double sum(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s;
  }

  private void report(int rows, int gets, List<Measured> measured, List<FieldRead> fieldReads, Path outDir,
      String args) throws IOException {
    Measured std = measured.stream().filter(m -> m.table().startsWith("STD")).findFirst().orElseThrow();
    StringBuilder md = new StringBuilder("# SHARED layout over 4 clusters vs one cluster, one run\n\n");
    md.append("| table | put rows/s | put vs STD | get/s | get vs STD | get p50 us | get p99 us | stored MB |"
        + " stored vs STD | MB per cluster (east, west, north, south) |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    StringBuilder csv = new StringBuilder("section,table,put_rows_per_s,gets_per_s,get_p50_us,get_p99_us,stored_bytes,"
        + "bytes_per_read\n");
    for (Measured m : measured) {
      double getRate = gets / (sum(m.getMicros()) / 1e6);
      double stdGetRate = gets / (sum(std.getMicros()) / 1e6);
      StringBuilder perCluster = new StringBuilder();
      for (long b : m.perCluster()) {
        perCluster.append(perCluster.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", b / 1e6));
      }
      md.append(String.format(Locale.ROOT, "| %s | %,.0f | %.2f | %,.0f | %.2f | %,.0f | %,.0f | %.1f | %.2f | %s |%n",
          m.table(), rows / m.putSeconds(), std.putSeconds() / m.putSeconds(), getRate, getRate / stdGetRate,
          Percentiles.of(m.getMicros(), 50), Percentiles.of(m.getMicros(), 99), m.storedBytes() / 1e6,
          (double) m.storedBytes() / std.storedBytes(), perCluster));
      csv.append(String.format(Locale.ROOT, "table,%s,%.0f,%.0f,%.0f,%.0f,%d,%n", m.table(), rows / m.putSeconds(),
          getRate, Percentiles.of(m.getMicros(), 50), Percentiles.of(m.getMicros(), 99), m.storedBytes()));
    }
    md.append("\nRandom access: one " + FIELD + "-byte field at a random offset of a large value (" + DOCUMENTS
        + " values per size, " + FIELD_READS + " reads each, one thread). Bytes per read: share (or cell) bytes"
        + " the clusters send; getValueRange also sends a 4-byte length from each of the other two clusters.\n\n");
    md.append("| value size | how | p50 us | p99 us | reads/s | value bytes sent per read |\n");
    md.append("|---:|---|---:|---:|---:|---:|\n");
    for (FieldRead f : fieldReads) {
      md.append(String.format(Locale.ROOT, "| %,d | %s | %,.0f | %,.0f | %,.0f | %,d |%n", f.size(), f.how(),
          Percentiles.of(f.micros(), 50), Percentiles.of(f.micros(), 99), f.micros().length / (sum(f.micros()) / 1e6),
          f.bytesPerRead()));
      csv.append(String.format(Locale.ROOT, "field,%d %s,,%.0f,%.0f,%.0f,,%d%n", f.size(), f.how().replace(',', ';'),
          f.micros().length / (sum(f.micros()) / 1e6), Percentiles.of(f.micros(), 50), Percentiles.of(f.micros(), 99),
          f.bytesPerRead()));
    }
    md.append(String.format(Locale.ROOT, "%nSetup: %,d rows per table (8-byte sequential keys stored as DET, or"
        + " plain for the plain table; 10 fields of 100 bytes); puts in batches of %d and %,d single-row gets at"
        + " uniformly random rows (after 1,000 warm-up gets), one client thread. SHARED tables: n = 4, r = 1, z = 1"
        + " (AONT_RS and AES_RS: z = 0 in effect), writes acknowledged by 3 of 4 clusters, reads ask all 4. Four"
        + " independent HBase %s clusters, each an embedded HBase (master and region server in one child JVM, 1 GiB"
        + " heap) on this machine, so every write and read of a SHARED table costs four clusters' CPU on the same"
        + " cores; on separate machines the clusters work in parallel. Stored bytes after flush and major compaction,"
        + " summed over the clusters (the exact size of each store's one file). %s. Arguments: %s%n",
        rows, BATCH, gets, VersionInfo.getVersion(), RunInfo.describe(), args.isEmpty() ? "(defaults)" : args));
    ResultFiles.write(outDir, "sharing", md, csv, out);
  }
}
