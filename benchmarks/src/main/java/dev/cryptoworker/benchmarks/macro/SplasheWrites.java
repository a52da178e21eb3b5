package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.benchmarks.macro.CounterTableControl.Mode;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * {@link SplasheMacroBenchmark}'s write mode ({@code --mode=writes}): what the shared token counts
 * of enhanced SPLASHE cost a writer. Writes the same rows (one ASHE measure, the 10-value
 * dimension of the aggregate mode) in batches of 1 (one {@code put(Put)}), 100 and 1,000 rows
 * ({@code put(List)}) from one thread into: plain HBase (plaintext), plain ASHE with a DET
 * dimension, basic SPLASHE, enhanced SPLASHE as built (per batch a Get to read the counts, then one
 * Increment to add), and enhanced SPLASHE under a control of {@link CounterTableControl}: one round
 * trip (the counts the last add returned, the add a checkAndMutate conditioned on them).
 *
 * <p>{@code --rows=N} per side and batch size (50,000) over {@code --rounds=N} (5): each round
 * writes a fifth to every side, sides in an order rotated per round. Reports the median of the
 * rounds' rows per second, the counter-table round trips per batch, and checks every secure table
 * afterwards: an infrequent value's sum and count against the generated rows, and how evenly the
 * enhanced tables' tokens came out.
 */
final class SplasheWrites {
  private static final String[] SIDES = {"plain HBase", "plain ASHE, DET dimension", "basic SPLASHE",
      "enhanced SPLASHE", "enhanced, one round trip (control)"};
  /** The counter-table control each enhanced side runs under (null: not enhanced). */
  private static final Mode[] MODES = {null, null, null, Mode.AS_BUILT, Mode.ONE_ROUND_TRIP};
  /** The aggregate mode's dimension per side (plain HBase: none). */
  private static final int[] WAYS = {-1, 0, 1, 2, 2};
  private static final int ENHANCED = 3;
  private static final int[] BATCHES = {1, 100, 1000};
  private static final byte[] M = Bytes.toBytes("m");
  private static final byte[] AMOUNT = Bytes.toBytes("amount");
  private static final byte[] DIM = Bytes.toBytes("dim");

  private final PrintStream out = System.out;

  static void run(SumRunOptions o) throws Exception {
    new SplasheWrites().write(o);
  }

  private void write(SumRunOptions o) throws Exception {
    int perRound = o.rows() / o.rounds();
    Path data = Files.createTempDirectory("splashe-writes-");
    try (BenchCluster hbase = BenchCluster.embedded(data, 1, "2g", out);
        Connection connection = ConnectionFactory.createConnection(hbase.configuration());
        Admin admin = connection.getAdmin()) {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      byte[][] splits = splits(o.regions(), perRound * o.rounds() * BATCHES.length);
      Table[] tables = new Table[SIDES.length];
      CounterTableControl[] controls = new CounterTableControl[SIDES.length];
      List<SecureConnection> secures = new ArrayList<>();
      TableName plain = TableName.valueOf("splashe_writes_plain");
      admin.createTable(TableDescriptorBuilder.newBuilder(plain).setColumnFamily(ColumnFamilyDescriptorBuilder.of(M))
          .build(), splits);
      tables[0] = connection.getTable(plain);
      for (int s = 1; s < SIDES.length; s++) {
        TableSchema schema = TableSchema.parse(SplasheMacroBenchmark.schema(WAYS[s], "splashe_writes_" + s),
            "splashe-writes");
        controls[s] = new CounterTableControl(MODES[s] == null ? Mode.AS_BUILT : MODES[s]);
        SecureConnection secure = SecureConnection.wrap(controls[s].wrap(connection), KeyProvider.fromMasterKey(key),
            List.of(schema));
        secures.add(secure);
        secure.createTable(schema, splits);
        tables[s] = secure.getSecureTable(TableName.valueOf(schema.tableName()));
      }
      try {
        double[][][] rowsPerSecond = new double[BATCHES.length][SIDES.length][o.rounds()];
        long[][] counterCalls = new long[BATCHES.length][SIDES.length];
        Map<String, long[]> oracle = new TreeMap<>();
        long first = 0;
        for (int b = 0; b < BATCHES.length; b++) {
          for (int round = 0; round < o.rounds(); round++) {
            List<Put> rows = SplasheMacroBenchmark.rows(new SplittableRandom(first), first, perRound, oracle);
            for (int turn = 0; turn < SIDES.length; turn++) {
              int s = (turn + round) % SIDES.length;
              long calls = controls[s] == null ? 0 : controls[s].calls.sum();
              long t0 = System.nanoTime();
              put(tables[s], rows, BATCHES[b]);
              rowsPerSecond[b][s][round] = perRound / ((System.nanoTime() - t0) / 1e9);
              counterCalls[b][s] += controls[s] == null ? 0 : controls[s].calls.sum() - calls;
            }
            first += perRound;
            int printed = round;
            out.printf(Locale.ROOT, "batch %d, round %d: rows/s %s%n", BATCHES[b], round + 1,
                Arrays.toString(Arrays.stream(rowsPerSecond[b]).mapToLong(r -> Math.round(r[printed])).toArray()));
          }
        }
        String[] checks = check(connection, tables, oracle);
        report(o, hbase, rowsPerSecond, counterCalls, perRound, checks);
      } finally {
        for (Table t : tables) {
          t.close();
        }
        for (SecureConnection s : secures) {
          s.close();
        }
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
  }

  private static byte[][] splits(int regions, long rows) {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("r%09d", rows * i / regions));
    }
    return splits;
  }

  private static void put(Table table, List<Put> rows, int batch) throws IOException {
    for (int i = 0; i < rows.size(); i += batch) {
      if (batch == 1) {
        table.put(rows.get(i));
      } else {
        table.put(rows.subList(i, Math.min(rows.size(), i + batch)));
      }
    }
  }

  /**
   * Per side, what was checked: every secure table's sum and count of an infrequent value equal the
   * generated rows'; the enhanced tables' token counts.
   */
  private static String[] check(Connection connection, Table[] tables, Map<String, long[]> oracle) throws IOException {
    String value = SplasheMacroBenchmark.INFREQUENT;
    long[] want = oracle.get(value);
    String[] out = new String[SIDES.length];
    out[0] = "";
    for (int s = 1; s < SIDES.length; s++) {
      AggregateResult got = ((SecureTable) tables[s]).aggregate(new Scan().setFilter(
          new SingleColumnValueFilter(M, DIM, CompareOperator.EQUAL, Bytes.toBytes(value))), M, AMOUNT);
      if (got.sum() != want[0] || got.count() != want[1]) {
        throw new IllegalStateException(SIDES[s] + ", " + value + ": got " + got + ", expected sum " + want[0] + " of "
            + want[1]);
      }
      out[s] = "";
      if (s >= ENHANCED) {
        Map<String, Integer> tokens = SplasheMacroBenchmark.tokenCounts(connection, tables[s].getName());
        out[s] = String.format(Locale.ROOT, "%d tokens, stored %d to %d times", tokens.size(),
            tokens.values().stream().mapToInt(Integer::intValue).min().orElse(0),
            tokens.values().stream().mapToInt(Integer::intValue).max().orElse(0));
      }
    }
    return out;
  }

  private void report(SumRunOptions o, BenchCluster hbase, double[][][] rowsPerSecond, long[][] counterCalls,
      int perRound, String[] checks) throws IOException {
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "# Enhanced SPLASHE writes: what the shared token counts cost%n%n"));
    StringBuilder csv = new StringBuilder("batch_rows,side,median_rows_per_second,of_plain_hbase,of_enhanced,"
        + "counter_calls_per_batch\n");
    md.append("| batch (rows) | side | rows/s, median of rounds | of plain HBase | of enhanced SPLASHE |"
        + " counter-table round trips per batch | rounds' rows/s |\n|---:|---|---:|---:|---:|---:|---|\n");
    for (int b = 0; b < BATCHES.length; b++) {
      double plain = Percentiles.of(rowsPerSecond[b][0], 50);
      double enhanced = Percentiles.of(rowsPerSecond[b][ENHANCED], 50);
      long batches = (long) o.rounds() * ((perRound + BATCHES[b] - 1) / BATCHES[b]);
      for (int s = 0; s < SIDES.length; s++) {
        double median = Percentiles.of(rowsPerSecond[b][s], 50);
        double calls = (double) counterCalls[b][s] / batches;
        md.append(String.format(Locale.ROOT, "| %,d | %s | %,.0f | %.2f | %.2f | %.2f | %s |%n", BATCHES[b], SIDES[s],
            median, median / plain, median / enhanced, calls, Arrays.stream(rowsPerSecond[b][s])
                .mapToObj(r -> String.format(Locale.ROOT, "%,.0f", r)).reduce((x, y) -> x + ", " + y).orElse("")));
        csv.append(String.format(Locale.ROOT, "%d,%s,%.0f,%.3f,%.3f,%.2f%n", BATCHES[b], SIDES[s], median,
            median / plain, median / enhanced, calls));
      }
    }
    md.append(String.format(Locale.ROOT, "%nChecked after the run: every secure table's sum and count of %s equal the"
        + " generated rows'; enhanced SPLASHE's tokens, read through a plain HBase client: %s (as built), %s (one"
        + " round trip).%n%n", SplasheMacroBenchmark.INFREQUENT, checks[ENHANCED], checks[ENHANCED + 1]));
    md.append(String.format(Locale.ROOT, "Setup: the rows of the aggregate mode (one ASHE long measure, a string"
        + " dimension of 10 values, row shares %s%%, enhanced SPLASHE declaring 2 frequent), written by one thread,"
        + " %,d rows per side and batch size in %d rounds of %,d, sides taking turns in an order rotated per round;"
        + " batches of 1 are single put(Put) calls, others put(List). Counter-table round trips: the shared counts'"
        + " calls, counted by the connection (ASHE identifier leases not included). Each table pre-split into %d"
        + " regions on %s (HBase %s); the region server shares this machine's 2 cores with the client.%n%n"
        + "Command: `./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@splashe -Dbench.args=\"%s\"`  %n",
        Arrays.toString(SplasheMacroBenchmark.SHARES), perRound * o.rounds(), o.rounds(), perRound, o.regions(),
        hbase.describe(), VersionInfo.getVersion(), o.args()));
    md.append(RunInfo.describe());
    ResultFiles.write(o.outDir(), o.name(), md, csv, out);
  }
}
