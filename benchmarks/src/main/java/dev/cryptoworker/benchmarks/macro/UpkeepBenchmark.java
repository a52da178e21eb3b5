package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.searchindex.SearchIndexUpkeep;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * What stale entries cost an SSE index, and what its compaction gives back: a table is loaded
 * (sse-search's rows: values that occur once, 100 times or 10,000 times), then half its rows
 * change value, then the regions compact their index ({@link SearchIndexUpkeep}). After each
 * phase: the index's entries (what the regions' maps hold) and the latency of searches for values
 * that still occur once and for values that occurred 100 times (half of whose rows changed away),
 * every result count checked.
 *
 * <p>Options: {@code --rows=N} (1000000), {@code --queries=N} per phase and kind (15), {@code
 * --regions=N} (8), {@code --out=dir} (default: a new {@code benchmarks/runs/<yyyyMMdd-HHmmss>/}).
 */
public final class UpkeepBenchmark {
  private static final String[] PHASES = {"freshly loaded", "half the rows changed", "index compacted"};

  private final PrintStream out = System.out;

  public static void main(String[] args) throws Exception {
    new UpkeepBenchmark().run(SearchRunOptions.parse(args));
  }


  /** Whether row {@code i} changes value in the second phase: half the rows of every multiplicity. */
  private static boolean changes(int i) {
    return i % 4 >= 2;
  }

  /** How many rows hold {@code mid-k} once the changed rows left it. */
  private static int midMatchesAfter(int k, int rows) {
    int midValues = rows / 10 / 100;
    int n = 0;
    for (int j = 0; j < 100; j++) {
      n += changes(10 * (k + midValues * j) + 1) ? 0 : 1;
    }
    return n;
  }

  private void run(SearchRunOptions options) throws Exception {
    int rows = options.rows();
    int queries = options.queries();
    int regions = options.regions();
    Path outDir = options.outDir();
    String args = options.args();
    Path data = Files.createTempDirectory("upkeep-bench-");
    try (BenchCluster hbase = BenchCluster.embedded(data, 2, "4g", out)) {
      Configuration conf = hbase.configuration();
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      TableSchema sse = TableSchema.parse(options.secureSchema("upkeep_sse", "SSE"), "sse");
      TableName name = TableName.valueOf(sse.tableName());
      try (Connection connection = ConnectionFactory.createConnection(conf);
          SecureConnection secure = SecureConnection.builder().connection(connection)
              .keys(KeyProvider.fromMasterKey(key)).schema(sse).build()) {
        secure.createTable(sse, SearchMacroBenchmark.securedSplits(regions));
        Table table = secure.getTable(name);
        double loadRate = BufferedLoader.load(secure.getBufferedMutator(name), rows,
            i -> SearchMacroBenchmark.row(i, rows), out);
        List<Phase> phases = new ArrayList<>();
        phases.add(measure(PHASES[0], connection, table, rows, queries, false));
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          if (changes(i)) {
            changed.add(i);
          }
        }
        double changeRate = BufferedLoader.load(secure.getBufferedMutator(name), changed.size(),
            n -> new Put(SearchMacroBenchmark.rowKey(changed.get(n))).addColumn(SearchMacroBenchmark.F,
                SearchMacroBenchmark.TAG, Bytes.toBytes("changed-" + changed.get(n))), out);
        phases.add(measure(PHASES[1], connection, table, rows, queries, true));
        long t0 = System.nanoTime();
        SearchIndexUpkeep.Report compaction = SearchIndexUpkeep.run(connection, name, true);
        double compactSeconds = (System.nanoTime() - t0) / 1e9;
        out.printf(Locale.ROOT, "index compaction: %d regions, %,d entries before, %,d after, %.1f s%n",
            compaction.regions(), compaction.entriesBefore(), compaction.entriesAfter(), compactSeconds);
        phases.add(measure(PHASES[2], connection, table, rows, queries, true));
        write(phases, compaction, compactSeconds, rows, changed.size(), queries, regions, loadRate, changeRate, outDir,
            args);
      }
    } finally {
      RunDirectories.deleteScratch(data);
    }
  }

  /** One phase's index size and search latencies (ms, per query). */
  private record Phase(String name, long entries, double[] oneMatch, double[] midMatches) {}

  private Phase measure(String phase, Connection connection, Table table, int rows, int queries, boolean changed)
      throws IOException {
    try (Admin admin = connection.getAdmin()) {
      admin.flush(table.getName());
      // Searches measured while HBase still compacts the load's files would make the fresh phase
      // look slower than the later ones; a major compaction is not asked for, since it would also
      // compact the index (postCompact) before the second phase is measured.
      for (int polls = 0; admin.getCompactionState(table.getName()) != CompactionState.NONE && polls < 1_800; polls++) {
        try {
          Thread.sleep(1_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while waiting for compactions");
        }
      }
    }
    long entries = SearchIndexUpkeep.run(connection, table.getName(), false).entriesAfter();
    SplittableRandom random = new SplittableRandom(2026);
    double[] one = new double[queries];
    double[] mid = new double[queries];
    int midValues = rows / 10 / 100;
    // Warm-up, untimed: as many searches as the phase times, so that no phase runs on a colder JIT.
    SplittableRandom warm = new SplittableRandom(7);
    for (int q = 0; q < 2 * queries; q++) {
      SearchMacroBenchmark.search(table, "mid-" + warm.nextInt(midValues));
      SearchMacroBenchmark.search(table, "unique-" + warm.nextInt(rows));
    }
    for (int q = 0; q < queries; q++) {
      int i;
      do {
        i = random.nextInt(rows);
      } while (i % 10 < 2 || changes(i)); // a unique value its row still holds
      one[q] = timed(table, "unique-" + i, 1);
      int k = random.nextInt(midValues);
      mid[q] = timed(table, "mid-" + k, changed ? midMatchesAfter(k, rows) : 100);
    }
    out.printf(Locale.ROOT, "%s: %,d index entries, 1-match median %.1f ms, 100-match median %.1f ms%n", phase, entries,
        Percentiles.of(one, 50), Percentiles.of(mid, 50));
    return new Phase(phase, entries, one, mid);
  }

  private static double timed(Table table, String value, int expected) throws IOException {
    long t0 = System.nanoTime();
    int found = SearchMacroBenchmark.search(table, value);
    double ms = (System.nanoTime() - t0) / 1e6;
    if (found != expected) {
      throw new IllegalStateException("the search for " + value + " found " + found + " rows, expected " + expected);
    }
    return ms;
  }

  private void write(List<Phase> phases, SearchIndexUpkeep.Report compaction, double compactSeconds, int rows,
      int changed, int queries, int regions, double loadRate, double changeRate, Path outDir, String args)
      throws IOException {
    Phase fresh = phases.get(0);
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("rows,phase,index_entries,one_match_median_ms,one_match_p95_ms,"
        + "mid_median_ms,mid_p95_ms\n");
    md.append(String.format(Locale.ROOT, "# SSE index upkeep over %,d rows: stale entries and their compaction%n%n", rows));
    md.append("Index entries (what the regions' maps hold, from `cryptoworker search-index`) and the latency of one"
        + " equality search (ms), median and p95 over ").append(queries).append(" queries per cell; every result count"
        + " was checked. 1-match: values their one row still holds. 100-match: values 100 rows held when loaded, of"
        + " which about half changed away in the second phase.\n\n");
    md.append("| phase | index entries | of fresh | 1-match median | 1-match p95 | of fresh (median) | 100-match median"
        + " | 100-match p95 | of fresh (median) |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Phase p : phases) {
      double one = Percentiles.of(p.oneMatch(), 50);
      double mid = Percentiles.of(p.midMatches(), 50);
      md.append(String.format(Locale.ROOT, "| %s | %,d | %.2f | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |%n", p.name(),
          p.entries(), (double) p.entries() / fresh.entries(), one, Percentiles.of(p.oneMatch(), 95),
          one / Percentiles.of(fresh.oneMatch(), 50), mid, Percentiles.of(p.midMatches(), 95),
          mid / Percentiles.of(fresh.midMatches(), 50)));
      csv.append(String.format(Locale.ROOT, "%d,%s,%d,%.2f,%.2f,%.2f,%.2f%n", rows, p.name(), p.entries(), one,
          Percentiles.of(p.oneMatch(), 95), mid, Percentiles.of(p.midMatches(), 95)));
    }
    md.append(String.format(Locale.ROOT, "%nThe compaction (`cryptoworker search-index --compact`: one scan of each"
        + " region's index cells, one region after another) took %.1f s over %d regions: %,d entries before, %,d"
        + " after, %,d removed, %,d added.%n", compactSeconds, compaction.regions(), compaction.entriesBefore(),
        compaction.entriesAfter(), compaction.removed(), compaction.added()));
    md.append(String.format(Locale.ROOT, "%nData: sse-search's rows (a tenth of the rows hold values that occur 10,000"
        + " times, a tenth values that occur 100 times, the rest unique values, each row with an STD payload), loaded"
        + " at %,.0f rows/s; then %,d rows (half of every multiplicity) get a new unique value, at %,.0f rows/s. The"
        + " table is pre-split into %d regions over two embedded region servers (HBase %s) in a child JVM, flushed"
        + " before each phase's measurements, which start once HBase's own compactions are done and after twice as"
        + " many untimed searches.%n%n"
        + "Command: `./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@upkeep%s`  %n",
        loadRate, changed, changeRate, regions, VersionInfo.getVersion(),
        args.isEmpty() ? "" : " -Dbench.args=\"" + args + "\""));
    md.append(RunInfo.describe());
    ResultFiles.write(outDir, SearchRunOptions.resultName("sse-upkeep", rows), md, csv,
        out);
  }
}
