package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The options of the search benchmarks ({@link SearchMacroBenchmark}, {@link UpkeepBenchmark}):
 * {@code --rows=N} (1000000), {@code --queries=N} (15), {@code --regions=N} (8) and {@code
 * --out=dir} (default: a new {@code benchmarks/runs/<yyyyMMdd-HHmmss>/}).
 */
record SearchRunOptions(int rows, int queries, int regions, Path outDir, String args) {

  static SearchRunOptions parse(String[] args) throws IOException {
    int rows = 1_000_000;
    int queries = 15;
    int regions = 8;
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "queries" -> queries = Integer.parseInt(kv[1]);
        case "regions" -> regions = Integer.parseInt(kv[1]);
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + a + " (options: --rows, --queries, --regions, --out)");
      }
    }
    if (rows < 100_000 || queries < 1 || regions < 1) {
      throw new IllegalArgumentException("--rows must be at least 100000 (values occur up to 10,000 times); --queries"
          + " and --regions at least 1");
    }
    return new SearchRunOptions(rows, queries, regions, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  /** {@code name-1M}, {@code name-100k}: a result file's name for this many rows. */
  String resultName(String name) {
    return name + "-" + (rows >= 1_000_000 && rows % 1_000_000 == 0 ? rows / 1_000_000 + "M" : rows / 1000 + "k");
  }
}
