package dev.cryptoworker.spark;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.mapreduce.SecureBulkLoad;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Seabed-style analytics in Spark local mode over one embedded HBase: the same rows in a table of
 * PLAIN columns (Spark over plain HBase, through the same data source, so both sides get the same
 * pushdown wherever plain bytes allow it) and in a protected one (DET dimensions, SSE email, OPE
 * timestamp, ASHE amount, STD note). Each query runs on both sides, interleaved, after a warm-up;
 * the result reports medians, their ratio, and what each side's plan pushed to the region servers.
 * Both sides' answers are compared every round.
 *
 * <p>Run: {@code ./mvnw -q -DskipTests -pl cryptoworker-spark -am package exec:exec@spark-bench
 * -Dbench.args="--rows=100000"}. Options: {@code --rows=N} (100000), {@code --rounds=N} (5),
 * {@code --regions=N} (8), {@code --analytics-family} (the dimensions, timestamp and measure in a
 * family of their own on both sides; default one family), {@code --name=prefix} of the result files ({@code spark-<rows>}),
 * {@code --out=dir} (default: a new {@code benchmarks/runs/<yyyyMMdd-HHmmss>/}; {@code
 * --out=benchmarks/results} refreshes the committed results).
 */
public final class SparkQueryBenchmark {
  /**
   * The analytic columns: the dimensions, timestamp and measure. With {@code --analytics-family}
   * they go to a family of their own, {@code m}, on both sides, as a table built for analytics keeps
   * them, so aggregations read only them; email and note stay in {@code f}.
   */
  private static final Set<String> ANALYTIC_COLUMNS = Set.of("region", "customer", "ts", "amount");
  private static final byte[] F = Bytes.toBytes("f");
  /** The family of the dimensions, timestamp and measure: {@link #F}, or {@code m} with {@code --analytics-family}. */
  private final byte[] m;
  private static final int MATCHES_PER_EMAIL = 10;
  private static final long TS_RANGE = 1_000_000_000L;
  /** Distinct customers, drawn uniformly: with 1M rows, every one occurs. */
  private static final int CUSTOMERS = 1_000;

  /** A measured query: its name and its SQL over view {@code t}. */
  private record Query(String name, String sql) {}

  private final PrintStream out = System.out;
  private final int rows;
  private final int rounds;
  private final int regions;

  private final boolean analyticsFamily;

  private SparkQueryBenchmark(int rows, int rounds, int regions, boolean analyticsFamily) {
    this.rows = rows;
    this.rounds = rounds;
    this.regions = regions;
    this.analyticsFamily = analyticsFamily;
    this.m = analyticsFamily ? Bytes.toBytes("m") : F;
  }

  public static void main(String[] args) throws Exception {
    int rows = 100_000;
    int rounds = 5;
    int regions = 8;
    String name = null;
    Path outDir = null;
    boolean analyticsFamily = false;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "regions" -> regions = Integer.parseInt(kv[1]);
        case "name" -> name = kv[1];
        case "out" -> outDir = Path.of(kv[1]);
        case "analytics-family" -> analyticsFamily = true;
        default -> throw new IllegalArgumentException("unknown option " + a
            + " (options: --rows, --rounds, --regions, --analytics-family, --name, --out)");
      }
    }
    if (rows < 100 * MATCHES_PER_EMAIL || rounds < 3 || regions < 1) {
      throw new IllegalArgumentException("--rows must be at least 1000, --rounds at least 3, --regions at least 1");
    }
    if (name == null) {
      name = "spark-" + (rows % 1_000_000 == 0 ? rows / 1_000_000 + "M" : rows % 1000 == 0 ? rows / 1000 + "k" : rows);
    }
    if (outDir == null) {
      outDir = Path.of("benchmarks", "runs",
          DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).format(LocalDateTime.now()));
    }
    new SparkQueryBenchmark(rows, rounds, regions, analyticsFamily).run(outDir, name, String.join(" ", args));
    System.exit(0); // Spark's and HBase's non-daemon threads
  }

  private void run(Path outDir, String name, String args) throws Exception {
    Path work = Files.createTempDirectory("spark-bench-");
    out.printf("Starting an embedded HBase (1 master, 1 region server) in %s ...%n", work);
    try (EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(work.resolve("hbase")).maxHeap("2g").fullJit(true)
        .start()) {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", hbase.zookeeperQuorum());
      conf.setInt("hbase.zookeeper.property.clientPort", hbase.zookeeperPort());
      Path kek = Files.writeString(work.resolve("kek.txt"), KeyEncryptionKey.generateBase64());
      Path keyset = work.resolve("keyset.json");
      KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(kek));
      TableSchema plain = schemaFile(work, "spark_bench_plain", "PLAIN", "PLAIN", "PLAIN", "PLAIN", "PLAIN");
      TableSchema secure = schemaFile(work, "spark_bench_secure", "STD", "DET", "SSE", "OPE", "ASHE");
      Map<String, Double> loadSeconds = new LinkedHashMap<>();
      try (Connection connection = ConnectionFactory.createConnection(conf);
          SecureConnection client = SecureConnection.wrap(connection,
              KeyProvider.fromKeysetFile(keyset, KeyEncryptionKey.fromFile(kek)), List.of(plain, secure))) {
        for (TableSchema schema : List.of(plain, secure)) {
          loadSeconds.put(schema.tableName(), load(client, connection, schema, work.resolve("staging")));
        }
        SparkSession spark = LocalSpark.session();
        Map<String, DataFrameReader> sides = new LinkedHashMap<>();
        for (TableSchema schema : List.of(plain, secure)) {
          DataFrameReader reader = spark.read().format("cryptoworker").option("schema",
              work.resolve(schema.tableName() + ".yaml").toString()).option("keyset", keyset.toString())
              .option("kek", "file:" + kek).option("quorum", hbase.zookeeperQuorum())
              .option("hbase.zookeeper.property.clientPort", String.valueOf(hbase.zookeeperPort()));
          sides.put(schema.tableName(), reader);
        }
        Report report = measure(spark, sides, client);
        write(outDir, name, report, loadSeconds, args);
      }
    } finally {
      try (Stream<Path> files = Files.walk(work)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private List<Query> queries() {
    long from = TS_RANGE / 2;
    long to = from + TS_RANGE / 100; // 1% of the rows
    String email = email(lookedUp());
    return List.of(
        new Query("global aggregate", "SELECT SUM(amount), COUNT(amount), AVG(amount) FROM t"),
        new Query("filtered aggregate (region = ...)",
            "SELECT SUM(amount), COUNT(amount) FROM t WHERE region = 'region-3'"),
        new Query("group-by region (8 groups)",
            "SELECT region, SUM(amount), COUNT(amount), AVG(amount) FROM t GROUP BY region"),
        new Query("top-10 customers by sum (1,000 groups)",
            "SELECT customer, SUM(amount) AS s FROM t GROUP BY customer ORDER BY s DESC, customer LIMIT 10"),
        new Query("equality lookup on email (SSE), " + MATCHES_PER_EMAIL + " rows",
            "SELECT rowkey, note, amount FROM t WHERE email = '" + email + "'"),
        new Query("range on ts (OPE), 1% of rows",
            "SELECT rowkey, ts, amount FROM t WHERE ts >= " + from + " AND ts < " + to),
        new Query("COUNT(*) with an equality on region", "SELECT COUNT(*) FROM t WHERE region = 'region-5'"));
  }

  /** What a run measured: per query, each side's times and plan. */
  private record Report(List<Query> queries, double[][][] ms, String[][] plans, Map<String, double[][]> controls) {}

  private static final String CONTROL_LOOKUP = "the equality lookup on email through SecureTable.getScanner";
  private static final String CONTROL_SUM = "the sum and count of amount over every row through SecureTable.aggregate";
  private static final String CONTROL_ROWS = "a count of every row (COUNT(*), region-side) through SecureTable.aggregateRange:"
      + " every block of the table read, each row's first cell taken, no value added";
  private static final String CONTROL_GROUPED = "the sum of amount per customer (1,000 groups) through"
      + " SecureTable.aggregateBy: the top-10 query's region-side work";

  private Report measure(SparkSession spark, Map<String, DataFrameReader> sides, SecureConnection connection)
      throws IOException {
    List<Query> queries = queries();
    List<String> names = new ArrayList<>(sides.keySet());
    double[][][] ms = new double[queries.size()][2][rounds];
    String[][] plans = new String[queries.size()][2];
    for (int q = 0; q < queries.size(); q++) {
      for (int s = 0; s < 2; s++) {
        sides.get(names.get(s)).load().createOrReplaceTempView("t");
        plans[q][s] = scanNode(spark.sql(queries.get(q).sql()).queryExecution().executedPlan().toString());
        run(spark, queries.get(q)); // warm-up
      }
    }
    for (int round = 0; round < rounds; round++) {
      for (int q = 0; q < queries.size(); q++) {
        List<String> answers = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
          // alternate which side goes first, so neither always runs on the other's warm caches
          int side = (round + q) % 2 == 0 ? s : 1 - s;
          sides.get(names.get(side)).load().createOrReplaceTempView("t");
          long t0 = System.nanoTime();
          List<String> answer = run(spark, queries.get(q));
          ms[q][side][round] = (System.nanoTime() - t0) / 1e6;
          answers.add(String.join("\n", answer));
          if (answer.isEmpty()) {
            throw new IllegalStateException(queries.get(q).name() + " returned no row on " + names.get(side));
          }
        }
        if (!answers.get(0).equals(answers.get(1))) {
          throw new IllegalStateException(queries.get(q).name() + ": the sides differ:\n" + answers.get(0) + "\n---\n"
              + answers.get(1));
        }
        out.printf(Locale.ROOT, "round %d, %s: plain %.0f ms, secure %.0f ms%n", round + 1, queries.get(q).name(),
            ms[q][0][round], ms[q][1][round]);
      }
    }
    // Controls without Spark, through SecureTable alone, interleaved like the queries: what Spark
    // and the connector add to each side, and what is left of the secure side's cost without them.
    SingleColumnValueFilter equal = new SingleColumnValueFilter(F, Bytes.toBytes("email"),
        org.apache.hadoop.hbase.CompareOperator.EQUAL, Bytes.toBytes(email(lookedUp())));
    equal.setFilterIfMissing(true);
    Map<String, double[][]> controls = new LinkedHashMap<>();
    controls.put(CONTROL_LOOKUP, new double[2][rounds]);
    controls.put(CONTROL_SUM, new double[2][rounds]);
    controls.put(CONTROL_ROWS, new double[2][rounds]);
    controls.put(CONTROL_GROUPED, new double[2][rounds]);
    int[] customersSeen = new int[2]; // groups each side found: the sides must agree
    List<SecureTable> tables = List.of(connection.getSecureTable(TableName.valueOf(names.get(0))),
        connection.getSecureTable(TableName.valueOf(names.get(1))));
    try {
      for (int round = -1; round < rounds; round++) { // round -1: warm-up
        for (int s = 0; s < 2; s++) {
          SecureTable table = tables.get(s);
          long t0 = System.nanoTime();
          int found = count(table, new Scan().setFilter(equal));
          long t1 = System.nanoTime();
          long values = table.aggregate(new Scan(), m, Bytes.toBytes("amount")).count();
          long t2 = System.nanoTime();
          long counted = table.aggregateRange(new Scan(), AggregateQuery.rowCount(), new byte[0], new byte[0]).get(0).rows();
          long t3 = System.nanoTime();
          int groups = table.aggregateBy(new Scan(), m, Bytes.toBytes("amount"), m, Bytes.toBytes("customer")).size();
          long t4 = System.nanoTime();
          boolean groupsDisagree = customersSeen[1 - s] != 0 && groups != customersSeen[1 - s];
          if (found != MATCHES_PER_EMAIL || values != rows || counted != rows || groupsDisagree) {
            throw new IllegalStateException(names.get(s) + ": SecureTable found " + found + " rows, summed " + values
                + ", counted " + counted + " in " + groups + " groups");
          }
          customersSeen[s] = groups;
          if (round >= 0) {
            controls.get(CONTROL_LOOKUP)[s][round] = (t1 - t0) / 1e6;
            controls.get(CONTROL_SUM)[s][round] = (t2 - t1) / 1e6;
            controls.get(CONTROL_ROWS)[s][round] = (t3 - t2) / 1e6;
            controls.get(CONTROL_GROUPED)[s][round] = (t4 - t3) / 1e6;
          }
        }
      }
    } finally {
      for (SecureTable t : tables) {
        t.close();
      }
    }
    return new Report(queries, ms, plans, controls);
  }

  private static int count(SecureTable table, Scan scan) throws IOException {
    int n = 0;
    try (var s = table.getScanner(scan)) {
      while (s.next() != null) {
        n++;
      }
    }
    return n;
  }

  private static List<String> run(SparkSession spark, Query q) {
    return spark.sql(q.sql()).collectAsList().stream().map(Row::toString).sorted().toList();
  }

  /** The data source's scan node of a physical plan: what it pushed. */
  private static String scanNode(String plan) {
    Matcher m = Pattern.compile("cryptoworker [^\\n]*").matcher(plan);
    List<String> nodes = new ArrayList<>();
    while (m.find()) {
      nodes.add(m.group().replaceAll("\\s+RuntimeFilters: \\[\\]", ""));
    }
    return nodes.isEmpty() ? plan.replace('\n', ' ') : String.join("; ", nodes);
  }

  // ---- rows

  /** The email the lookup asks for: one of the {@link #MATCHES_PER_EMAIL}-row values. */
  private int lookedUp() {
    return rows / MATCHES_PER_EMAIL / 3;
  }

  private static String email(int i) {
    return "user" + i + "@example.org";
  }

  /** Row {@code i}; {@code r} draws its dimensions, timestamp and amount in row order. */
  private Put row(int i, SplittableRandom r) {
    return new Put(Bytes.toBytes(String.format(Locale.ROOT, "r%09d", i)))
        .addColumn(m, Bytes.toBytes("region"), Bytes.toBytes("region-" + r.nextInt(8)))
        .addColumn(m, Bytes.toBytes("customer"), Bytes.toBytes(String.format(Locale.ROOT, "c%04d", r.nextInt(CUSTOMERS))))
        .addColumn(F, Bytes.toBytes("email"), Bytes.toBytes(email(i % (rows / MATCHES_PER_EMAIL))))
        .addColumn(m, Bytes.toBytes("ts"), Bytes.toBytes(r.nextLong(TS_RANGE)))
        .addColumn(m, Bytes.toBytes("amount"), Bytes.toBytes(r.nextLong(-1_000, 100_000)))
        .addColumn(F, Bytes.toBytes("note"), Bytes.toBytes("order note " + i + " " + "x".repeat(r.nextInt(40))));
  }

  /** Creates {@code schema}'s table over {@link #regions} regions and bulk-loads the rows into it; returns seconds. */
  private double load(SecureConnection client, Connection connection, TableSchema schema, Path staging)
      throws IOException {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes(String.format(Locale.ROOT, "r%09d", (long) rows * i / regions));
    }
    client.createTable(schema, splits);
    TableName name = TableName.valueOf(schema.tableName());
    try (Admin admin = connection.getAdmin()) {
      TableDescriptor created = admin.getDescriptor(name);
      if (!created.hasCoprocessor(RegionSupport.REGION_OBSERVER)) {
        // An all-PLAIN table gets no observer, yet the client plans PLAIN sums on the region servers
        // (they then fail decoding the scanned rows as partials): give it the keyless observer, as a
        // plain HBase deployment would have its aggregation endpoint.
        admin.modifyTable(TableDescriptorBuilder.newBuilder(created).setCoprocessor(RegionSupport.REGION_OBSERVER)
            .build());
      }
    }
    long t0 = System.nanoTime();
    SplittableRandom r = new SplittableRandom(2026);
    Iterator<Put> puts = IntStream.range(0, rows).mapToObj(i -> row(i, r)).iterator();
    try (SecureTable table = client.getSecureTable(name)) {
      SecureBulkLoad.Report report = SecureBulkLoad.into(table, new org.apache.hadoop.fs.Path(staging.toUri()))
          .load(puts);
      out.printf(Locale.ROOT, "%s: bulk-loaded %,d rows, %d HFiles (%.0f MB)%n", schema.tableName(), report.rows(),
          report.hfiles(), report.hfileBytes() / 1e6);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    try (Admin admin = connection.getAdmin()) {
      admin.flush(name);
      admin.majorCompact(name);
      awaitCompaction(admin, name);
    }
    return seconds;
  }

  /** Waits (polling once a second, ten minutes at most) until no compaction of {@code name} runs. */
  private void awaitCompaction(Admin admin, TableName name) throws IOException {
    try {
      Thread.sleep(1000); // a requested compaction shows in its state once a region server queued it
      for (int poll = 0; admin.getCompactionState(name) != CompactionState.NONE; poll++) {
        if (poll == 600) {
          throw new IOException("the major compaction of " + name + " did not end in 600 polls");
        }
        Thread.sleep(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("waiting for the compaction of " + name);
    }
  }

  private TableSchema schemaFile(Path dir, String name, String std, String det, String sse, String ope,
      String ashe) throws IOException {
    Map<String, String> columns = new LinkedHashMap<>(); // in the order the Spark schema lists them
    columns.put("region", "{ box: " + det + ", type: string }");
    columns.put("customer", "{ box: " + det + ", type: string }");
    columns.put("email", "{ box: " + sse + ", type: string }");
    columns.put("ts", "{ box: " + ope + ", type: long }");
    columns.put("amount", "{ box: " + ashe + ", type: long }");
    columns.put("note", "{ box: " + std + ", type: string }");
    StringBuilder yaml = new StringBuilder("table: " + name + "\nrowKey: { box: PLAIN, type: string }\nfamilies:\n");
    for (String family : analyticsFamily ? List.of("m", "f") : List.of("f")) {
      yaml.append("  ").append(family).append(":\n    default: { box: ").append(std).append(" }\n    columns:\n");
      columns.forEach((column, spec) -> {
        if (!analyticsFamily || ANALYTIC_COLUMNS.contains(column) == family.equals("m")) {
          yaml.append("      ").append(column).append(": ").append(spec).append('\n');
        }
      });
    }
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, yaml);
    return TableSchema.load(file);
  }

  // ---- report

  private void write(Path outDir, String name, Report report, Map<String, Double> loadSeconds, String args)
      throws IOException {
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("query,plain_median_ms,secure_median_ms,secure_over_plain,plain_ms,secure_ms\n");
    md.append(String.format(Locale.ROOT, "# Spark SQL over %,d rows: plain HBase beside CryptoWorker%n%n", rows));
    md.append("| query | plain median ms | secure median ms | secure / plain | plain runs | secure runs |\n"
        + "|---|---|---|---|---|---|\n");
    for (int q = 0; q < report.queries().size(); q++) {
      double plain = median(report.ms()[q][0]);
      double secure = median(report.ms()[q][1]);
      md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %s | %s |%n", report.queries().get(q).name(),
          plain, secure, secure / plain, runs(report.ms()[q][0]), runs(report.ms()[q][1])));
      csv.append(String.format(Locale.ROOT, "\"%s\",%.1f,%.1f,%.3f,%s,%s%n", report.queries().get(q).name(), plain,
          secure, secure / plain, runs(report.ms()[q][0]).replace(", ", ";"),
          runs(report.ms()[q][1]).replace(", ", ";")));
    }
    md.append("\nControls without Spark (one client call over every region, same tables, interleaved the same"
        + " way):\n\n| control | plain median ms | secure median ms | secure / plain | plain runs | secure runs |\n"
        + "|---|---|---|---|---|---|\n");
    for (Map.Entry<String, double[][]> c : report.controls().entrySet()) {
      double plain = median(c.getValue()[0]);
      double secure = median(c.getValue()[1]);
      md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %s | %s |%n", c.getKey(), plain, secure,
          secure / plain, runs(c.getValue()[0]), runs(c.getValue()[1])));
      csv.append(String.format(Locale.ROOT, "\"control: %s\",%.1f,%.1f,%.3f,%s,%s%n", c.getKey(), plain, secure,
          secure / plain, runs(c.getValue()[0]).replace(", ", ";"), runs(c.getValue()[1]).replace(", ", ";")));
    }
    md.append("\nBoth sides returned the same rows for every query in every round (checked).\n\n## Queries and plans\n\n");
    for (int q = 0; q < report.queries().size(); q++) {
      md.append("- ").append(report.queries().get(q).name()).append(": `").append(report.queries().get(q).sql())
          .append("`\n  - plain: `").append(report.plans()[q][0]).append("`\n  - secure: `")
          .append(report.plans()[q][1]).append("`\n");
    }
    md.append(String.format(Locale.ROOT, "%nSetup: Spark %s local[2] (driver and executors in the benchmark's JVM)"
        + " and one embedded HBase (1 master, 1 region server, child JVM, 2 GB heap), sharing the machine's cores;"
        + " both tables pre-split into %d regions (PLAIN row keys `r%%09d`), the same rows in each, loaded by"
        + " SecureBulkLoad (plain %.0f s, secure %.0f s), flushed and major-compacted (compactions waited for) before measuring. Columns:"
        + " region (8 values) and customer (1,000 values) DET, email SSE (%d rows per value), ts OPE, amount ASHE,"
        + " note STD (16-55 bytes); on the plain side all PLAIN; %s. %d rounds after one warm-up of each query per side;"
        + " each round runs every query on both sides, the side going first alternating. Times are the driver's"
        + " wall clock of `collect()` of the whole query.%n%n",
        org.apache.spark.package$.MODULE$.SPARK_VERSION(), regions, loadSeconds.get("spark_bench_plain"),
        loadSeconds.get("spark_bench_secure"), MATCHES_PER_EMAIL,
        analyticsFamily ? "region, customer, ts and amount in family m, email and note in family f, on both sides"
            : "every column in one family, on both sides", rounds));
    md.append("Command: `./mvnw -q -DskipTests -pl cryptoworker-spark -am package exec:exec@spark-bench")
        .append(args.isEmpty() ? "" : " -Dbench.args=\"" + args + "\"").append("`  \n");
    md.append(String.format(Locale.ROOT, "Commit: %s  %nJVM: %s %s  %nMachine: %d cores, %.0f GiB, %s%n", commit(),
        System.getProperty("java.vm.name"), System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(),
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize()
            / 1073741824.0, LocalDate.now()));
    Files.createDirectories(outDir);
    Files.writeString(outDir.resolve(name + ".md"), md, StandardCharsets.UTF_8);
    Files.writeString(outDir.resolve(name + ".csv"), csv, StandardCharsets.UTF_8);
    out.println();
    out.print(md);
    out.printf("%nWrote %s and %s%n", outDir.resolve(name + ".md").toAbsolutePath(), outDir.resolve(name + ".csv"));
  }

  private static String commit() {
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 ? s : "unknown";
    } catch (IOException | InterruptedException e) {
      return "unknown";
    }
  }

  private static String runs(double[] ms) {
    return String.join(", ", Arrays.stream(ms).mapToObj(v -> String.format(Locale.ROOT, "%.0f", v)).toList());
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
