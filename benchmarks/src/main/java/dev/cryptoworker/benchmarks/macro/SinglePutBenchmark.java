package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * The latency of one {@code put(Put)} per call, from one thread, on an otherwise idle HBase: plain,
 * a DET column, an SSE column, and two controls that keep DET's row but add what an SSE put adds
 * on the wire: one count-cell-sized blind put to the counter table, written before the row (as SSE
 * puts wrote their writer lane's count cell until the put carried it, on the same thread pool) or
 * sent beside it and awaited with it (one round trip, which a writer killed between the two writes
 * could leave as a stored row no search finds). An SSE put now sends its count cell inside the
 * row's put, and the row's region writes it first ({@code CountCellsFirst}).
 *
 * <p>Rows are {@link WritePathBenchmark#row}'s (8-byte keys, 10 fields of 100 bytes; field0 is the
 * DET or SSE column, unique per row). Sides take turns within each round, in an order rotated per
 * round, after an untimed warm-up of as many puts per side.
 *
 * <p>Options: {@code --puts=N} per side and round (2,000), {@code --rounds=N} (5), {@code
 * --cluster=embedded|processes} (embedded, as the main job's), {@code --sides=det-field,...} (all:
 * plain, det-field, sse-field, det-field-and-a-count-cell, det-field-after-a-count-cell; DET is always
 * one), {@code --out=dir}.
 */
public final class SinglePutBenchmark {
  private static final String PLAIN = "plain";
  private static final String DET = "det field";
  private static final String SSE = "sse field";
  private static final String CONTROL = "det field and a count cell";
  private static final String CONTROL_FIRST = "det field after a count cell";
  private static final List<String> SIDES = List.of(PLAIN, DET, SSE, CONTROL, CONTROL_FIRST);
  private static final String SCHEMA = """
      table: NAME
      rowKey: { box: BOX_KEY }
      families:
        f:
          default: { box: BOX_DEFAULT }
          columns:
            field0: { box: BOX }
      """;
  /** A writer-lane count cell's row: a 32-byte counter name and an 8-byte lane id. */
  private static final int COUNT_ROW_BYTES = 40;

  private final PrintStream out = System.out;
  private final SecureRandom random = new SecureRandom();
  private final ExecutorService sender = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "count-cell-control");
    t.setDaemon(true);
    return t;
  });

  public static void main(String[] args) throws Exception {
    int puts = 2_000;
    int rounds = 5;
    String cluster = "embedded";
    List<String> sides = SIDES;
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("options take a value: " + a);
      }
      switch (kv[0]) {
        case "puts" -> puts = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "cluster" -> cluster = kv[1];
        case "sides" -> sides = Stream.of(kv[1].split(",")).map(side -> side.replace('-', ' ')).toList();
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException(
            "unknown option " + a + " (options: --puts, --rounds, --cluster, --sides, --out)");
      }
    }
    if (puts < 100 || rounds < 1) {
      throw new IllegalArgumentException("--puts must be at least 100 and --rounds at least 1");
    }
    if (!sides.contains(DET) || !SIDES.containsAll(sides)) {
      throw new IllegalArgumentException("--sides: det-field and any of " + SIDES + " (a dash for each space), got "
          + sides);
    }
    new SinglePutBenchmark().run(puts, rounds, cluster, sides, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  private void run(int puts, int rounds, String kind, List<String> sides, Path outDir, String args)
      throws Exception {
    Path data = Files.createTempDirectory("single-put-bench-");
    Map<String, List<double[]>> micros = new LinkedHashMap<>();
    sides.forEach(side -> micros.put(side, new ArrayList<>()));
    String clusterDescription;
    try (BenchCluster hbase = BenchCluster.start(kind, data, "1500m", out)) {
      clusterDescription = hbase.describe();
      byte[] master = new byte[32];
      random.nextBytes(master);
      Map<String, TableSchema> schemas = new LinkedHashMap<>();
      schemas.put(PLAIN, schema("single_plain", "PLAIN", "PLAIN", "PLAIN"));
      schemas.put(DET, schema("single_det", "DET", "STD", "DET"));
      schemas.put(SSE, schema("single_sse", "DET", "STD", "SSE"));
      schemas.put(CONTROL, schema("single_control", "DET", "STD", "DET"));
      schemas.put(CONTROL_FIRST, schema("single_control_first", "DET", "STD", "DET"));
      schemas.keySet().retainAll(sides);
      try (Connection connection = ConnectionFactory.createConnection(hbase.configuration());
          SecureConnection secure = SecureConnection.wrap(connection, KeyProvider.fromMasterKey(master),
              List.copyOf(schemas.values()))) {
        Map<String, Table> tables = new LinkedHashMap<>();
        for (Map.Entry<String, TableSchema> e : schemas.entrySet()) {
          TableName name = TableName.valueOf(e.getValue().tableName());
          secure.createTable(e.getValue());
          tables.put(e.getKey(), e.getKey().equals(PLAIN) ? connection.getTable(name) : secure.getSecureTable(name));
        }
        long next = 0;
        for (String side : sides) { // warm-up: the client's JIT compiles each side's path
          next = putAll(connection, side, tables.get(side), next, puts, null);
        }
        for (int round = 0; round < rounds; round++) {
          for (int s = 0; s < sides.size(); s++) {
            String side = sides.get((s + round) % sides.size());
            double[] latencies = new double[puts];
            next = putAll(connection, side, tables.get(side), next, puts, latencies);
            micros.get(side).add(latencies);
            out.printf(Locale.ROOT, "round %d %-28s p50 %,.0f us%n", round + 1, side, Percentiles.of(latencies, 50));
          }
        }
        for (Table t : tables.values()) {
          t.close();
        }
      }
    } finally {
      sender.shutdownNow();
      RunDirectories.deleteScratch(data);
    }
    report(puts, rounds, micros, clusterDescription, outDir, args);
  }

  private static TableSchema schema(String name, String rowKeyBox, String defaultBox, String fieldBox) {
    return TableSchema.parse(SCHEMA.replace("NAME", name).replace("BOX_KEY", rowKeyBox)
        .replace("BOX_DEFAULT", defaultBox).replace("BOX", fieldBox), name);
  }

  /** Puts rows {@code first} to {@code first + count - 1} one per call, recording each call's microseconds if asked. */
  private long putAll(Connection connection, String side, Table table, long first, int count, double[] micros)
      throws IOException {
    for (int i = 0; i < count; i++) {
      Put row = WritePathBenchmark.row(first + i);
      long t0 = System.nanoTime();
      if (side.equals(CONTROL)) {
        CompletableFuture<Void> countCell = CompletableFuture.runAsync(() -> putCountCell(connection), sender);
        table.put(row);
        countCell.join();
      } else if (side.equals(CONTROL_FIRST)) {
        CompletableFuture.runAsync(() -> putCountCell(connection), sender).join();
        table.put(row);
      } else {
        table.put(row);
      }
      if (micros != null) {
        micros[i] = (System.nanoTime() - t0) / 1e3;
      }
    }
    return first + count;
  }

  /** A blind put shaped as a writer-lane count cell (40-byte row, 8-byte value) into the counter table. */
  private void putCountCell(Connection connection) {
    byte[] row = new byte[COUNT_ROW_BYTES];
    random.nextBytes(row);
    try (Table counters = connection.getTable(HBaseIdentifierSource.TABLE)) {
      counters.put(new Put(row).addColumn(HBaseIdentifierSource.FAMILY, Bytes.toBytes("sse"), System.currentTimeMillis(),
          Bytes.toBytes(random.nextLong())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void report(int puts, int rounds, Map<String, List<double[]>> micros, String cluster, Path outDir,
      String args) throws IOException {
    StringBuilder md = new StringBuilder("# One put(Put) per call: plain, DET, SSE, and SSE's second write on DET\n\n");
    md.append("| side | puts | p50 (us) | p95 (us) | p99 (us) | median of the rounds' p50 (us) | rounds' p50 (us) |"
        + " p50 of DET's |\n|---|---:|---:|---:|---:|---:|---|---:|\n");
    StringBuilder csv = new StringBuilder("side,round,puts,p50_us,p95_us,p99_us\n");
    double detP50 = roundMedian(micros.get(DET));
    for (Map.Entry<String, List<double[]>> e : micros.entrySet()) {
      double[] all = e.getValue().stream().flatMapToDouble(Arrays::stream).toArray();
      List<String> roundP50 = new ArrayList<>();
      for (int r = 0; r < e.getValue().size(); r++) {
        double[] round = e.getValue().get(r);
        roundP50.add(String.format(Locale.ROOT, "%,.0f", Percentiles.of(round, 50)));
        csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.0f,%.0f,%.0f%n", e.getKey(), r + 1, round.length,
            Percentiles.of(round, 50), Percentiles.of(round, 95), Percentiles.of(round, 99)));
      }
      double median = roundMedian(e.getValue());
      md.append(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %,.0f | %,.0f | %,.0f | %s | %.2f |%n", e.getKey(),
          all.length, Percentiles.of(all, 50), Percentiles.of(all, 95), Percentiles.of(all, 99), median,
          String.join(", ", roundP50), median / detP50));
    }
    md.append(String.format(Locale.ROOT, "%nSetup: %,d puts per side in each of %d rounds, one row per put(Put)"
        + " call from one thread, sides taking turns in an order rotated each round, after %,d untimed puts per side;"
        + " rows of 8-byte sequential keys and 10 fields of 100 bytes (field0 unique per row); secure tables: DET"
        + " row key, STD values, field0 under DET or SSE (default stored format); the controls are DET tables whose"
        + " puts add one blind put of a count cell's shape (40-byte random row, 8-byte value) to the counter table %s:"
        + " written first, then the row (%s, as SSE puts wrote their writer lane's count cell before the put carried it"
        + " to the row's region), or sent beside the"
        + " row and awaited with it (%s, one round trip); no table pre-split. HBase %s, %s. %s. Arguments: %s%n",
        puts, rounds, puts, HBaseIdentifierSource.TABLE, CONTROL_FIRST, CONTROL,
        VersionInfo.getVersion(), cluster, RunInfo.describe(),
        args.isEmpty() ? "(defaults)" : args));
    ResultFiles.write(outDir, "single-put", md, csv, out);
  }

  private static double roundMedian(List<double[]> rounds) {
    double[] p50s = rounds.stream().mapToDouble(r -> Percentiles.of(r, 50)).toArray();
    return Percentiles.of(p50s, 50);
  }
}
