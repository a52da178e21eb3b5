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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * One ASHE measure filtered and grouped by a 10-value dimension, three ways in one run on one
 * embedded cluster: the dimension as DET (plain ASHE; the servers see its frequencies), as basic
 * SPLASHE (every value splayed) and as enhanced SPLASHE (2 frequent values splayed, 8 infrequent
 * sharing a padded DET token). Reports each table's stored bytes after a major compaction and the
 * median time of three aggregates (a frequent value's sum, an infrequent value's sum, the sums
 * grouped by value), rounds interleaved, every result checked against a plain computation over the
 * generated rows; and, for enhanced SPLASHE, how evenly the padded tokens came out.
 *
 * <p>Options ({@link SumRunOptions}): {@code --rows=N} (200000), {@code --rounds=N} (5), {@code
 * --regions=N} (4), {@code --name=prefix} of the result files (splashe), {@code --out=dir}. With
 * {@code --mode=writes}, measures write throughput instead ({@link SplasheWrites}; 50,000 rows,
 * result files splashe-counts).
 */
public final class SplasheMacroBenchmark {
  private static final List<String> VALUES = List.of("d00", "d01", "d02", "d03", "d04", "d05", "d06", "d07", "d08", "d09");
  /** Shares of the rows per value, in percent: two frequent values, then a skewed tail. */
  static final int[] SHARES = {40, 30, 8, 6, 5, 4, 3, 2, 1, 1};
  private static final String FREQUENT = "d00";
  static final String INFREQUENT = "d05";
  private static final String[] WAYS = {"plain ASHE, DET dimension", "basic SPLASHE", "enhanced SPLASHE"};
  private static final String[] DIMENSIONS = {
    "{ box: DET, type: string }",
    "{ box: SPLASHE, values: [" + String.join(", ", VALUES) + "], splays: [amount] }",
    "{ box: SPLASHE, values: [" + String.join(", ", VALUES) + "], frequent: [d00, d01], splays: [amount] }",
  };
  private static final String[] QUERIES = {"sum where dim = " + FREQUENT + " (frequent)",
      "sum where dim = " + INFREQUENT + " (infrequent)", "sums grouped by dim (10 values)"};
  private static final byte[] M = Bytes.toBytes("m");
  private static final byte[] AMOUNT = Bytes.toBytes("amount");
  private static final byte[] DIM = Bytes.toBytes("dim");

  private final PrintStream out = System.out;

  public static void main(String[] args) throws Exception {
    if (Arrays.asList(args).contains("--mode=writes")) {
      SplasheWrites.run(SumRunOptions.parse(args, new int[] {50_000, 5, 4}, Map.of("name", "splashe-counts",
          "mode", "writes")));
      return;
    }
    new SplasheMacroBenchmark().run(SumRunOptions.parse(args, new int[] {200_000, 5, 4}, Map.of("name", "splashe",
        "mode", "aggregates")));
  }

  /** The schema of a table named {@code table} whose dimension is stored the {@code way}-th way. */
  static String schema(int way, String table) {
    return "table: " + table + "\n"
        + "rowKey: { box: PLAIN }\n"
        + "families:\n"
        + "  m:\n"
        + "    default: { box: STD }\n"
        + "    columns:\n"
        + "      amount: { box: ASHE, type: long }\n"
        + "      dim: " + DIMENSIONS[way] + "\n";
  }

  /** What one table holds and costs. */
  private record Measured(double loadSeconds, long storedBytes, int storedCellsPerRow, double[][] ms) {}

  private void run(SumRunOptions o) throws Exception {
    int rows = o.rows();
    Path data = Files.createTempDirectory("splashe-bench-");
    try (BenchCluster hbase = BenchCluster.embedded(data, 1, "2g", out)) {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      List<TableSchema> schemas = new ArrayList<>();
      for (int w = 0; w < WAYS.length; w++) {
        schemas.add(TableSchema.parse(schema(w, "splashe_bench_" + w), "splashe-bench"));
      }
      try (Connection connection = ConnectionFactory.createConnection(hbase.configuration());
          SecureConnection secure = SecureConnection.wrap(connection, KeyProvider.fromMasterKey(key), schemas);
          Admin admin = connection.getAdmin()) {
        byte[][] splits = o.splits();
        Map<String, long[]> oracle = null;
        List<SecureTable> tables = new ArrayList<>();
        double[] loadSeconds = new double[WAYS.length];
        long[] stored = new long[WAYS.length];
        int[] cells = new int[WAYS.length];
        for (int w = 0; w < WAYS.length; w++) {
          TableName tableName = TableName.valueOf(schemas.get(w).tableName());
          secure.createTable(schemas.get(w), splits);
          SecureTable table = secure.getSecureTable(tableName);
          long t0 = System.nanoTime();
          oracle = load(table, rows);
          loadSeconds[w] = (System.nanoTime() - t0) / 1e9;
          admin.flush(tableName);
          admin.majorCompact(tableName);
          WritePathBenchmark.waitForCompaction(admin, tableName);
          stored[w] = StoreFiles.bytesAfterMajorCompaction(data, tableName);
          try (Table raw = connection.getTable(tableName); ResultScanner s = raw.getScanner(new Scan().setLimit(1))) {
            cells[w] = s.next().rawCells().length;
          }
          out.printf(Locale.ROOT, "%-26s loaded %,d rows in %.1f s, stores %,.1f MB, %d cells per row%n", WAYS[w], rows,
              loadSeconds[w], stored[w] / 1e6, cells[w]);
          tables.add(table);
        }
        double[][][] ms = measure(tables, oracle, o.rounds());
        Map<String, Integer> tokens = tokenCounts(connection, TableName.valueOf(schemas.get(2).tableName()));
        write(o, hbase, loadSeconds, stored, cells, ms, oracle, tokens);
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
  }

  /** Loads the same rows (fixed seed) in 2,000-row batches; returns amount sum and count per value. */
  private Map<String, long[]> load(SecureTable table, int rows) throws IOException {
    SplittableRandom r = new SplittableRandom(2026);
    Map<String, long[]> oracle = new TreeMap<>();
    for (int first = 0; first < rows; first += 2000) {
      table.put(rows(r, first, Math.min(2000, rows - first), oracle));
    }
    return oracle;
  }

  /**
   * Rows {@code r%09d} from {@code first} on, values drawn from {@code r} ({@link #SHARES});
   * their amounts' sum and count per value added to {@code oracle}.
   */
  static List<Put> rows(SplittableRandom r, long first, int n, Map<String, long[]> oracle) {
    List<Put> rows = new ArrayList<>(n);
    for (long i = first; i < first + n; i++) {
      String dim = dimension(r.nextInt(100));
      long amount = r.nextLong(-1_000_000, 10_000_000);
      long[] acc = oracle.computeIfAbsent(dim, k -> new long[2]);
      acc[0] += amount;
      acc[1]++;
      rows.add(new Put(Bytes.toBytes(String.format("r%09d", i))).addColumn(M, AMOUNT, Bytes.toBytes(amount))
          .addColumn(M, DIM, Bytes.toBytes(dim)));
    }
    return rows;
  }

  /** The value of a row whose random percentile is {@code percentile}, by {@link #SHARES}. */
  static String dimension(int percentile) {
    int upTo = 0;
    for (int v = 0; v < SHARES.length; v++) {
      upTo += SHARES[v];
      if (percentile < upTo) {
        return VALUES.get(v);
      }
    }
    throw new IllegalStateException("shares must add up to 100");
  }

  /** Median-ready times per way, query and round; every result checked against {@code oracle}. */
  private double[][][] measure(List<SecureTable> tables, Map<String, long[]> oracle, int rounds) throws IOException {
    double[][][] ms = new double[WAYS.length][QUERIES.length][rounds];
    for (int w = 0; w < WAYS.length; w++) {
      for (int q = 0; q < QUERIES.length; q++) {
        query(tables.get(w), q, oracle); // warm-up
      }
    }
    for (int round = 0; round < rounds; round++) {
      for (int q = 0; q < QUERIES.length; q++) {
        for (int w = 0; w < WAYS.length; w++) {
          long t0 = System.nanoTime();
          query(tables.get(w), q, oracle);
          ms[w][q][round] = (System.nanoTime() - t0) / 1e6;
        }
      }
      out.printf(Locale.ROOT, "round %d: %s%n", round + 1, Arrays.deepToString(roundOf(ms, round)));
    }
    return ms;
  }

  private static double[][] roundOf(double[][][] ms, int round) {
    double[][] out = new double[ms.length][ms[0].length];
    for (int w = 0; w < ms.length; w++) {
      for (int q = 0; q < ms[w].length; q++) {
        out[w][q] = Math.round(ms[w][q][round]);
      }
    }
    return out;
  }

  private static void query(SecureTable table, int q, Map<String, long[]> oracle) throws IOException {
    if (q < 2) {
      String value = q == 0 ? FREQUENT : INFREQUENT;
      AggregateResult got = table.aggregate(new Scan().setFilter(
          new SingleColumnValueFilter(M, DIM, CompareOperator.EQUAL, Bytes.toBytes(value))), M, AMOUNT);
      check(value, got, oracle);
      return;
    }
    NavigableMap<byte[], AggregateResult> grouped = table.aggregateBy(new Scan(), M, AMOUNT, M, DIM);
    if (grouped.size() != oracle.size()) {
      throw new IllegalStateException("grouped: " + grouped.size() + " groups, expected " + oracle.size());
    }
    for (String value : oracle.keySet()) {
      check(value, grouped.get(Bytes.toBytes(value)), oracle);
    }
  }

  private static void check(String value, AggregateResult got, Map<String, long[]> oracle) {
    long[] want = oracle.get(value);
    if (got == null || got.sum() != want[0] || got.count() != want[1]) {
      throw new IllegalStateException(value + ": got " + got + ", expected sum " + want[0] + " of " + want[1]);
    }
  }

  /** How often each DET token of the enhanced table's dimension is stored, read through a plain client. */
  static Map<String, Integer> tokenCounts(Connection connection, TableName name) throws IOException {
    byte[] token = Bytes.add(DIM, new byte[] {0, 0}, Bytes.toBytes("token"));
    Map<String, Integer> counts = new HashMap<>();
    try (Table raw = connection.getTable(name);
        ResultScanner s = raw.getScanner(new Scan().addColumn(M, token).setCaching(5000))) {
      for (Result r = s.next(); r != null; r = s.next()) {
        counts.merge(Bytes.toStringBinary(r.getValue(M, token)), 1, Integer::sum);
      }
    }
    return counts;
  }

  private void write(SumRunOptions o, BenchCluster hbase, double[] loadSeconds, long[] stored, int[] cells, double[][][] ms, Map<String, long[]> oracle,
      Map<String, Integer> tokens) throws IOException {
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("way,stored_bytes,stored_cells_per_row,load_seconds,"
        + "frequent_sum_median_ms,infrequent_sum_median_ms,grouped_median_ms\n");
    md.append(String.format(Locale.ROOT, "# SPLASHE over %,d rows: plain ASHE, basic and enhanced SPLASHE%n%n",
        o.rows()));
    md.append("| way | stored MB | / plain ASHE | stored cells per row | load s |");
    for (String q : QUERIES) {
      md.append(' ').append(q).append(", median ms |");
    }
    md.append("\n|---|---|---|---|---|---|---|---|\n");
    for (int w = 0; w < WAYS.length; w++) {
      double[] medians = new double[QUERIES.length];
      for (int q = 0; q < QUERIES.length; q++) {
        medians[q] = Percentiles.of(ms[w][q], 50);
      }
      md.append(String.format(Locale.ROOT, "| %s | %.1f | %.2fx | %d | %.0f | %.0f (%.2fx) | %.0f (%.2fx) | %.0f (%.2fx) |%n",
          WAYS[w], stored[w] / 1e6, (double) stored[w] / stored[0], cells[w], loadSeconds[w],
          medians[0], medians[0] / Percentiles.of(ms[0][0], 50), medians[1], medians[1] / Percentiles.of(ms[0][1], 50),
          medians[2], medians[2] / Percentiles.of(ms[0][2], 50)));
      csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.1f,%.1f,%.1f%n", WAYS[w], stored[w], cells[w],
          loadSeconds[w], medians[0], medians[1], medians[2]));
    }
    Map<String, Long> infrequent = new TreeMap<>();
    oracle.forEach((v, acc) -> {
      if (!v.equals("d00") && !v.equals("d01")) {
        infrequent.put(v, acc[1]);
      }
    });
    md.append(String.format(Locale.ROOT, "%nTimes in parentheses: over plain ASHE's for the same query. Every"
        + " aggregate returned the sum and count a plain computation over the generated rows gives (checked in every"
        + " round).%n%nEnhanced SPLASHE's DET tokens, read through a plain HBase client: %d distinct, stored %d to %d"
        + " times each; the infrequent values' own row counts: %s.%n%n", tokens.size(),
        tokens.values().stream().mapToInt(Integer::intValue).min().orElse(0),
        tokens.values().stream().mapToInt(Integer::intValue).max().orElse(0), infrequent));
    md.append(String.format(Locale.ROOT, "Setup: one ASHE long measure and a string dimension of 10 values (row shares"
        + " %s%%, values %s; enhanced SPLASHE declares frequent [d00, d01]); each table pre-split into %d regions on %s"
        + " (HBase %s), loaded by one client in 2,000-row batch puts, flushed and major-compacted; stored MB: the"
        + " store files after the compaction. %d rounds, queries interleaved across the three tables, after one"
        + " warm-up each; the region server shares this machine's 2 cores with the client.%n%n"
        + "Command: `./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@splashe%s`  %n",
        Arrays.toString(SHARES), VALUES, o.regions(), hbase.describe(), VersionInfo.getVersion(), o.rounds(),
        o.args().isEmpty() ? "" : " -Dbench.args=\"" + o.args() + "\""));
    md.append(RunInfo.describe());
    ResultFiles.write(o.outDir(), o.name(), md, csv, out);
  }
}
