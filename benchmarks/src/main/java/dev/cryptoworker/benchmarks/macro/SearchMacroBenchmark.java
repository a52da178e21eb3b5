package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * Equality search three ways over the same rows, in one run on one cluster: an SSE column searched
 * through its index, a DET column filtered by a region-side scan over ciphertext, and a plain HBase
 * table filtered by a region-side scan (the baseline). Values occur once, 100 times or 10,000
 * times; queries of the three ways are interleaved and each is checked against the known
 * multiplicity. Also reports each table's insert throughput.
 *
 * <p>Options: {@code --rows=N} (1000000), {@code --queries=N} per way and multiplicity (15),
 * {@code --regions=N} (8, over two region servers), {@code --out=dir} (default: a new {@code
 * benchmarks/runs/<yyyyMMdd-HHmmss>/}).
 */
public final class SearchMacroBenchmark {
  static final byte[] F = Bytes.toBytes("f");
  static final byte[] TAG = Bytes.toBytes("tag");
  private static final byte[] PAYLOAD = Bytes.toBytes("payload");
  static final String SECURE_SCHEMA =
      "table: NAME\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD, type: string }\n"
          + "    columns:\n"
          + "      tag: { box: BOX, type: string }\n";
  private static final int[] MULTIPLICITIES = {1, 100, 10_000};
  private static final String[] WAYS = {"SSE index search", "DET region-side filter scan", "plain HBase filter scan"};

  private final PrintStream out = System.out;

  public static void main(String[] args) throws Exception {
    new SearchMacroBenchmark().run(SearchRunOptions.parse(args));
  }


  /**
   * The tag of row {@code i}: a tenth of the rows share values that occur 10,000 times, a tenth
   * values that occur 100 times, the rest are unique.
   */
  static String tag(int i, int rows) {
    int bigValues = rows / 10 / 10_000;
    int midValues = rows / 10 / 100;
    switch (i % 10) {
      case 0:
        return "big-" + (i / 10) % bigValues;
      case 1:
        return "mid-" + (i / 10) % midValues;
      default:
        return "unique-" + i;
    }
  }

  /** A value of multiplicity {@code m}, the n-th query's. */
  static String valueOf(int m, int n, int rows, SplittableRandom random) {
    switch (m) {
      case 10_000:
        return "big-" + n % (rows / 10 / 10_000);
      case 100:
        return "mid-" + random.nextInt(rows / 10 / 100);
      default:
        int i;
        do {
          i = random.nextInt(rows);
        } while (i % 10 < 2);
        return "unique-" + i;
    }
  }

  /** Split points for {@code regions} regions of a table with DET row keys: a 5-byte header, then pseudorandom bytes. */
  static byte[][] securedSplits(int regions) {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = new byte[] {1, 0, 0, 0, 0, (byte) (256 * i / regions)};
    }
    return splits;
  }

  static byte[] rowKey(int i) {
    return Bytes.toBytes(String.format("r%09d", i));
  }

  private void run(SearchRunOptions options) throws Exception {
    int rows = options.rows();
    int queries = options.queries();
    int regions = options.regions();
    Path outDir = options.outDir();
    String args = options.args();
    Path data = Files.createTempDirectory("search-bench-");
    try (BenchCluster hbase = BenchCluster.embedded(data, 2, "4g", out)) {
      Configuration conf = hbase.configuration();
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      TableSchema sse = TableSchema.parse(options.secureSchema("search_sse", "SSE"), "sse");
      TableSchema det = TableSchema.parse(options.secureSchema("search_det", "DET"), "det");
      TableName plainName = TableName.valueOf("search_plain");
      try (Connection connection = ConnectionFactory.createConnection(conf);
          SecureConnection secure = SecureConnection.builder().connection(connection)
              .keys(KeyProvider.fromMasterKey(key)).schema(sse).schema(det).build()) {
        byte[][] securedSplits = securedSplits(regions);
        byte[][] plainSplits = new byte[regions - 1][];
        for (int i = 1; i < regions; i++) {
          plainSplits[i - 1] = rowKey((int) ((long) rows * i / regions));
        }
        secure.createTable(sse, securedSplits);
        secure.createTable(det, securedSplits);
        try (Admin admin = connection.getAdmin()) {
          admin.createTable(TableDescriptorBuilder.newBuilder(plainName)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build(), plainSplits);
        }
        Table[] tables = {secure.getTable(TableName.valueOf(sse.tableName())),
            secure.getTable(TableName.valueOf(det.tableName())), connection.getTable(plainName)};
        double[] insertRate = new double[3];
        for (int w = 2; w >= 0; w--) {
          insertRate[w] = load(w == 2 ? connection.getBufferedMutator(plainName)
              : secure.getBufferedMutator(tables[w].getName()), rows);
        }
        try (Admin admin = connection.getAdmin()) {
          for (Table t : tables) {
            admin.flush(t.getName());
          }
        }
        measure(tables, rows, queries, regions, insertRate, outDir, args);
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
  }

  /** Loads every row through {@code mutator}; returns rows per second. */
  private double load(BufferedMutator mutator, int rows) throws IOException {
    return BufferedLoader.load(mutator, rows, i -> row(i, rows), out);
  }

  /** Row {@code i} of {@code rows}: its tag ({@link #tag}) and a payload. */
  static Put row(int i, int rows) {
    return new Put(rowKey(i)).addColumn(F, TAG, Bytes.toBytes(tag(i, rows)))
        .addColumn(F, PAYLOAD, Bytes.toBytes("payload of row " + i + ", some bytes to make it a realistic row"));
  }

  /** The rows an SSE-or-filter equality on the tag finds, each checked to hold {@code value}. */
  static int search(Table table, String value) throws IOException {
    SingleColumnValueFilter f = new SingleColumnValueFilter(F, TAG, CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes(value)));
    f.setFilterIfMissing(true);
    int n = 0;
    try (ResultScanner s = table.getScanner(new Scan().setFilter(f).setCaching(1000))) {
      for (Result r = s.next(); r != null; r = s.next()) {
        if (!value.equals(Bytes.toString(r.getValue(F, TAG)))) {
          throw new IllegalStateException(table.getName() + " returned a row with another value for " + value);
        }
        n++;
      }
    }
    return n;
  }

  private void measure(Table[] tables, int rows, int queries, int regions, double[] insertRate, Path outDir,
      String args) throws IOException {
    double[][][] ms = new double[MULTIPLICITIES.length][3][queries];
    SplittableRandom random = new SplittableRandom(2026);
    for (int w = 0; w < 3; w++) {
      search(tables[w], valueOf(100, 0, rows, random)); // warm-up
    }
    for (int q = 0; q < queries; q++) {
      for (int m = 0; m < MULTIPLICITIES.length; m++) {
        String value = valueOf(MULTIPLICITIES[m], q, rows, random);
        for (int w = 0; w < 3; w++) {
          long t0 = System.nanoTime();
          int found = search(tables[w], value);
          ms[m][w][q] = (System.nanoTime() - t0) / 1e6;
          if (found != MULTIPLICITIES[m]) {
            throw new IllegalStateException(WAYS[w] + " found " + found + " rows of " + value + ", expected "
                + MULTIPLICITIES[m]);
          }
        }
      }
      out.printf(Locale.ROOT, "query round %d/%d: 1-match SSE %.1f ms, DET %.0f ms, plain %.0f ms%n", q + 1, queries,
          ms[0][0][q], ms[0][1][q], ms[0][2][q]);
    }
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("rows,matches,way,median_ms,p95_ms,min_ms,max_ms\n");
    md.append(String.format(Locale.ROOT, "# Equality search over %,d rows: SSE index vs DET and plain filter scans%n%n", rows));
    md.append("Latency of one equality query (ms), median and p95 over ").append(queries)
        .append(" queries of different values per cell; every query's result count was checked.\n\n");
    md.append("| matches | SSE median | SSE p95 | DET median | DET p95 | plain median | plain p95 | DET / SSE (median) |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    for (int m = 0; m < MULTIPLICITIES.length; m++) {
      double[] med = new double[3];
      double[] p95 = new double[3];
      for (int w = 0; w < 3; w++) {
        med[w] = Percentiles.of(ms[m][w], 50);
        p95[w] = Percentiles.of(ms[m][w], 95);
        csv.append(String.format(Locale.ROOT, "%d,%d,%s,%.2f,%.2f,%.2f,%.2f%n", rows, MULTIPLICITIES[m], WAYS[w].split(" ")[0],
            med[w], p95[w], Arrays.stream(ms[m][w]).min().orElseThrow(), Arrays.stream(ms[m][w]).max().orElseThrow()));
      }
      md.append(String.format(Locale.ROOT, "| %,d | %.1f | %.1f | %.0f | %.0f | %.0f | %.0f | %.0fx |%n", MULTIPLICITIES[m],
          med[0], p95[0], med[1], p95[1], med[2], p95[2], med[1] / med[0]));
    }
    md.append(String.format(Locale.ROOT, "%nInsert throughput (through a BufferedMutator, one client thread): SSE %,.0f rows/s,"
        + " DET %,.0f rows/s, plain HBase %,.0f rows/s (SSE / DET = %.2f, SSE / plain = %.2f).%n",
        insertRate[0], insertRate[1], insertRate[2], insertRate[0] / insertRate[1], insertRate[0] / insertRate[2]));
    md.append(String.format(Locale.ROOT, "%nData: a tenth of the rows hold values that occur 10,000 times, a tenth values"
        + " that occur 100 times, the rest unique values; each row also has an STD payload (plain: the same bytes in"
        + " clear). Tables pre-split into %d regions over two embedded region servers (HBase %s) in a child JVM,"
        + " flushed to HFiles before measuring; the three ways' queries are interleaved.%n%n"
        + "Command: `./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@search%s`  %n",
        regions, VersionInfo.getVersion(), args.isEmpty() ? "" : " -Dbench.args=\"" + args + "\""));
    md.append(RunInfo.describe());
    ResultFiles.write(outDir, SearchRunOptions.resultName("sse-search", rows), md, csv,
        out);
  }
}
