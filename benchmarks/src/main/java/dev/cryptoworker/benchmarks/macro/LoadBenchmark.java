package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ClusterConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.MetricsConnection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * Where write time goes, per box, plain HBase beside CryptoWorker in one run on HBase as separate
 * processes (2 region servers): each variant loads the same rows into a fresh plain table and a fresh
 * secure one through BufferedMutators, from one or more client threads, and reports rows per second,
 * client and region-server CPU per row, RPCs per row (HBase's client metrics), stored bytes and cells
 * per row, and the client CPU each protected cell adds beside one JDK AES-256-GCM call on a value of
 * its size. Rows are those of {@code growth.md}: key {@code r%09d}, a unique id, a unique tag, a
 * date, an amount and a 60-byte payload. Variants: every box at once (and the same with a DET tag
 * instead of SSE), each box alone on its column
 * (the rest PLAIN), STD values under a DET row key, and two controls: PLAIN schemas whose secure
 * side writes rows padded to the stored sizes of the STD-under-DET rows (with 128-bit and with
 * 96-bit GCM tags), the ceiling of any encryption that stores that many bytes, and one whose rows
 * carry the SSE variant's cells without its counter takes.
 *
 * <p>Options: {@code --rows=N} (1,000,000) per table, {@code --threads=1,4} (thread counts for the
 * all-box variants and those named by {@code --threaded=det,sse,...}; the others run on one), {@code
 * --variants=all-boxes,std,...} (all), {@code --rounds=N} (1): every timed pair of loads N times, round
 * after round, with a table of each pair's medians after the rounds' lines, {@code
 * --profile} (CPU profiles of each secure load, of the client and of the HBase servers, with
 * async-profiler, summarized in
 * {@code NAME-profile.md}), {@code
 * --warmup=N} (200,000; 0 for none) rows loaded into a throw-away plain and secure table of each
 * variant before the timed loads, {@code --stored-format=N} of the secure tables (the latest), {@code
 * --name=NAME} of the result files (load), {@code --out=dir}. The counter table is emptied after
 * every pair of loads.
 *
 * <p>The warm-up exists because the JIT compilers of the client and of the region servers (which run
 * the full tiered JIT here, as in production) spend tens of CPU-seconds compiling a load's hot code
 * during its first minute: on this 2-core machine that is a third of a million-row SSE load's
 * CPU, a cost that long-running servers pay once. Warm-up rows are numbered after the timed ones, so
 * no SSE value of the timed load has a counter yet.
 */
public final class LoadBenchmark {
  private static final byte[] F = Bytes.toBytes("f");
  private static final String[] COLUMNS = {"id", "tag", "date", "amount", "payload"};
  private static final Set<String> ALL_COLUMNS = Set.of(COLUMNS);
  private static final Set<String> TAG = Set.of("tag");
  private static final String PAYLOAD = "payload of row %09d, some bytes to make it a realistic row";

  /**
   * A secure schema for the rows, how many cells it protects per row (the row key included), and the
   * bytes its secure side adds to each row key and value before the client sees them (controls:
   * PLAIN schemas whose rows are as long as another variant's ciphertexts).
   */
  private record Variant(String name, String rowKeyBox, Map<String, String> boxes, int protectedCells,
      int valueBytes, UnaryOperator<Put> secureRows) {
    Variant(String name, String rowKeyBox, Map<String, String> boxes, int protectedCells, int valueBytes) {
      this(name, rowKeyBox, boxes, protectedCells, valueBytes, UnaryOperator.identity());
    }

    /**
     * A PLAIN schema whose secure side writes each row as {@code padding} makes it; its columns are
     * bytes, since padded longs are no longer 8 bytes.
     */
    static Variant control(String name, UnaryOperator<Put> padding) {
      return new Variant(name, "PLAIN", Map.of(), 0, 24, padding);
    }

    boolean isControl() {
      return protectedCells == 0;
    }

    /** Row {@code i} as the secure side writes it. */
    Put secureRow(int i) {
      return secureRows.apply(row(i));
    }

    String schema(String table, StoredFormat format) {
      StringBuilder yaml = new StringBuilder("table: " + table + "\nrowKey: { box: " + rowKeyBox
          + ", type: " + (isControl() ? "bytes" : "string") + " }\nstoredFormat: " + format.number() + "\nfamilies:\n  f:\n    default: { box: PLAIN, type: "
          + (isControl() ? "bytes" : "string") + " }\n    columns:\n");
      for (String column : COLUMNS) {
        String box = boxes.getOrDefault(column, "PLAIN");
        String type = isControl() ? "bytes" : column.equals("date") || column.equals("amount") ? "long" : "string";
        yaml.append("      ").append(column).append(": { box: ").append(box).append(", type: ").append(type)
            .append(" }\n");
      }
      return yaml.toString();
    }
  }

  private static final List<Variant> VARIANTS = List.of(
      new Variant("all-boxes", "OPE", Map.of("id", "DET", "tag", "SSE", "date", "OPE", "amount", "ASHE",
          "payload", "STD"), 6, 24),
      // Every box but SSE, the tag DET: what the all-box load reaches without the index's forward
      // privacy (and with the tag's equalities visible at rest, as DET's are).
      new Variant("all-boxes-det-tag", "OPE", Map.of("id", "DET", "tag", "DET", "date", "OPE", "amount", "ASHE",
          "payload", "STD"), 6, 24),
      new Variant("std-det", "DET", Map.of("id", "STD", "tag", "STD", "date", "STD", "amount", "STD",
          "payload", "STD"), 6, 24),
      // std-det's stored sizes and row order in format 5 without its encryption: DET puts 17 bytes
      // (header, SIV tag) before a 10-byte row key, which scatters rows over the key space, and STD
      // adds 41 to each value (header, XAES nonce, tag). The ceiling of any STD and DET.
      Variant.control("std-det-sized-plain", p -> PaddedRows.padded(p, PaddedRows.detShapedKey(p.getRow(), true),
          ALL_COLUMNS, 41)),
      // The same with 96-bit GCM tags (4 bytes shorter per value): what shorter tags could gain at most.
      Variant.control("std-det-sized-plain-96-bit-tags", p -> PaddedRows.padded(p,
          PaddedRows.detShapedKey(p.getRow(), true), ALL_COLUMNS, 37)),
      // sse's stored cells without counters: the tag 45 bytes longer (SSE's value in stored format 5,
      // XAES-256-GCM with format 1's header) and an index cell of 21 bytes. The ceiling of an index without per-value counters,
      // that is, without forward privacy; it leaves out the region servers' in-memory index map too.
      Variant.control("sse-sized-plain-no-counters", p -> withCell(PaddedRows.padded(p, p.getRow(), TAG, 45),
          "tagindex", 21)),
      // The same with a real index cell (the index qualifier, a key-id header and a 16-byte key of
      // the row) in a table whose region servers keep the index map: what the map costs (design
      // review SSE-WRITES.md, M1), still without counters.
      Variant.control("sse-sized-plain-index-map", p -> withIndexCell(PaddedRows.padded(p, p.getRow(), TAG, 45))),
      // The same cells in a table with the region observer but no index map (no search attribute):
      // what the observer's hooks cost a write, apart from the map.
      Variant.control("sse-sized-plain-observer", p -> withIndexCell(PaddedRows.padded(p, p.getRow(), TAG, 45))),
      // The same plus one blind row per row in the counter table (CountRowMutator), as writer lanes
      // write one count cell per distinct value: what that row costs, without SSE's work.
      Variant.control("sse-sized-plain-index-map-count-rows",
          p -> withIndexCell(PaddedRows.padded(p, p.getRow(), TAG, 45))),
      new Variant("det-row-key", "DET", Map.of(), 1, 10),
      new Variant("ope-row-key", "OPE", Map.of(), 1, 10),
      new Variant("std", "PLAIN", Map.of("payload", "STD"), 1, 60),
      new Variant("det", "PLAIN", Map.of("id", "DET"), 1, 10),
      new Variant("sse", "PLAIN", Map.of("tag", "SSE"), 1, 10),
      new Variant("ope", "PLAIN", Map.of("date", "OPE"), 1, 8),
      new Variant("ashe", "PLAIN", Map.of("amount", "ASHE"), 1, 8));

  /** One load: rows per second and what it cost. */
  private record Load(double rowsPerSecond, CpuClock.Usage cpu, long rpcs, Stored stored, long counterRows,
      List<Path> clientRecordings, List<Path> serverRecordings) {}

  /** What the servers' profile tables list: CryptoWorker's and the region server's methods, and the JVM's own threads. */
  private static final List<String> SERVER_FRAMES = List.of("dev.cryptoworker", "org.apache.hadoop.hbase.regionserver",
      "VMThread::", "CompileBroker::", "DefNewGeneration::", "TenuredGeneration::");
  private final PrintStream out = System.out;
  /** The stored format of the secure tables ({@code --stored-format}, the latest unless told). */
  private final StoredFormat storedFormat;

  private LoadBenchmark(StoredFormat storedFormat) {
    this.storedFormat = storedFormat;
  }

  private final CpuClock clock = new CpuClock();
  private List<Long> serverPids = List.of();

  public static void main(String[] args) throws Exception {
    int rows = 1_000_000;
    List<Integer> threads = List.of(1, 4);
    List<String> variants = VARIANTS.stream().map(Variant::name).toList();
    boolean profile = false;
    int warmup = 200_000;
    StoredFormat storedFormat = StoredFormat.LATEST;
    int rounds = 1;
    List<String> threaded = List.of();
    String name = "load";
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "threads" -> threads = Stream.of(kv[1].split(",")).map(Integer::parseInt).toList();
        case "variants" -> variants = List.of(kv[1].split(","));
        case "threaded" -> threaded = List.of(kv[1].split(","));
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "profile" -> profile = true;
        case "warmup" -> warmup = Integer.parseInt(kv[1]);
        case "stored-format" -> storedFormat = StoredFormat.of(Integer.parseInt(kv[1]));
        case "name" -> name = kv[1];
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException(
            "unknown option " + a + " (options: --rows, --threads, --threaded, --variants, --rounds, --profile, --warmup,"
            + " --stored-format, --name, --out)");
      }
    }
    List<String> known = VARIANTS.stream().map(Variant::name).toList();
    for (String v : Stream.concat(variants.stream(), threaded.stream()).toList()) {
      if (!known.contains(v)) {
        throw new IllegalArgumentException("unknown variant " + v + " (variants: " + String.join(", ", known) + ")");
      }
    }
    if (rows < 1000 || warmup < 0 || rounds < 1 || threads.stream().anyMatch(t -> t < 1)) {
      throw new IllegalArgumentException(
          "--rows must be at least 1000, --warmup at least 0, --rounds at least 1 and every thread count at least 1");
    }
    new LoadBenchmark(storedFormat).run(rows, warmup, rounds, threads, threaded, variants, profile, name,
        outDir == null ? RunDirectories.newRunDirectory() : outDir, String.join(" ", args));
  }

  /** {@code put} with one more cell of family f, {@code column}, of {@code bytes} zero bytes. */
  /** {@code put} with the index cell an SSE tag has: header {@code 01 00000001}, then 16 bytes of the row's SHA-256. */
  private static Put withIndexCell(Put put) {
    byte[] value = Bytes.add(new byte[] {1, 0, 0, 0, 1}, Arrays.copyOf(PaddedRows.sha256(put.getRow()), 16));
    return put.addColumn(F, SearchIndexCells.qualifier(Bytes.toBytes("tag")), value);
  }

  private static Put withCell(Put put, String column, int bytes) {
    return put.addColumn(F, Bytes.toBytes(column), new byte[bytes]);
  }

  static Put row(int i) {
    return new Put(Bytes.toBytes(String.format(Locale.ROOT, "r%09d", i)))
        .addColumn(F, Bytes.toBytes("id"), Bytes.toBytes("id-" + i))
        .addColumn(F, Bytes.toBytes("tag"), Bytes.toBytes("tag-" + i))
        .addColumn(F, Bytes.toBytes("date"), Bytes.toBytes((long) i))
        .addColumn(F, Bytes.toBytes("amount"), Bytes.toBytes((long) i % 1000))
        .addColumn(F, Bytes.toBytes("payload"), Bytes.toBytes(String.format(Locale.ROOT, PAYLOAD, i)));
  }

  private void run(int rows, int warmup, int rounds, List<Integer> threadCounts, List<String> threaded,
      List<String> names, boolean profile, String fileName, Path outDir, String args) throws Exception {
    Files.createDirectories(outDir);
    Path data = Files.createTempDirectory("load-bench-");
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("variant,threads,plain_rows_s,secure_rows_s,ratio,"
        + "plain_client_us_row,secure_client_us_row,extra_client_us_cell,aes_gcm_us,plain_server_us_row,"
        + "secure_server_us_row,plain_rpcs_1k,secure_rpcs_1k,plain_bytes_row,secure_bytes_row,"
        + "plain_cells_row,secure_cells_row,counter_rows_per_row\n");
    StringBuilder profiles = new StringBuilder();
    Map<String, List<double[]>> pairs = new LinkedHashMap<>(); // "variant,threads" to each round's plain and secure rows/s
    byte[] master = new byte[32];
    new SecureRandom().nextBytes(master);
    KeyProvider keys = KeyProvider.fromMasterKey(master);
    try (BenchCluster hbase = BenchCluster.start("processes", data, "1500m", out);
        Connection plainSide = connect(hbase, "plain");
        Connection secureSide = connect(hbase, "secure")) {
      clock.watchServers(hbase.pids());
      serverPids = hbase.pids();
      md.append("| variant | threads | plain rows/s | secure rows/s | secure / plain | client CPU µs/row"
          + " (plain / secure) | added client µs per protected cell | JDK AES-GCM µs | cell / AES-GCM"
          + " | server CPU µs/row (plain / secure) | RPCs per 1,000 rows (plain / secure) | stored bytes/row"
          + " (plain / secure) | stored cells/row (plain / secure) | counter rows added per row |\n");
      md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      int run = 0;
      for (int round = 1; round <= rounds; round++) {
        for (String name : names) {
          Variant v = VARIANTS.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
          if (warmup > 0 && round == 1) {
            run++;
            warmUp(plainSide, secureSide, keys, v, run, rows, warmup);
          }
          for (int threads : name.startsWith("all-boxes") || threaded.contains(name) ? threadCounts : List.of(1)) {
            run++;
            TableName plainName = TableName.valueOf("load_plain_" + run);
            TableSchema schema = TableSchema.parse(v.schema("load_secure_" + run, storedFormat), "load benchmark");
            TableName secureName = TableName.valueOf(schema.tableName());
            try (SecureConnection secure = SecureConnection.wrap(secureSide, keys, List.of(schema));
                Admin admin = plainSide.getAdmin()) {
              createTables(admin, secure, plainName, schema, v);
              Callable<Load> plainLoad = () -> load(plainSide, admin, plainName,
                  () -> plainSide.getBufferedMutator(plainName), LoadBenchmark::row, 0, rows, threads, null);
              Path recording = profile ? outDir.resolve("load-" + name + "-" + threads) : null;
              Callable<Load> secureLoad = () -> load(secureSide, admin, secureName,
                  () -> secureMutator(v, secure, secureSide, secureName), v::secureRow, 0, rows, threads, recording);
              // Which side loads first alternates from run to run: a run's second load meets a cluster
              // still busy with the first one's flushes and compactions.
              boolean secureFirst = run % 2 == 0;
              Load secured = secureFirst ? secureLoad.call() : null;
              Load plain = plainLoad.call();
              if (!secureFirst) {
                secured = secureLoad.call();
              }
              if (recording != null) {
                ProfileSummary p = ProfileSummary.readCollapsed(secured.clientRecordings());
                ProfileSummary s = ProfileSummary.readCollapsed(secured.serverRecordings());
                profiles.append(String.format(Locale.ROOT, "## %s, %d thread%s%n%n### Client (%,d CPU samples)%n%n%s%n%s%n"
                    + "### HBase servers (%,d CPU samples over the region servers, master and ZooKeeper)%n%n%s%n%s%n",
                    name, threads, threads == 1 ? "" : "s", p.samples(), p.inclusiveTable(25, List.of("dev.cryptoworker")),
                    p.selfTable(15), s.samples(), s.inclusiveTable(40, SERVER_FRAMES), s.selfTable(20)));
                for (Path f : secured.clientRecordings()) {
                  Files.delete(f);
                }
                for (Path f : secured.serverRecordings()) {
                  Files.delete(f);
                }
              }
              double aes = aesGcmMicros(v.valueBytes());
              double plainClient = plain.cpu().clientNanos() / 1e3 / rows;
              double secureClient = secured.cpu().clientNanos() / 1e3 / rows;
              double perCell = v.isControl() ? Double.NaN : (secureClient - plainClient) / v.protectedCells();
              Object[] values = {name, threads, plain.rowsPerSecond(), secured.rowsPerSecond(),
                  secured.rowsPerSecond() / plain.rowsPerSecond(), plainClient, secureClient, perCell, aes, perCell / aes,
                  serverMicros(plain, rows), serverMicros(secured, rows), plain.rpcs() * 1000.0 / rows,
                  secured.rpcs() * 1000.0 / rows, plain.stored().bytesPerRow(), secured.stored().bytesPerRow(),
                  plain.stored().cellsPerRow(), secured.stored().cellsPerRow(), (double) secured.counterRows() / rows};
              String line = String.format(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | %.2f | %.1f / %.1f | %.1f | %.2f | %.1f"
                  + " | %.1f / %.1f | %.1f / %.1f | %,.0f / %,.0f | %.1f / %.1f | %.2f |%n", values);
              md.append(line);
              out.print(line);
              pairs.computeIfAbsent(name + "," + threads, k -> new ArrayList<>())
                  .add(new double[] {plain.rowsPerSecond(), secured.rowsPerSecond()});
              csv.append(String.format(Locale.ROOT, "%s,%d,%.0f,%.0f,%.3f,%.2f,%.2f,%.2f,%.3f,%.2f,%.2f,%.2f,%.1f,%.1f,"
                  + "%.1f,%.1f,%.2f,%.2f,%.3f%n", values));
              dropTables(admin, plainName, secureName);
            }
          }
        }
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
    String header = String.format(Locale.ROOT, "# Where write time goes: plain HBase and CryptoWorker, per box, one run%n%n"
        + "Loads of %,d rows per table through BufferedMutators (one per client thread; HBase's own on the plain side),"
        + " timed to the last flush; CPU measured for the client JVM (all its threads, JIT and GC included) and the"
        + " region-server processes; RPCs from HBase's client metrics (one connection per side); stored bytes are the"
        + " KeyValue sizes of the cells of the table's first 1,000 rows, read raw (what store files hold before block"
        + " encoding or compression), with their cells per row. The counter column is the rows SSE entry counters"
        + " added to `cryptoworker_ids` per loaded row. The added"
        + " client CPU per protected cell is (secure - plain client CPU per row) / protected cells per row (row key"
        + " included), beside one JDK AES-256-GCM encryption of a value of the column's size (the all-box and std-det"
        + " rows: 24 bytes, their average).%n%n", rows);
    String footer = String.format(Locale.ROOT, "%nRows: key `r%%09d`, id `id-N`, tag `tag-N` (unique), date N, amount"
        + " N %% 1000 (8-byte longs), payload 60 bytes. Variants: `all-boxes` is growth.md's schema (OPE row key, DET id,"
        + " SSE tag, OPE date, ASHE amount, STD payload); `all-boxes-det-tag` the same with a DET tag instead"
        + " of SSE; `std-det` a DET row key and every column STD; the others one"
        + " box on one column (or the row key), the rest PLAIN; `std-det-sized-plain` a PLAIN schema whose secure side"
        + " writes rows padded with zeros to std-det's stored sizes and order (17 bytes before the row key, a header"
        + " byte and 16 bytes of SHA-256 of the key, as DET's; each value +41, STD's XAES-256-GCM), and"
        + " `std-det-sized-plain-96-bit-tags` the same with 96-bit GCM tags (each value +37): the ceilings of any"
        + " encryption storing that many bytes; `sse-sized-plain-no-counters` the sse variant's stored cells (tag +45"
        + " bytes, one 21-byte index cell) without counter takes or the region servers' index map: the ceiling of an"
        + " index without per-value counters, that is, without forward privacy; `sse-sized-plain-index-map` the same"
        + " with real index cells and the region servers' index map, `sse-sized-plain-observer` the same cells with the"
        + " region observer but no map, and `sse-sized-plain-index-map-count-rows` the index map plus"
        + " one blind 28-byte-keyed row per row in the counter table, as writer lanes write. HBase %s as separate"
        + " processes (ZooKeeper, a master,"
        + " two region servers reporting every 3 s, HBase's default), tables not pre-split; the side that loads first alternates from one"
        + " timed pair of loads to the next.%n%nCommand: `./mvnw -q -DskipTests -pl benchmarks -am package"
        + " exec:exec@load -Dbench.args=\"%s\"`  %n%s", VersionInfo.getVersion(), args, RunInfo.describe());
    if (rounds > 1) {
      md.append(medians(pairs, rounds));
    }
    ResultFiles.write(outDir, fileName, header + md + footer, csv, out);
    if (profile) {
      Files.writeString(outDir.resolve(fileName + "-profile.md"), "# CPU profiles of the secure loads\n\n"
          + "For the client JVM and the HBase server JVMs (async-profiler, a sample per millisecond of CPU of"
          + " every thread), the share of CPU samples with each method on the stack, then where the CPU was (leaf"
          + " methods), with the CryptoWorker method nearest each leaf on its stacks. The tables count every"
          + " thread's samples: `VMThread` runs the serial collector, `CompileBroker` the JIT."
          + " Same run as " + fileName + ".md.\n\n" + profiles);
    }
  }

  /**
   * Per variant and thread count, the medians over the rounds of plain and secure rows/s and of
   * their ratio (the median of each round's ratio, so a round's cluster state cancels out).
   */
  private static String medians(Map<String, List<double[]>> pairs, int rounds) {
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%n## Medians of %d rounds%n%n| variant | threads"
        + " | plain rows/s | secure rows/s | secure / plain (median of the rounds' ratios) |%n|---|---:|---:|---:|---:|%n",
        rounds));
    pairs.forEach((key, runs) -> {
      double[] plain = runs.stream().mapToDouble(r -> r[0]).toArray();
      double[] secure = runs.stream().mapToDouble(r -> r[1]).toArray();
      double[] ratio = runs.stream().mapToDouble(r -> r[1] / r[0]).toArray();
      String[] variantThreads = key.split(",");
      md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %,.0f | %.2f |%n", variantThreads[0], variantThreads[1],
          Percentiles.of(plain, 50), Percentiles.of(secure, 50), Percentiles.of(ratio, 50)));
    });
    return md.toString();
  }

  /**
   * Loads rows {@code rows..rows+warmup-1} into a plain and a secure table of {@code v} on one
   * thread, untimed, then drops both tables.
   */
  private void warmUp(Connection plainSide, Connection secureSide, KeyProvider keys, Variant v, int run, int rows,
      int warmup) throws Exception {
    TableName plainName = TableName.valueOf("warmup_plain_" + run);
    TableSchema schema = TableSchema.parse(v.schema("warmup_secure_" + run, storedFormat), "load benchmark warm-up");
    TableName secureName = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = SecureConnection.wrap(secureSide, keys, List.of(schema));
        Admin admin = plainSide.getAdmin()) {
      createTables(admin, secure, plainName, schema, v);
      load(plainSide, admin, plainName, () -> plainSide.getBufferedMutator(plainName), LoadBenchmark::row, rows, warmup, 1,
          null);
      load(secureSide, admin, secureName, () -> secureMutator(v, secure, secureSide, secureName), v::secureRow, rows,
          warmup, 1, null);
      dropTables(admin, plainName, secureName);
    }
  }

  /** The secure side's mutator; for the count-row control, one that adds a counter-table row per row. */
  private static BufferedMutator secureMutator(Variant v, SecureConnection secure, Connection secureSide,
      TableName secureName) throws IOException {
    BufferedMutator rows = secure.getBufferedMutator(secureName);
    if (!v.name().endsWith("-count-rows")) {
      return rows;
    }
    try (Admin admin = secureSide.getAdmin()) {
      RegionSupport.prepareCounterTable(admin); // with its observer, as SSE tables have it
    }
    return new CountRowMutator(rows, secureSide.getBufferedMutator(HBaseIdentifierSource.TABLE),
        HBaseIdentifierSource.FAMILY);
  }

  /**
   * Creates a plain table of family {@code f} and the secure table of {@code schema}; for a
   * variant with index cells, the secure table's region servers keep the index map as for SSE.
   */
  private static void createTables(Admin admin, SecureConnection secure, TableName plain, TableSchema schema,
      Variant variant) throws IOException {
    admin.createTable(TableDescriptorBuilder.newBuilder(plain).setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .build());
    secure.createTable(schema);
    if (variant.name().contains("-index-map") || variant.name().contains("-observer")) {
      TableName name = TableName.valueOf(schema.tableName());
      TableDescriptorBuilder observed = TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .setCoprocessor(RegionSupport.REGION_OBSERVER);
      if (variant.name().contains("-index-map")) {
        observed.setValue(SearchIndexCells.TABLE_ATTRIBUTE, "true");
      }
      admin.modifyTable(observed.build());
    }
  }

  /**
   * Drops {@code tables}, then empties the counter table, so that each load starts from the same
   * counter table: the dropped tables' SSE counts are garbage, and stored format 7's counter
   * regions would otherwise hold every lane of every load in memory (a run of 32588c1 ran its
   * region servers out of heap).
   */
  private static void dropTables(Admin admin, TableName... tables) throws IOException {
    for (TableName t : tables) {
      admin.disableTable(t);
      admin.deleteTable(t);
    }
    if (admin.tableExists(HBaseIdentifierSource.TABLE)) {
      admin.disableTable(HBaseIdentifierSource.TABLE);
      admin.truncateTable(HBaseIdentifierSource.TABLE, true);
    }
  }

  private static Connection connect(BenchCluster hbase, String side) throws IOException {
    org.apache.hadoop.conf.Configuration conf = hbase.configuration();
    conf.setBoolean(MetricsConnection.CLIENT_SIDE_METRICS_ENABLED_KEY, true);
    conf.set(MetricsConnection.METRICS_SCOPE_KEY, "load-" + side);
    return ConnectionFactory.createConnection(conf);
  }

  @FunctionalInterface
  private interface MutatorSource {
    BufferedMutator open() throws IOException;
  }

  /**
   * Loads rows {@code first..first+rows-1}, the i-th of them from thread i mod threads, then flushes
   * the table.
   */
  private Load load(Connection connection, Admin admin, TableName table, MutatorSource mutators,
      IntFunction<Put> rowsOf, int first, int rows,
      int threads, Path recording) throws Exception {
    long counterBefore = counterRows(connection, admin);
    long rpcsBefore = rpcs(connection);
    CpuProfiles client = null;
    CpuProfiles servers = null;
    if (recording != null) {
      client = CpuProfiles.start(List.of(ProcessHandle.current().pid()));
      servers = CpuProfiles.start(serverPids);
    }
    CpuClock.Usage before = clock.now();
    long t0 = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> writers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int own = t;
        writers.add(pool.submit(() -> {
          try (BufferedMutator mutator = mutators.open()) {
            for (int i = own; i < rows; i += threads) {
              mutator.mutate(rowsOf.apply(first + i));
            }
          }
          return null;
        }));
      }
      for (Future<Void> w : writers) {
        w.get();
      }
    } finally {
      pool.shutdown();
    }
    double rate = rows / ((System.nanoTime() - t0) / 1e9);
    CpuClock.Usage cpu = clock.now().minus(before);
    List<Path> clientRecordings = List.of();
    List<Path> serverRecordings = List.of();
    if (recording != null) {
      Path dir = recording.toAbsolutePath().getParent();
      String prefix = recording.getFileName().toString();
      clientRecordings = client.stop(dir, prefix + "-client");
      serverRecordings = servers.stop(dir, prefix + "-server");
    }
    long rpcs = rpcs(connection) - rpcsBefore;
    out.printf(Locale.ROOT, "loaded %,d rows into %s from %d thread%s: %,.0f rows/s%n", rows, table, threads,
        threads == 1 ? "" : "s", rate);
    // The next load starts on a quiet cluster: no flush or compaction of this table (or the counters) left running.
    admin.flush(table);
    WritePathBenchmark.waitForCompaction(admin, table);
    long counterRows = counterRows(connection, admin) - counterBefore;
    if (counterRows > 0) {
      WritePathBenchmark.waitForCompaction(admin, TableName.valueOf("cryptoworker_ids"));
    }
    return new Load(rate, cpu, rpcs, stored(connection, table), counterRows, clientRecordings, serverRecordings);
  }

  private static double serverMicros(Load load, int rows) {
    return load.cpu().serverNanos() < 0 ? Double.NaN : load.cpu().serverNanos() / 1e3 / rows;
  }

  private static long rpcs(Connection connection) {
    return ((ClusterConnection) connection).getConnectionMetrics().getRpcCounters().values().stream()
        .mapToLong(c -> c.getCount()).sum();
  }

  /** What a table stores per row, from its first 1,000 rows read raw. */
  private record Stored(double bytesPerRow, double cellsPerRow) {}

  /**
   * Cells and bytes per row over the table's first 1,000 rows, read raw; a cell's bytes are its
   * KeyValue form (20 bytes of lengths, timestamp and type, then row, family, qualifier and value),
   * what a store file holds before block encoding or compression.
   */
  private static Stored stored(Connection connection, TableName table) throws IOException {
    long cells = 0;
    long bytes = 0;
    int rows = 0;
    try (Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(new Scan().setRaw(true).setLimit(1000).setCaching(1000))) {
      for (Result r : scanner) {
        for (Cell c : r.rawCells()) {
          bytes += 20 + c.getRowLength() + c.getFamilyLength() + c.getQualifierLength() + c.getValueLength();
        }
        cells += r.rawCells().length;
        rows++;
      }
    }
    return rows == 0 ? new Stored(0, 0) : new Stored((double) bytes / rows, (double) cells / rows);
  }

  /** Rows of the counter table (0 before it exists), after a flush. */
  private static long counterRows(Connection connection, Admin admin) throws IOException {
    TableName counters = TableName.valueOf("cryptoworker_ids");
    if (!admin.tableExists(counters)) {
      return 0;
    }
    admin.flush(counters);
    long rows = 0;
    try (Table t = connection.getTable(counters);
        ResultScanner scanner = t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(10_000))) {
      for (Result r : scanner) {
        rows++;
      }
    }
    return rows;
  }

  /** Microseconds of one JDK AES-256-GCM encryption of {@code size} bytes, warmed up first. */
  private static double aesGcmMicros(int size) throws GeneralSecurityException {
    byte[] key = new byte[32];
    byte[] nonce = new byte[12];
    byte[] value = new byte[size];
    SecureRandom random = new SecureRandom();
    random.nextBytes(key);
    SecretKeySpec spec = new SecretKeySpec(key, "AES");
    Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
    long sink = 0;
    long t0 = 0;
    int calls = 200_000;
    for (int round = 0; round < 4; round++) {
      t0 = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        Arrays.fill(nonce, 0, 4, (byte) round);
        nonce[4] = (byte) i;
        nonce[5] = (byte) (i >>> 8);
        nonce[6] = (byte) (i >>> 16);
        gcm.init(Cipher.ENCRYPT_MODE, spec, new GCMParameterSpec(128, nonce));
        sink += gcm.doFinal(value).length;
      }
    }
    if (sink == 0) {
      throw new IllegalStateException("no ciphertext");
    }
    return (System.nanoTime() - t0) / 1e3 / calls;
  }
}
