package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The options of the sum benchmarks ({@link AggregationMacroBenchmark}, {@link
 * SplasheMacroBenchmark}): {@code --rows=N}, {@code --rounds=N}, {@code --regions=N}, {@code
 * --name=prefix} of the result files, {@code --out=dir} (default: a new {@code
 * benchmarks/runs/<yyyyMMdd-HHmmss>/}), and the runner's own text options, each with its default.
 */
record SumRunOptions(int rows, int rounds, int regions, String name, Path outDir, String args,
    Map<String, String> own) {

  /**
   * @param defaults the defaults of rows, rounds and regions, in that order
   * @param ownDefaults the runner's own options (without {@code --}) and their defaults, {@code name} among them
   */
  static SumRunOptions parse(String[] args, int[] defaults, Map<String, String> ownDefaults) throws IOException {
    int rows = defaults[0];
    int rounds = defaults[1];
    int regions = defaults[2];
    Path outDir = null;
    Map<String, String> own = new HashMap<>(ownDefaults);
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "regions" -> regions = Integer.parseInt(kv[1]);
        case "out" -> outDir = Path.of(kv[1]);
        default -> {
          if (kv.length < 2 || !own.containsKey(kv[0])) {
            throw new IllegalArgumentException("unknown option " + a + " (options: --rows, --rounds, --regions, --out, --"
                + String.join(", --", own.keySet().stream().sorted().toList()) + ")");
          }
          own.put(kv[0], kv[1]);
        }
      }
    }
    if (rows < 1 || rounds < 1 || regions < 1) {
      throw new IllegalArgumentException("--rows, --rounds and --regions must be at least 1");
    }
    return new SumRunOptions(rows, rounds, regions, own.get("name"),
        outDir == null ? RunDirectories.newRunDirectory() : outDir, String.join(" ", args), Map.copyOf(own));
  }

  /** The runner's own option {@code key}. */
  String option(String key) {
    return own.get(key);
  }

  /** Split keys cutting rows {@code r%09d} into {@link #regions()} equal ranges. */
  byte[][] splits() {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("r%09d", (long) rows * i / regions));
    }
    return splits;
  }

  /** Whether {@code value} is one of {@code allowed}. */
  static boolean oneOf(String value, String... allowed) {
    return List.of(allowed).contains(value);
  }
}
