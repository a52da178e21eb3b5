package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
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
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * How each operation's latency grows with the table, plain HBase beside CryptoWorker, on HBase as
 * separate processes: point get, equality on a DET column (region-side filter scan), equality on an
 * SSE column (index search), an OPE range filter, a 100-row range scan over OPE row keys, and a sum
 * over every row (ASHE region-side; plain HBase, which has no sum without a coprocessor, fetches the
 * values). Every query's result is checked.
 *
 * <p>Options: {@code --sizes=10000,100000} (rows per table, one table pair per size), {@code
 * --queries=N} (25) per operation and side, {@code --out=dir}.
 */
public final class GrowthBenchmark {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] ID = Bytes.toBytes("id");
  private static final byte[] TAG = Bytes.toBytes("tag");
  private static final byte[] DATE = Bytes.toBytes("date");
  private static final byte[] AMOUNT = Bytes.toBytes("amount");
  private static final byte[] PAYLOAD = Bytes.toBytes("payload");
  private static final String SCHEMA = String.join("\n",
      "table: NAME",
      "rowKey: { box: OPE, type: string }",
      "families:",
      "  f:",
      "    default: { box: STD, type: string }",
      "    columns:",
      "      id:     { box: DET, type: string }",
      "      tag:    { box: SSE, type: string }",
      "      date:   { box: OPE, type: long }",
      "      amount: { box: ASHE, type: long }",
      "");
  private static final String[] OPERATIONS = {"get", "QEF (DET / filter scan)", "QEF (SSE / filter scan)",
      "QRF (OPE range, 100 rows)", "row range (OPE keys, 100 rows)", "sum of every row (ASHE / client-side)"};

  private final PrintStream out = System.out;

  /** One operation on one side: runs query {@code q} and returns how many rows or the sum it checked. */
  @FunctionalInterface
  private interface Query {
    long run(Table table, int q) throws IOException;
  }

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = List.of(10_000, 100_000);
    int queries = 25;
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "sizes" -> sizes = Stream.of(kv[1].split(",")).map(String::strip).map(Integer::parseInt).toList();
        case "queries" -> queries = Integer.parseInt(kv[1]);
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + a + " (options: --sizes, --queries, --out)");
      }
    }
    if (queries < 1 || sizes.stream().anyMatch(n -> n < 1000)) {
      throw new IllegalArgumentException("--queries must be at least 1 and every size at least 1000");
    }
    new GrowthBenchmark().run(sizes, queries, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  private static byte[] rowKey(int i) {
    return Bytes.toBytes(String.format("r%09d", i));
  }

  private void run(List<Integer> sizes, int queries, Path outDir, String args) throws Exception {
    Path data = Files.createTempDirectory("growth-bench-");
    Map<String, double[]> results = new LinkedHashMap<>(); // "size|operation|side" -> median, p95 (ms)
    Map<Integer, double[]> loads = new LinkedHashMap<>(); // size -> plain, secure rows/s
    try (BenchCluster hbase = BenchCluster.start("processes", data, "1500m", out)) {
      Configuration conf = hbase.configuration();
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      KeyProvider keys = KeyProvider.fromMasterKey(key);
      try (Connection connection = ConnectionFactory.createConnection(conf)) {
        for (int rows : sizes) {
          TableSchema schema = TableSchema.parse(SCHEMA.replace("NAME", "growth_" + rows), "growth");
          TableName plainName = TableName.valueOf("growth_plain_" + rows);
          try (SecureConnection secure = SecureConnection.wrap(connection, keys, List.of(schema));
              Admin admin = connection.getAdmin()) {
            secure.createTable(schema);
            admin.createTable(TableDescriptorBuilder.newBuilder(plainName)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
            try (Table plain = connection.getTable(plainName);
                Table secured = secure.getTable(TableName.valueOf(schema.tableName()))) {
              loads.put(rows, new double[] {load(connection.getBufferedMutator(plainName), rows),
                  load(secure.getBufferedMutator(TableName.valueOf(schema.tableName())), rows)});
              admin.flush(plainName);
              admin.flush(TableName.valueOf(schema.tableName()));
              measure(rows, queries, plain, secured, results);
            }
          }
        }
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
    report(sizes, queries, results, loads, outDir, args);
  }

  /** Loads every row through {@code mutator}; returns rows per second. */
  private double load(BufferedMutator mutator, int rows) throws IOException {
    return BufferedLoader.load(mutator, rows, i -> new Put(rowKey(i)).addColumn(F, ID, Bytes.toBytes("id-" + i))
        .addColumn(F, TAG, Bytes.toBytes("tag-" + i)).addColumn(F, DATE, Bytes.toBytes((long) i))
        .addColumn(F, AMOUNT, Bytes.toBytes((long) i % 1000))
        .addColumn(F, PAYLOAD, Bytes.toBytes("payload of row " + i + ", some bytes to make it a realistic row")), out);
  }

  private static long count(Table table, Scan scan) throws IOException {
    long n = 0;
    try (ResultScanner s = table.getScanner(scan.setCaching(1000))) {
      for (Result r = s.next(); r != null; r = s.next()) {
        n++;
      }
    }
    return n;
  }

  private static Filter equal(byte[] column, String value) {
    SingleColumnValueFilter f = new SingleColumnValueFilter(F, column, CompareOperator.EQUAL,
        new BinaryComparator(Bytes.toBytes(value)));
    f.setFilterIfMissing(true);
    return f;
  }

  private static Filter dateRange(long from, long to) {
    SingleColumnValueFilter low = new SingleColumnValueFilter(F, DATE, CompareOperator.GREATER_OR_EQUAL,
        new BinaryComparator(Bytes.toBytes(from)));
    SingleColumnValueFilter high = new SingleColumnValueFilter(F, DATE, CompareOperator.LESS,
        new BinaryComparator(Bytes.toBytes(to)));
    low.setFilterIfMissing(true);
    high.setFilterIfMissing(true);
    return new FilterList(FilterList.Operator.MUST_PASS_ALL, low, high);
  }

  private void measure(int rows, int queries, Table plain, Table secured, Map<String, double[]> results)
      throws IOException {
    SplittableRandom random = new SplittableRandom(2026);
    int[] picks = new int[queries];
    for (int q = 0; q < queries; q++) {
      picks[q] = random.nextInt(rows - 100);
    }
    long expectedSum = 0;
    for (int i = 0; i < rows; i++) {
      expectedSum += i % 1000;
    }
    long sum = expectedSum;
    Query[] plainQueries = {
        (t, q) -> t.get(new Get(rowKey(picks[q]))).isEmpty() ? 0 : 1,
        (t, q) -> count(t, new Scan().setFilter(equal(ID, "id-" + picks[q]))),
        (t, q) -> count(t, new Scan().setFilter(equal(TAG, "tag-" + picks[q]))),
        (t, q) -> count(t, new Scan().setFilter(dateRange(picks[q], picks[q] + 100L))),
        (t, q) -> count(t, new Scan().withStartRow(rowKey(picks[q])).withStopRow(rowKey(picks[q] + 100))),
        (t, q) -> {
          long total = 0;
          try (ResultScanner s = t.getScanner(new Scan().addColumn(F, AMOUNT).setCaching(1000))) {
            for (Result r = s.next(); r != null; r = s.next()) {
              total += Bytes.toLong(r.getValue(F, AMOUNT));
            }
          }
          return total;
        }};
    Query[] secureQueries = plainQueries.clone();
    secureQueries[5] = (t, q) -> {
      AggregateResult r = ((SecureTable) t).aggregate(new Scan(), F, AMOUNT);
      return r.sum();
    };
    long[] expected = {1, 1, 1, 100, 100, sum};
    for (int op = 0; op < OPERATIONS.length; op++) {
      plainQueries[op].run(plain, 0); // warm-up
      secureQueries[op].run(secured, 0);
      double[][] ms = new double[2][queries];
      for (int q = 0; q < queries; q++) {
        for (int side = 0; side < 2; side++) { // interleaved
          Table t = side == 0 ? plain : secured;
          long t0 = System.nanoTime();
          long got = (side == 0 ? plainQueries : secureQueries)[op].run(t, q);
          ms[side][q] = (System.nanoTime() - t0) / 1e6;
          if (got != expected[op]) {
            throw new IllegalStateException(OPERATIONS[op] + " on " + t.getName() + " returned " + got + ", expected "
                + expected[op]);
          }
        }
      }
      for (int side = 0; side < 2; side++) {
        results.put(rows + "|" + op + "|" + side,
            new double[] {Percentiles.of(ms[side], 50), Percentiles.of(ms[side], 95)});
      }
      out.printf(Locale.ROOT, "%,d rows, %s: plain %.1f ms, secure %.1f ms (medians)%n", rows, OPERATIONS[op],
          results.get(rows + "|" + op + "|0")[0], results.get(rows + "|" + op + "|1")[0]);
    }
  }

  private void report(List<Integer> sizes, int queries, Map<String, double[]> results, Map<Integer, double[]> loads,
      Path outDir, String args) throws IOException {
    StringBuilder md = new StringBuilder("# How latency grows with the table: plain HBase beside CryptoWorker\n\n");
    StringBuilder csv = new StringBuilder("rows,operation,side,median_ms,p95_ms\n");
    md.append("Median and p95 latency (ms) of ").append(queries)
        .append(" queries per operation and side (interleaved), every result checked.\n\n");
    md.append("| operation | rows | plain median | plain p95 | secure median | secure p95 | secure / plain (median) |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (int op = 0; op < OPERATIONS.length; op++) {
      for (int rows : sizes) {
        double[] p = results.get(rows + "|" + op + "|0");
        double[] s = results.get(rows + "|" + op + "|1");
        md.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %.1f | %.1f | %.2f |%n", OPERATIONS[op], rows,
            p[0], p[1], s[0], s[1], s[0] / p[0]));
        for (int side = 0; side < 2; side++) {
          double[] v = side == 0 ? p : s;
          csv.append(String.format(Locale.ROOT, "%d,%s,%s,%.2f,%.2f%n", rows, OPERATIONS[op].split(" ")[0]
              + (op == 1 ? "-det" : op == 2 ? "-sse" : ""), side == 0 ? "plain" : "secure", v[0], v[1]));
        }
      }
    }
    md.append("\nLoad (through a BufferedMutator, one client thread):");
    loads.forEach((rows, r) -> md.append(String.format(Locale.ROOT, " %,d rows: plain %,.0f rows/s, secure %,.0f rows/s"
        + " (%.2f);", rows, r[0], r[1], r[1] / r[0])));
    md.append(String.format(Locale.ROOT, "%n%nData: row keys `r%%09d` (OPE on the secure side), a unique DET id, a"
        + " unique SSE tag, an OPE date (the row number), an ASHE amount and an STD payload per row; plain HBase holds"
        + " the same bytes in clear. One table pair per size, not pre-split, flushed before measuring, on HBase %s as"
        + " separate processes (ZooKeeper, a master, two region servers). The plain side's QEF rows are region-side"
        + " filter scans of every row, and its sum fetches every value (plain HBase has no sum without a"
        + " coprocessor).%n%nCommand: `./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@growth%s`  %n",
        VersionInfo.getVersion(), args.isEmpty() ? "" : " -Dbench.args=\"" + args + "\""));
    md.append(RunInfo.describe());
    ResultFiles.write(outDir, "growth", md, csv, out);
  }
}
