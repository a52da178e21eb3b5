package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.layout.packed.PackedTableLayout;
import dev.cryptoworker.mapreduce.SecureBulkLoad;
import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.packs.PackPadding;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.ExampleSchemas;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import dev.cryptoworker.ycsb.HealthcareWorkload;
import dev.cryptoworker.ycsb.SecureHBaseClient;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;
import site.ycsb.DB;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;

/**
 * The main job: plain HBase against CryptoWorker on one cluster, in one process. Loads the same
 * seeded Patients and Appointments data into a plain and a secure table, runs every workload on
 * both sides with the same binding code, interleaved in rounds so machine noise hits both, and
 * reports throughput, p50/p95/p99 latency per operation and the secure/plain ratio as Markdown,
 * CSV and a PNG chart, by default in a new directory {@code benchmarks/runs/<yyyyMMdd-HHmmss>/}
 * (the paths are printed at the end; {@code --out=benchmarks/results} refreshes the committed ones).
 *
 * <p>Options: {@code -Dbench.args="--help"} prints them all, with their defaults and the
 * workloads; they are defined once, in {@link BenchOptions}. A usage error exits with status 2
 * before any server starts.
 */
public final class WorkloadBenchmark {

  private final PrintStream out = System.out;
  private final BenchOptions options;
  /** When the job started: names its results directory. */
  private final LocalDateTime started = LocalDateTime.now();

  private WorkloadBenchmark(BenchOptions options) {
    this.options = options;
  }

  public static void main(String[] args) throws Exception {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (BenchOptions.UsageException e) {
      System.err.println("WorkloadBenchmark: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (options.helpRequested()) {
      System.out.print(BenchOptions.helpText());
      return;
    }
    new WorkloadBenchmark(options).run(String.join(" ", args));
  }

  /** CPU time of the client (this JVM) and of the embedded region server's JVM, if known. */
  private final CpuClock cpu = new CpuClock();

  private int intOption(String name) {
    return options.integer(name);
  }

  private void run(String args) throws Exception {
    AutoCloseable cluster = null;
    Path data = null;
    try {
      Configuration conf = HBaseConfiguration.create();
      if (options.get("zookeeper").isEmpty()) {
        data = Files.createTempDirectory("workload-bench-");
        clusterData = data;
        BenchCluster started = BenchCluster.start(options.get("cluster"), data,
            options.get("cluster").equals("embedded") ? "3g" : "1500m", out);
        cluster = started;
        cpu.watchServers(started.pids());
        conf = started.configuration();
        clusterDescription = started.describe()
            + (started.pids().size() > 1 ? "; server CPU summed over its processes" : "");
      } else {
        String[] hp = options.get("zookeeper").split(":");
        conf.set("hbase.zookeeper.quorum", hp[0]);
        conf.set("hbase.zookeeper.property.clientPort", hp.length > 1 ? hp[1] : "2181");
      }
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      String keyBase64 = Base64.getEncoder().encodeToString(key);
      List<Row> rows = new ArrayList<>();
      try (Connection connection = ConnectionFactory.createConnection(conf)) {
        TreeSet<String> recordTypes = new TreeSet<>();
        List<String> workloads = options.workloads();
        for (String w : workloads) {
          recordTypes.add(WorkloadFiles.load(w).getProperty("healthcare.records"));
        }
        for (String type : recordTypes) {
          prepare(connection, type, KeyProvider.fromMasterKey(key), conf, keyBase64);
        }
        for (String w : workloads) {
          settle(connection, WorkloadFiles.load(w).getProperty("healthcare.records"));
          rows.add(runWorkload(w, conf, keyBase64));
        }
      }
      report(rows, args);
    } finally {
      if (cluster != null) {
        cluster.close();
      }
      if (data != null) {
        RunDirectories.deleteScratch(data);
      }
    }
  }

  private final Map<String, Path> schemaFiles = new LinkedHashMap<>();
  /** The data directory of the cluster this run started (bulk loads stage their HFiles there). */
  private Path clusterData;
  /** How the cluster this run started runs, for the results. */
  private String clusterDescription;
  /** Seconds each table took to load ("patients plain", ...), for the results. */
  private final Map<String, Double> loadSeconds = new LinkedHashMap<>();

  /**
   * The reference schema of {@code records}, or with {@code --rowkeys=ope} the same schema with an
   * OPE row key (ids are sequential, so order leaks little), which lets YCSB's key-range scans run
   * on the region servers.
   */
  private TableSchema schemaOf(String records) {
    try {
      return TableSchema.load(schemaFile(records));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path schemaFile(String records) throws IOException {
    Path file = schemaFiles.get(records);
    if (file == null) {
      file = Files.createTempFile(records + "-", ".yaml");
      file.toFile().deleteOnExit();
      Files.writeString(file, benchmarkSchema(records).toYaml(), StandardCharsets.UTF_8);
      schemaFiles.put(records, file);
    }
    return file;
  }

  /** The reference schema of {@code records} with the row key and variant of the options. */
  private TableSchema benchmarkSchema(String records) {
    TableSchema.Builder schema = ExampleSchemas.fromResource("schemas/" + records + ".yaml").toBuilder();
    if (options.get("rowkeys").equals("ope")) {
      schema.rowKey(ColumnPolicy.of(BoxKind.OPE, ValueType.STRING));
    }
    if (options.get("qef").equals("sse")) {
      searchable(schema, HealthcareWorkload.defaultQefColumn(records));
    }
    String variant = options.get("variant");
    if (variant.equals("full")) {
      return schema.build();
    }
    if (variant.equals("packed")) {
      return packedSchema(schema.build());
    }
    for (BoxKind rowKeyBox : List.of(BoxKind.STD, BoxKind.DET, BoxKind.OPE)) {
      if (variant.equalsIgnoreCase("micro-" + rowKeyBox.name())) {
        return microSchema(schema.build(), rowKeyBox);
      }
    }
    throw new IllegalStateException("unknown variant " + variant + " (BenchOptions checks it)");
  }

  /** Makes {@code column} ({@code family:qualifier}) of {@code schema} SSE, keeping its type. */
  private static void searchable(TableSchema.Builder schema, String column) {
    String[] parts = column.split(":", 2);
    FamilySchema family = schema.build().family(parts[0])
        .orElseThrow(() -> new IllegalStateException("the reference schema has no family " + parts[0]));
    ColumnPolicy current = family.policyFor(parts[1]);
    schema.family(family.toBuilder().column(parts[1], ColumnPolicy.of(BoxKind.SSE, current.type())).build());
  }

  /** Creates the plain and the secure table (pre-split with --regions) and loads the same records into both. */
  private void prepare(Connection connection, String records, KeyProvider keys, Configuration conf, String key)
      throws Exception {
    TableSchema schema = schemaOf(records);
    TableName secureName = TableName.valueOf(schema.tableName());
    TableName plainName = TableName.valueOf(schema.tableName() + "_plain");
    int recordsToLoad = intOption("records");
    int regions = intOption("regions");
    try (Admin admin = connection.getAdmin();
        SecureConnection secure = SecureConnection.wrap(connection, keys, List.of(schema))) {
      for (TableName t : List.of(secureName, plainName)) {
        if (admin.tableExists(t)) {
          admin.disableTable(t);
          admin.deleteTable(t);
        }
      }
      TableDescriptorBuilder plain = TableDescriptorBuilder.newBuilder(plainName);
      for (FamilySchema f : schema.families().values()) {
        plain.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f.name()));
      }
      byte[][] plainSplits = new byte[regions - 1][];
      HealthcareWorkload ids = regions > 1 ? loadingWorkload("plain", records, conf, key) : null;
      for (int i = 1; i < regions; i++) {
        plainSplits[i - 1] = Bytes.toBytes(ids.rowKey((long) recordsToLoad * i / regions));
      }
      admin.createTable(plain.build(), plainSplits);
      secure.createTable(schema, secureSplits(secure, secureName, schema, plainSplits));
      if (options.get("load").equals("bulk")) {
        bulkLoad(connection, secure, records, schema, plainName, conf, key);
        return;
      }
    }
    for (String side : List.of("plain", "secure")) {
      Properties p = loadingProperties(side, records, conf, key);
      HealthcareWorkload w = loadingWorkload(side, records, conf, key);
      DB db = new SecureHBaseClient();
      db.setProperties(p);
      db.init();
      long t0 = System.nanoTime();
      Object state = w.initThread(p, 0, 1);
      for (int i = 0; i < recordsToLoad; i++) {
        if (!w.doInsert(db, state)) {
          throw new IllegalStateException("load failed on the " + side + " side");
        }
      }
      db.cleanup();
      double seconds = (System.nanoTime() - t0) / 1e9;
      loadSeconds.put(records + " " + side, seconds);
      out.printf("loaded %,d %s into the %s table in %.1f s%n", recordsToLoad, records, side, seconds);
    }
  }

  private Properties loadingProperties(String side, String records, Configuration conf, String key) {
    Properties p = sideProperties(new Properties(), side, records, conf, key);
    p.setProperty("healthcare.records", records);
    p.setProperty("clientbuffering", "true"); // loads at volume go through a BufferedMutator, on both sides
    return p;
  }

  /** The workload whose load phase writes {@code records} on {@code side}. */
  private HealthcareWorkload loadingWorkload(String side, String records, Configuration conf, String key)
      throws WorkloadException {
    Properties p = loadingProperties(side, records, conf, key);
    Measurements.setProperties(p);
    HealthcareWorkload w = new HealthcareWorkload();
    w.init(p);
    return w;
  }

  /**
   * Split keys of the secure table: even stored keys for DET row keys, the plain table's split keys
   * encrypted for OPE row keys (their order is the plaintext's).
   */
  private static byte[][] secureSplits(SecureConnection secure, TableName name, TableSchema schema,
      byte[][] plainSplits) throws IOException {
    if (plainSplits.length == 0) {
      return plainSplits;
    }
    if (schema.rowKeyPolicy().box() != BoxKind.OPE) {
      return secure.uniformSplitKeys(name, plainSplits.length + 1);
    }
    byte[][] out = new byte[plainSplits.length][];
    try (SecureTable table = secure.getSecureTable(name)) {
      for (int i = 0; i < plainSplits.length; i++) {
        out[i] = table.encodeForBulkLoad(List.of(new Put(plainSplits[i]))).first().get(0).getRow();
      }
    }
    return out;
  }

  /** Loads the records into both tables as HFiles (HBase's bulk-load tool), the secure side encrypted. */
  private void bulkLoad(Connection connection, SecureConnection secure, String records, TableSchema schema,
      TableName plainName, Configuration conf, String key) throws Exception {
    int recordsToLoad = intOption("records");
    Path staging = Files.createTempDirectory(clusterData, "staging-");
    for (String side : List.of("plain", "secure")) {
      HealthcareWorkload w = loadingWorkload(side, records, conf, key);
      Iterator<Put> rows = LongStream.range(0, recordsToLoad).mapToObj(w::recordPut).iterator();
      org.apache.hadoop.fs.Path stagingDir = new org.apache.hadoop.fs.Path(staging.toUri());
      long t0 = System.nanoTime();
      if (side.equals("plain")) {
        try (Table table = connection.getTable(plainName)) {
          SecureBulkLoad.intoUnprotected(table, stagingDir).load(rows);
        }
      } else {
        try (SecureTable table = secure.getSecureTable(TableName.valueOf(schema.tableName()))) {
          SecureBulkLoad.into(table, stagingDir).load(rows);
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      loadSeconds.put(records + " " + side, seconds);
      out.printf("bulk-loaded %,d %s into the %s table in %.1f s%n", recordsToLoad, records, side, seconds);
    }
  }

  /**
   * Flushes and major-compacts the plain and the secure table of {@code records}, so every
   * workload starts with both in the same storage state (otherwise one side may scan a large
   * memstore of earlier updates while the other reads freshly compacted files).
   */
  private void settle(Connection connection, String records) throws Exception {
    TableName secure = TableName.valueOf(schemaOf(records).tableName());
    List<TableName> tables = List.of(secure, TableName.valueOf(secure.getNameAsString() + "_plain"));
    try (Admin admin = connection.getAdmin()) {
      for (TableName t : tables) {
        admin.flush(t);
        admin.majorCompact(t);
      }
      Thread.sleep(1000); // compactions are requested asynchronously
      long deadline = System.nanoTime() + 180_000_000_000L;
      for (TableName t : tables) {
        while (admin.getCompactionState(t) != CompactionState.NONE && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
      }
    }
  }

  /** The micro-experiment schema: only the row key protected (STD, DET or OPE), every family PLAIN. */
  /**
   * {@code reference} as a PACKED table (GENERIC, 50 rows per pack, ZSTD): OPE row keys, so that
   * YCSB's key-range scans run on the servers, and every column STD inside the packs (the servers
   * cannot see into packs, so DET, OPE, ASHE and SSE columns have no meaning there).
   */
  private static TableSchema packedSchema(TableSchema reference) {
    TableSchema.Builder packed = TableSchema.builder(reference.tableName())
        .rowKey(ColumnPolicy.of(BoxKind.OPE, ValueType.STRING))
        .layout(new PackedTableLayout(PackMode.GENERIC, 50, PackCompression.ZSTD, false, PackPadding.padme(),
            TableLayout.DEFAULT_CLUSTER));
    for (FamilySchema f : reference.families().values()) {
      packed.family(FamilySchema.builder(f.name()).defaultPolicy(ColumnPolicy.of(BoxKind.STD)).build());
    }
    return packed.build();
  }

  private static TableSchema microSchema(TableSchema reference, BoxKind rowKeyBox) {
    TableSchema.Builder micro = TableSchema.builder(reference.tableName())
        .rowKey(ColumnPolicy.of(rowKeyBox, rowKeyBox == BoxKind.OPE ? ValueType.STRING : ValueType.BYTES));
    for (FamilySchema f : reference.families().values()) {
      micro.family(FamilySchema.builder(f.name()).defaultPolicy(ColumnPolicy.PLAIN).build());
    }
    return micro.build();
  }

  private Properties sideProperties(Properties base, String side, String records, Configuration conf, String key) {
    Properties p = new Properties();
    p.putAll(base);
    TableSchema schema = schemaOf(records);
    p.setProperty("table", side.equals("secure") ? schema.tableName() : schema.tableName() + "_plain");
    p.setProperty("cryptoworker.mode", side);
    try {
      p.setProperty("cryptoworker.schema", schemaFile(records).toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    p.setProperty("cryptoworker.masterkey", key);
    p.setProperty("cryptoworker.opememo", options.get("ope-memo"));
    // YCSB's key-range scans over DET row keys can only run on the client (see docs/performance.md).
    p.setProperty("cryptoworker.clientside", "true");
    p.setProperty("hbase.zookeeper.quorum", conf.get("hbase.zookeeper.quorum"));
    p.setProperty("hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"));
    p.setProperty("recordcount", options.get("records"));
    // YCSB sizes its key chooser by recordcount + 2 x inserts expected in operationcount; keys
    // beyond the last inserted one are redrawn, so keep that range close to the real one.
    p.setProperty("operationcount", Integer.toString(2 * intOption("records")));
    p.setProperty("fieldcount", "1");
    if (!options.get("distribution").isEmpty()) {
      p.setProperty("requestdistribution", options.get("distribution"));
    }
    return p;
  }

  /** One workload's results. */
  record Row(String workload, Map<String, Double> throughput, Map<String, MeasuringDb.Recorder> recorders,
      Map<String, CpuClock.Usage> cpu) {
    double ratio() {
      return throughput.get("secure") / throughput.get("plain");
    }

    /** Whether a quarter or more of the secure operations failed (reads by an STD row key are refused). */
    boolean refused() {
      MeasuringDb.Recorder secure = recorders.get("secure");
      return secure.failures.get() * 4 > secure.operations();
    }

    /** CPU microseconds per operation on one side: client JVM, and region server (NaN if unknown). */
    double clientCpuMicros(String side) {
      return cpu.get(side).clientNanos() / 1000.0 / Math.max(1, recorders.get(side).operations());
    }

    double serverCpuMicros(String side) {
      long nanos = cpu.get(side).serverNanos();
      return nanos < 0 ? Double.NaN : nanos / 1000.0 / Math.max(1, recorders.get(side).operations());
    }

    String ratioText() {
      return refused() ? "refused" : String.format(Locale.ROOT, "%.2f", ratio());
    }
  }

  private Row runWorkload(String name, Configuration conf, String key) throws Exception {
    Properties base = WorkloadFiles.load(name);
    String records = base.getProperty("healthcare.records");
    int threads = intOption("threads");
    int rounds = intOption("rounds");
    long roundMillis = intOption("seconds") * 1000L / rounds;
    Map<String, HealthcareWorkload> workloads = new LinkedHashMap<>();
    Map<String, List<MeasuringDb>> dbs = new LinkedHashMap<>();
    Map<String, List<Object>> states = new LinkedHashMap<>();
    Map<String, MeasuringDb.Recorder> recorders = new LinkedHashMap<>();
    Map<String, Long> busyNanos = new LinkedHashMap<>();
    Map<String, CpuClock.Usage> cpuUsed = new LinkedHashMap<>();
    for (String side : List.of("plain", "secure")) {
      Properties p = sideProperties(base, side, records, conf, key);
      Measurements.setProperties(p);
      HealthcareWorkload w = new HealthcareWorkload();
      w.init(p);
      workloads.put(side, w);
      recorders.put(side, new MeasuringDb.Recorder());
      List<MeasuringDb> sideDbs = new ArrayList<>();
      List<Object> sideStates = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        MeasuringDb db = new MeasuringDb(new SecureHBaseClient(), recorders.get(side));
        db.setProperties(p);
        db.init();
        sideDbs.add(db);
        sideStates.add(w.initThread(p, t, threads));
      }
      dbs.put(side, sideDbs);
      states.put(side, sideStates);
      busyNanos.put(side, 0L);
      cpuUsed.put(side, CpuClock.Usage.NONE);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    // Both sides do the same number of operations, so inserts grow both tables alike (timed runs
    // let the faster side grow its table more and slow its own later filter scans). The plain
    // side's warm-up sets the count: its rate times the round length. One operation is one YCSB
    // transaction (doTransaction) everywhere: in this budget (runSide counts transactions) and in
    // the throughput (the recorder counts observations, and ObservedDb observes a read-modify-write
    // once, as READ-MODIFY-WRITE, not as the READ and UPDATE it performs).
    long warmupMillis = intOption("warmup") * 1000L;
    long warmupOps = runSide(pool, workloads.get("plain"), dbs.get("plain"), states.get("plain"), Long.MAX_VALUE, warmupMillis);
    runSide(pool, workloads.get("secure"), dbs.get("secure"), states.get("secure"), warmupOps, CAP * warmupMillis);
    recorders.values().forEach(MeasuringDb.Recorder::reset);
    long opsPerRound = Math.max(threads, Math.round((double) warmupOps * roundMillis / warmupMillis));
    out.printf("%s: warmed up with %,d operations per side; %,d operations per side per round%n", name, warmupOps, opsPerRound);
    for (int r = 0; r < rounds; r++) {
      List<String> order = r % 2 == 0 ? List.of("plain", "secure") : List.of("secure", "plain");
      for (String side : order) {
        CpuClock.Usage cpuAtStart = cpu.now();
        long start = System.nanoTime();
        long done = runSide(pool, workloads.get(side), dbs.get(side), states.get(side), opsPerRound, CAP * roundMillis);
        busyNanos.merge(side, System.nanoTime() - start, Long::sum);
        cpuUsed.merge(side, cpu.now().minus(cpuAtStart), CpuClock.Usage::plus);
        if (done < opsPerRound) {
          out.printf("%s round %d: the %s side stopped after %dx the round length, at %,d of %,d operations%n",
              name, r + 1, side, CAP, done, opsPerRound);
        }
      }
      out.printf("%s round %d/%d: plain %,d ops, secure %,d ops so far%n", name, r + 1, rounds,
          recorders.get("plain").operations(), recorders.get("secure").operations());
    }
    pool.shutdown();
    for (List<MeasuringDb> list : dbs.values()) {
      for (MeasuringDb db : list) {
        db.cleanup();
      }
    }
    Map<String, Double> throughput = new LinkedHashMap<>();
    for (String side : recorders.keySet()) {
      throughput.put(side, recorders.get(side).operations() / (busyNanos.get(side) / 1e9));
    }
    Row row = new Row(name, throughput, recorders, cpuUsed);
    out.printf("%s: plain %.0f ops/s, secure %.0f ops/s, ratio %.2f, failures %d / %d;"
            + " CPU us/op client %.0f / %.0f, server %.0f / %.0f%n", name,
        throughput.get("plain"), throughput.get("secure"), row.ratio(),
        recorders.get("plain").failures.get(), recorders.get("secure").failures.get(),
        row.clientCpuMicros("plain"), row.clientCpuMicros("secure"), row.serverCpuMicros("plain"), row.serverCpuMicros("secure"));
    return row;
  }

  /** How many times its planned length a side may take before it is stopped. */
  private static final int CAP = 10;

  /**
   * Runs one side's threads, each doing transactions back to back, until {@code operations} are
   * done or {@code maxMillis} have passed; returns the operations (YCSB transactions) done.
   */
  static long runSide(ExecutorService pool, HealthcareWorkload w, List<MeasuringDb> dbs, List<Object> states,
      long operations, long maxMillis) throws Exception {
    long deadline = System.nanoTime() + maxMillis * 1_000_000L;
    AtomicLong started = new AtomicLong();
    List<Future<?>> running = new ArrayList<>();
    for (int t = 0; t < dbs.size(); t++) {
      MeasuringDb db = dbs.get(t);
      Object state = states.get(t);
      running.add(pool.submit(() -> {
        while (System.nanoTime() < deadline && started.getAndIncrement() < operations) {
          w.doTransaction(db, state);
        }
      }));
    }
    for (Future<?> f : running) {
      f.get();
    }
    return Math.min(started.get(), operations);
  }

  private void report(List<Row> rows, String args) throws IOException {
    Path outDir = options.get("out").isEmpty() ? RunDirectories.newRunDirectory(Path.of(BenchOptions.RUNS_DIRECTORY), started)
        : Files.createDirectories(Path.of(options.get("out")));
    StringBuilder md = new StringBuilder("# Plain HBase vs CryptoWorker: YCSB workloads, one cluster, one run\n\n");
    md.append("| workload | plain ops/s | secure ops/s | secure/plain | failures (plain/secure) |\n|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %s | %d / %d |%n", r.workload(), r.throughput().get("plain"),
          r.throughput().get("secure"), r.ratioText(), r.recorders().get("plain").failures.get(),
          r.recorders().get("secure").failures.get()));
    }
    md.append("\nCPU time per operation (microseconds; client = this JVM: YCSB, CryptoWorker, HBase client;"
        + " server = the HBase JVMs (region servers, master, ZooKeeper)):\n\n| workload | client plain | client secure | server plain | server secure |\n|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f |%n", r.workload(), r.clientCpuMicros("plain"),
          r.clientCpuMicros("secure"), r.serverCpuMicros("plain"), r.serverCpuMicros("secure")));
    }
    md.append("\nLatency per operation (microseconds):\n\n| workload | operation | side | count | p50 | p95 | p99 |\n|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      for (String op : new TreeSet<>(r.recorders().get("plain").latencies.keySet())) {
        for (String side : List.of("plain", "secure")) {
          Histogram h = r.recorders().get(side).latencies.get(op);
          if (h == null) {
            continue;
          }
          md.append(String.format(Locale.ROOT, "| %s | %s | %s | %,d | %d | %d | %d |%n", r.workload(), op, side, h.getTotalCount(),
              h.getValueAtPercentile(50), h.getValueAtPercentile(95), h.getValueAtPercentile(99)));
        }
      }
    }
    md.append(String.format(Locale.ROOT, "%nSetup: %s records per table (seeded, identical on both sides; both tables flushed and major-compacted"
        + " before each workload), %s threads per side,"
        + " the same number of operations on both sides per workload (as many as the plain side does in %s s) in %s"
        + " interleaved rounds, after an unmeasured warm-up of as many operations as the plain side does in %s s; %s; variant %s; row keys: %s; QEF columns: %s; OPE memo %s values per column; HBase %s, %s.%n%nCommand: `./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@ycsb%s`  %n",
        options.get("records"), options.get("threads"), options.get("seconds"), options.get("rounds"),
        options.get("warmup"), options.get("distribution").isEmpty() ? "distribution of the workload files (Zipfian)" : options.get("distribution"),
        options.get("variant").equals("full") ? "full schemas" : options.get("variant") + " (only the row key protected)",
        !options.get("variant").equals("full") ? "as the variant says"
            : options.get("rowkeys").equals("ope") ? "OPE (string ids) instead of the schemas' DET" : "as in the example schemas (DET)",
        options.get("qef").equals("sse") ? "SSE (searched through the encrypted index)" : "DET (filter scans on the region servers)",
        options.get("ope-memo"),
        VersionInfo.getVersion(),
        !options.get("zookeeper").isEmpty() ? "the cluster of ZooKeeper " + options.get("zookeeper")
            : clusterDescription,
        args.isEmpty() ? "" : " -Dbench.args=\"" + args + "\""));
    StringBuilder loads = new StringBuilder();
    loadSeconds.forEach((table, seconds) -> loads.append(loads.length() == 0 ? "" : "; ").append(String.format(
        Locale.ROOT, "%s %.1f s (%,.0f rows/s)", table, seconds, options.integer("records") / seconds)));
    String how = options.get("load").equals("bulk")
        ? "bulk loads: HFiles sorted by stored key, loaded with HBase's tool in rounds of "
            + String.format(Locale.ROOT, "%,d", SecureBulkLoad.DEFAULT_ROWS_PER_ROUND) + " rows, one client thread"
        : "YCSB's load phase: one client thread, one row per put";
    String split = intOption("regions") > 1 ? "tables pre-split into " + intOption("regions") + " regions"
        : "tables not pre-split";
    md.append(String.format(Locale.ROOT, "Load (%s, %s): %s.  %n", how, split, loads));
    md.append(RunInfo.describe()).append("\n![secure/plain throughput](ycsb-macro.png)\n");
    String name = options.get("name");
    Path mdFile = outDir.resolve(name + ".md");
    Path csvFile = outDir.resolve(name + ".csv");
    Path pngFile = outDir.resolve(name + ".png");
    Files.writeString(mdFile, md.toString().replace("(ycsb-macro.png)", "(" + name + ".png)"), StandardCharsets.UTF_8);
    Files.writeString(csvFile, csv(rows), StandardCharsets.UTF_8);
    chart(rows, pngFile);
    out.println();
    out.print(md);
    out.printf("%nWrote:%n");
    for (Path file : List.of(mdFile, csvFile, pngFile)) {
      out.printf("  %s%n", file.toAbsolutePath().normalize());
    }
  }

  static final String CSV_HEADER = "workload,side,operation,count,throughput_ops_s,p50_us,p95_us,p99_us";

  /**
   * The CSV: for each workload and side, one row per operation (its count, its own rate in
   * operations per second, its latency percentiles in microseconds), then one {@code ALL} row for
   * every operation of the side, whose rate is the side's throughput. Each figure appears once:
   * the side's throughput is not repeated on every operation's row.
   */
  static String csv(List<Row> rows) {
    StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
    for (Row r : rows) {
      for (String side : List.of("plain", "secure")) {
        MeasuringDb.Recorder recorder = r.recorders().get(side);
        double throughput = r.throughput().get(side);
        for (Map.Entry<String, Histogram> op : new TreeMap<>(recorder.latencies).entrySet()) {
          long count = op.getValue().getTotalCount();
          csvRow(csv, r.workload(), side, op.getKey(), op.getValue(), throughput * count / Math.max(1, recorder.operations()));
        }
        csvRow(csv, r.workload(), side, "ALL", recorder.all(), throughput);
      }
    }
    return csv.toString();
  }

  private static void csvRow(StringBuilder csv, String workload, String side, String operation, Histogram h, double rate) {
    csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.1f,%d,%d,%d%n", workload, side, operation, h.getTotalCount(), rate,
        h.getValueAtPercentile(50), h.getValueAtPercentile(95), h.getValueAtPercentile(99)));
  }

  private static final Color BAR = new Color(60, 110, 180);
  private static final Color TARGET = new Color(200, 60, 60);
  /** The project's throughput goals, as secure/plain ratios: 0.90 for A, B and F, 0.85 for E-1, E-2, G and H. */
  private static final Map<String, Double> TARGETS =
      Map.of("A", 0.90, "B", 0.90, "F", 0.90, "E-1", 0.85, "E-2", 0.85, "G", 0.85, "H", 0.85);

  /** Bars of secure/plain throughput per workload, each with its own target, and a legend saying which is which. */
  private static void chart(List<Row> rows, Path file) throws IOException {
    int w = 900;
    int h = 440;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    int left = 60;
    int bottom = h - 50;
    int top = 70;
    double max = Math.max(1.2, rows.stream().filter(r -> !r.refused()).mapToDouble(Row::ratio).max().orElse(1) * 1.1);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString("CryptoWorker / plain HBase throughput per workload (same cluster, same run)", left, 25);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setColor(BAR);
    g.fillRect(left, 38, 18, 10);
    g.setColor(Color.BLACK);
    g.drawString("bars: secure/plain throughput of the workload (1.0 = as fast as plain HBase)", left + 26, 48);
    g.setColor(TARGET);
    g.setStroke(dashed());
    g.drawLine(left, 60, left + 18, 60);
    g.setStroke(new BasicStroke(1));
    g.drawString("dashed line over a bar: that workload's target ratio (0.90 for A, B and F; 0.85 for E-1, E-2, G"
        + " and H; none for micro workloads)", left + 26, 64);
    g.setColor(Color.BLACK);
    g.drawLine(left, top, left, bottom);
    g.drawLine(left, bottom, w - 20, bottom);
    for (double y = 0; y <= max; y += 0.2) {
      int py = bottom - (int) ((bottom - top) * y / max);
      g.setColor(new Color(230, 230, 230));
      g.drawLine(left + 1, py, w - 20, py);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.1f", y), 25, py + 4);
    }
    int slot = (w - 20 - left) / Math.max(1, rows.size());
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      if (r.refused()) {
        g.setColor(Color.GRAY);
        g.drawString(r.workload() + ": refused", left + i * slot + slot / 4, bottom + 18);
        continue;
      }
      int barH = (int) ((bottom - top) * r.ratio() / max);
      int x = left + i * slot + slot / 4;
      g.setColor(BAR);
      g.fillRect(x, bottom - barH, slot / 2, barH);
      g.setColor(Color.BLACK);
      g.drawString(r.workload(), x, bottom + 18);
      g.drawString(String.format(Locale.ROOT, "%.2f", r.ratio()), x, bottom - barH - 5);
      Double target = TARGETS.get(r.workload());
      if (target != null) {
        int py = bottom - (int) ((bottom - top) * target / max);
        g.setColor(TARGET);
        g.setStroke(dashed());
        g.drawLine(left + i * slot + 4, py, left + (i + 1) * slot - 4, py);
        g.setStroke(new BasicStroke(1));
      }
    }
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }

  private static BasicStroke dashed() {
    return new BasicStroke(1, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0);
  }
}
