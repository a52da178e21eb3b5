package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.cryptobox.StoredFormat;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The options of the search benchmarks ({@link SearchMacroBenchmark}, {@link UpkeepBenchmark}):
 * {@code --rows=N} (1000000), {@code --queries=N} (15), {@code --regions=N} (8), {@code
 * --stored-format=N} of the secure tables (the latest) and {@code --out=dir} (default: a new {@code
 * benchmarks/runs/<yyyyMMdd-HHmmss>/}).
 */
record SearchRunOptions(int rows, int queries, int regions, StoredFormat storedFormat, Path outDir, String args) {

  static SearchRunOptions parse(String[] args) throws IOException {
    int rows = 1_000_000;
    int queries = 15;
    int regions = 8;
    StoredFormat storedFormat = StoredFormat.LATEST;
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "queries" -> queries = Integer.parseInt(kv[1]);
        case "regions" -> regions = Integer.parseInt(kv[1]);
        case "stored-format" -> storedFormat = StoredFormat.of(Integer.parseInt(kv[1]));
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + a + " (options: --rows, --queries, --regions, --stored-format,"
            + " --out)");
      }
    }
    if (rows < 100_000 || queries < 1 || regions < 1) {
      throw new IllegalArgumentException("--rows must be at least 100000 (values occur up to 10,000 times); --queries"
          + " and --regions at least 1");
    }
    return new SearchRunOptions(rows, queries, regions, storedFormat, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  /** The secure table {@code name}'s schema: {@code box} on its tag, in {@link #storedFormat}. */
  String secureSchema(String name, String box) {
    return SearchMacroBenchmark.SECURE_SCHEMA.replace("NAME", name).replace("BOX", box)
        .replace("families:", "storedFormat: " + storedFormat.number() + "\nfamilies:");
  }

  /** {@code name-1M}, {@code name-100k}: a result file's name for {@code rows} rows. */
  static String resultName(String name, int rows) {
    return name + "-" + (rows >= 1_000_000 && rows % 1_000_000 == 0 ? rows / 1_000_000 + "M" : rows / 1000 + "k");
  }
}
