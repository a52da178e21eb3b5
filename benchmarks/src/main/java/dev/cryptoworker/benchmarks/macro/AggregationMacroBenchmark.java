package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.mapreduce.SecureBulkLoad;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * Sum, count and average of one column over many rows, three ways in one run on one cluster:
 * a PLAIN column added by the region-side coprocessor (the baseline), an ASHE column added
 * region-side over ciphertext, and an STD column fetched and added on the client. Rounds are
 * interleaved so machine noise hits all three; the median of each is reported with its ratio to
 * the baseline.
 *
 * <p>Options: {@code --rows=N} (200000), {@code --rounds=N} (7), {@code --regions=N} (4),
 * {@code --cluster=embedded|processes|hdfs} (one region server in a child JVM, or ZooKeeper, a
 * master and 2 region servers each in its own JVM, on the local filesystem or on HDFS), {@code
 * --load=put|bulk} (2,000-row batch puts, or {@code SecureBulkLoad}), {@code --name=prefix} of the result files (aggregation-macro), {@code
 * --out=dir} (default: a new {@code benchmarks/runs/<yyyyMMdd-HHmmss>/}; {@code
 * --out=benchmarks/results} refreshes the committed results).
 */
public final class AggregationMacroBenchmark {
  private static final String SCHEMA =
      "table: aggregation_bench\n"
          + "rowKey: { box: PLAIN }\n"
          + "families:\n"
          + "  m:\n"
          + "    default: { box: STD }\n"
          + "    columns:\n"
          + "      plain:  { box: PLAIN, type: long }\n"
          + "      amount: { box: ASHE, type: long }\n"
          + "      secret: { box: STD, type: long }\n";
  private static final byte[] M = Bytes.toBytes("m");

  private final PrintStream out = System.out;

  public static void main(String[] args) throws Exception {
    SumRunOptions o = SumRunOptions.parse(args, new int[] {200_000, 7, 4},
        Map.of("cluster", "embedded", "load", "put", "name", "aggregation-macro"));
    if (!SumRunOptions.oneOf(o.option("cluster"), "embedded", "processes", "hdfs")
        || !SumRunOptions.oneOf(o.option("load"), "put", "bulk")) {
      throw new IllegalArgumentException("--cluster must be embedded, processes or hdfs, --load put or bulk");
    }
    new AggregationMacroBenchmark(o.option("cluster"), o.option("load"), o.name()).run(o);
  }

  private final String cluster;
  private final String load;
  private final String name;

  private AggregationMacroBenchmark(String cluster, String load, String name) {
    this.cluster = cluster;
    this.load = load;
    this.name = name;
  }


  private void run(SumRunOptions o) throws Exception {
    int rows = o.rows();
    Path data = Files.createTempDirectory("aggregation-bench-");
    try (BenchCluster hbase = BenchCluster.start(cluster, data, "2g", out)) {
      Configuration conf = hbase.configuration();
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      TableSchema schema = TableSchema.parse(SCHEMA, "aggregation-bench");
      try (Connection connection = ConnectionFactory.createConnection(conf);
          SecureConnection secure = SecureConnection.wrap(connection, KeyProvider.fromMasterKey(key), List.of(schema))) {
        secure.createTable(schema, o.splits());
        TableName tableName = TableName.valueOf(schema.tableName());
        SecureTable table = secure.getSecureTable(tableName);
        long t0 = System.nanoTime();
        long expected = load.equals("bulk") ? bulkLoad(table, rows, data.resolve("staging")) : load(table, rows);
        double loadSeconds = (System.nanoTime() - t0) / 1e9;
        try (Admin admin = connection.getAdmin()) {
          admin.flush(tableName);
        }
        measure(table, hbase, rows, o.rounds(), o.regions(), expected, loadSeconds, o.outDir(), o.args());
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
  }

  /** Row {@code i}: the same value in the PLAIN, ASHE and STD columns. */
  private static Put row(int i, long v) {
    return new Put(Bytes.toBytes(String.format("r%09d", i)))
        .addColumn(M, Bytes.toBytes("plain"), Bytes.toBytes(v))
        .addColumn(M, Bytes.toBytes("amount"), Bytes.toBytes(v))
        .addColumn(M, Bytes.toBytes("secret"), Bytes.toBytes(v));
  }

  private static long value(SplittableRandom r) {
    return r.nextLong(-1_000_000, 10_000_000);
  }

  private long load(SecureTable table, int rows) throws IOException {
    SplittableRandom r = new SplittableRandom(2026);
    long sum = 0;
    long t0 = System.nanoTime();
    List<Put> batch = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      long v = value(r);
      sum += v;
      batch.add(row(i, v));
      if (batch.size() == 2000 || i == rows - 1) {
        table.put(batch);
        batch.clear();
        if ((i + 1) % 50_000 == 0 || i == rows - 1) {
          out.printf("loaded %,d / %,d rows (%.0f rows/s)%n", i + 1, rows, (i + 1) / ((System.nanoTime() - t0) / 1e9));
        }
      }
    }
    return sum;
  }

  /** The same rows as {@link #load}, as HFiles loaded with HBase's tool; returns their sum. */
  private long bulkLoad(SecureTable table, int rows, Path staging) throws IOException {
    SplittableRandom r = new SplittableRandom(2026);
    long[] sum = {0};
    Iterator<Put> puts = IntStream.range(0, rows).mapToObj(i -> {
      long v = value(r);
      sum[0] += v;
      return row(i, v);
    }).iterator();
    SecureBulkLoad.Report report = SecureBulkLoad.into(table, new org.apache.hadoop.fs.Path(staging.toUri())).load(puts);
    out.printf(Locale.ROOT, "bulk-loaded %,d rows in %d rounds, %d HFiles (%.0f MB)%n", report.rows(), report.rounds(),
        report.hfiles(), report.hfileBytes() / 1e6);
    return sum[0];
  }

  /** The three ways; each returns its result so all can be checked against the expected sum. */
  private AggregateResult way(int w, SecureTable table) throws IOException {
    switch (w) {
      case 0:
        return table.aggregate(new Scan(), M, Bytes.toBytes("plain"));
      case 1:
        return table.aggregate(new Scan(), M, Bytes.toBytes("amount"));
      default:
        long sum = 0;
        long count = 0;
        try (ResultScanner s = table.getScanner(new Scan().addColumn(M, Bytes.toBytes("secret")).setCaching(5000))) {
          for (Result r = s.next(); r != null; r = s.next()) {
            sum += Bytes.toLong(r.getValue(M, Bytes.toBytes("secret")));
            count++;
          }
        }
        return new AggregateResult(sum, count);
    }
  }

  private void measure(SecureTable table, BenchCluster hbase, int rows, int rounds, int regions, long expected,
      double loadSeconds, Path outDir, String args) throws IOException {
    String[] names = {"PLAIN column, region-side sum (baseline)", "ASHE column, region-side sum", "STD column, fetched and summed on the client"};
    double[][] ms = new double[3][rounds];
    for (int w = 0; w < 3; w++) {
      way(w, table); // warm-up
    }
    for (int round = 0; round < rounds; round++) {
      for (int w = 0; w < 3; w++) {
        long t0 = System.nanoTime();
        AggregateResult result = way(w, table);
        ms[w][round] = (System.nanoTime() - t0) / 1e6;
        if (result.sum() != expected || result.count() != rows) {
          throw new IllegalStateException(names[w] + " returned " + result + ", expected sum " + expected + " of " + rows);
        }
      }
      out.printf("round %d: plain %.0f ms, ASHE %.0f ms, STD client %.0f ms%n", round + 1, ms[0][round], ms[1][round], ms[2][round]);
    }
    double base = median(ms[0]);
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder(
        "way,median_ms,min_ms,max_ms,ratio_to_plain,rows_per_second,rows_per_second_per_region_server\n");
    md.append("# Sum, count and average over ").append(String.format(Locale.ROOT, "%,d", rows)).append(" rows: three ways, one cluster\n\n");
    md.append("| way | median ms | min | max | time / baseline | rows/s | rows/s per region server |\n"
        + "|---|---|---|---|---|---|---|\n");
    for (int w = 0; w < 3; w++) {
      double med = median(ms[w]);
      double min = Arrays.stream(ms[w]).min().orElseThrow();
      double max = Arrays.stream(ms[w]).max().orElseThrow();
      double rate = rows / (med / 1000);
      md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.2fx | %,.0f | %,.0f |%n", names[w], med, min,
          max, med / base, rate, rate / hbase.regionServers()));
      csv.append(String.format(Locale.ROOT, "%s,%.1f,%.1f,%.1f,%.3f,%.0f,%.0f%n", names[w].split(",")[0], med, min,
          max, med / base, rate, rate / hbase.regionServers()));
    }
    md.append(String.format(Locale.ROOT, "%nAll three returned the same sum, count and average in every round (checked).%n%n"
        + "Setup: %d rounds interleaved (plain, ASHE, STD) after one warm-up each; table pre-split into %d regions on %s"
        + " (HBase %s); loaded in %.0f s by %s; data flushed to HFiles before measuring. Rows per second per region"
        + " server: the rate divided by the region servers, which share this machine's 2 cores with the client.%n%n"
        + "Command: `./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@aggregation%s`  %n",
        rounds, regions, hbase.describe(),
        VersionInfo.getVersion(), loadSeconds, load.equals("bulk") ? "SecureBulkLoad (HFiles)" : "2,000-row batch puts",
        args.isEmpty() ? "" : " -Dbench.args=\"" + args + "\""));
    md.append(RunInfo.describe());
    ResultFiles.write(outDir, name, md, csv, out);
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
