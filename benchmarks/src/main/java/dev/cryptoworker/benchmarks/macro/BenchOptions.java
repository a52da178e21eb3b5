package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.cryptobox.ope.OrderPreservingBox;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The main job's options ({@code --name=value}): one table, {@link #OPTIONS}, of names, defaults,
 * meanings and checks, read by the parser, the validation and {@code --help}, so the help cannot
 * drift from the code. Every value is checked here, before any server starts.
 */
final class BenchOptions {
  /** A usage error: unknown or malformed option, bad value. The message is one line naming the option. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message + "; see --help");
    }
  }

  /** One option: {@code check} returns what is wrong with a value, or null when it is fine. */
  private record Option(String name, String defaultValue, String meaning, Function<String, String> check) {}

  private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.\\-]+(:\\d{1,5})?");
  private static final Pattern FILE_PREFIX = Pattern.compile("[A-Za-z0-9._\\-]+");

  /** Where results go without {@code --out}: a new directory per run, named by its start time. */
  static final String RUNS_DIRECTORY = "benchmarks/runs";

  private static final List<Option> OPTIONS = List.of(
      new Option("workloads", "A,B,E-1,E-2,F,G,H",
          "workloads to run, comma-separated, in this order (the list is below)", BenchOptions::checkWorkloads),
      new Option("records", "3000", "records loaded into the plain and into the secure table", atLeast(1)),
      new Option("seconds", "20", "measured time per workload, as the plain side's time, split into the rounds",
          atLeast(1)),
      new Option("rounds", "4", "interleaved rounds per workload (plain first in odd rounds, secure first in even ones)",
          atLeast(1)),
      new Option("warmup", "5", "seconds the plain side runs unmeasured before the rounds, the secure side then doing"
          + " as many operations (so JIT compilation is not measured); the plain side's rate there sets the operations"
          + " per round, which both sides do; a side is stopped at 10x the round length", atLeast(1)),
      new Option("threads", "2", "client threads per side", atLeast(1)),
      new Option("zookeeper", "", "host:port of an existing cluster's ZooKeeper; empty starts an embedded HBase"
          + " (1 master, 1 region server, child JVM)", BenchOptions::checkHostPort),
      new Option("cluster", "embedded", "without --zookeeper: embedded (1 master, 1 region server, one child JVM),"
          + " processes (ZooKeeper, 1 master, 2 region servers, each its own JVM, as bin/hbase runs them, data on the"
          + " local filesystem) or hdfs (the same on HDFS: a NameNode and a DataNode, each its own JVM too)",
          oneOf("embedded", "processes", "hdfs")),
      new Option("out", "", "directory for the results; empty: a new " + RUNS_DIRECTORY + "/<yyyyMMdd-HHmmss>/;"
          + " --out=benchmarks/results refreshes the committed results", value -> null),
      new Option("name", "ycsb-macro", "file name prefix of the results (NAME.md, NAME.csv, NAME.png)",
          value -> FILE_PREFIX.matcher(value).matches() ? null : "must be a file name prefix (letters, digits, . _ -)"),
      new Option("rowkeys", "schema", "schema: the example schemas' row keys (DET); ope: OPE row keys (string ids),"
          + " so YCSB's key-range scans run on the region servers", oneOf("schema", "ope")),
      new Option("variant", "full", "full: the example schemas; micro-std, micro-det, micro-ope: Appointments with"
          + " only the row key protected (run with --workloads=micro-insert,micro-read,micro-rmw,micro-scan,micro-qrf);"
          + " packed: the example tables as PACKED (MiniCrypt, GENERIC, 50 rows per pack, ZSTD), OPE row keys, every"
          + " column STD inside the packs (run with --workloads=A,B,C,E)",
          oneOf("full", "micro-std", "micro-det", "micro-ope", "packed")),
      new Option("qef", "det", "det: the equality-filtered columns (patients identification:mainId, appointments"
          + " physician:physicianId) as in the example schemas, DET, so QEF is a filter scan on the region servers;"
          + " sse: those columns SSE, so QEF is a search of the encrypted index", oneOf("det", "sse")),
      new Option("distribution", "", "request distribution, zipfian or uniform; empty keeps the workload files' (zipfian)",
          oneOf("", "zipfian", "uniform")),
      new Option("load", "put", "put: YCSB's load phase (one client thread, one row per put); bulk: the same rows"
          + " written as HFiles sorted by stored key and loaded with HBase's bulk-load tool (SecureBulkLoad; the plain"
          + " side runs the same code without encryption); needs the embedded or processes cluster, whose region"
          + " servers see the local staging directory", oneOf("put", "bulk")),
      new Option("regions", "1", "regions each table is pre-split into: the plain table at even record ids, the secure"
          + " one with SecureConnection.uniformSplitKeys (DET row keys) or at the same ids encrypted (OPE row keys)",
          atLeast(1)),
      new Option("ope-memo", Integer.toString(OrderPreservingBox.DEFAULT_MEMO_ENTRIES),
          "OPE values the client remembers per column; 0 measures every OPE operation", atLeast(0)));

  private final Map<String, String> values;
  private final boolean help;

  private BenchOptions(Map<String, String> values, boolean help) {
    this.values = values;
    this.help = help;
  }

  /** Parses and checks {@code args}; {@code --help} or {@code -h} anywhere asks for the help and nothing else. */
  static BenchOptions parse(String... args) throws UsageException {
    Map<String, String> values = new LinkedHashMap<>();
    OPTIONS.forEach(o -> values.put(o.name(), o.defaultValue()));
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      return new BenchOptions(values, true);
    }
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 3) {
        throw new UsageException("malformed option '" + arg + "': expected --name=value");
      }
      String name = arg.substring(2, eq);
      Option option = OPTIONS.stream().filter(o -> o.name().equals(name)).findFirst()
          .orElseThrow(() -> new UsageException("unknown option --" + name));
      String value = arg.substring(eq + 1);
      String problem = option.check().apply(value);
      if (problem != null) {
        throw new UsageException("--" + name + "=" + value + ": " + problem);
      }
      values.put(name, value);
    }
    if (values.get("load").equals("bulk") && !values.get("zookeeper").isEmpty()) {
      throw new UsageException("--load=bulk stages HFiles in a local directory, which an existing cluster's region"
          + " servers (--zookeeper) may not see; use --load=put there");
    }
    return new BenchOptions(values, false);
  }

  boolean helpRequested() {
    return help;
  }

  /** The value of option {@code name} (its default when not given). */
  String get(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("no option " + name);
    }
    return value;
  }

  int integer(String name) {
    return Integer.parseInt(get(name));
  }

  List<String> workloads() {
    return List.of(get("workloads").split(","));
  }

  /** The help: every option with its default and meaning, then the workloads. */
  static String helpText() {
    StringBuilder s = new StringBuilder()
        .append("The main job: YCSB workloads on a plain and a secure (CryptoWorker) table of one HBase, interleaved,\n")
        .append("reported as secure/plain throughput, latencies and CPU time per operation (NAME.md, .csv, .png).\n\n")
        .append("Usage: ./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@ycsb"
            + " -Dbench.args=\"--name=value ...\"\n\nOptions (default in parentheses):\n");
    for (Option o : OPTIONS) {
      s.append(String.format(Locale.ROOT, "  --%s=%s%n", o.name(), o.defaultValue().isEmpty() ? "(empty)" : o.defaultValue()));
      wrap(s, o.meaning());
    }
    s.append("  --help, -h\n");
    wrap(s, "prints this help and exits");
    s.append("\nWorkloads (ycsb-ext/src/main/resources/workloads/):\n");
    WorkloadFiles.available().forEach((name, description) -> {
      s.append("  ").append(name).append('\n');
      wrap(s, description);
    });
    return s.toString();
  }

  /** Appends {@code text} indented by six spaces, in lines of at most 100 characters. */
  private static void wrap(StringBuilder s, String text) {
    StringBuilder line = new StringBuilder("     ");
    for (String word : text.split(" ")) {
      if (line.length() + 1 + word.length() > 100) {
        s.append(line).append('\n');
        line = new StringBuilder("     ");
      }
      line.append(' ').append(word);
    }
    s.append(line).append('\n');
  }

  /** Names of every option, in the order of the help. */
  static List<String> names() {
    return OPTIONS.stream().map(Option::name).toList();
  }

  private static Function<String, String> atLeast(int min) {
    String problem = "must be an integer of at least " + min;
    return value -> {
      try {
        return Integer.parseInt(value) >= min ? null : problem;
      } catch (NumberFormatException e) {
        return problem;
      }
    };
  }

  private static Function<String, String> oneOf(String... allowed) {
    Set<String> set = Set.of(allowed);
    return value -> set.contains(value) ? null
        : "must be one of " + String.join(", ", Arrays.stream(allowed).map(a -> a.isEmpty() ? "(empty)" : a).toList());
  }

  private static String checkWorkloads(String value) {
    Set<String> known = WorkloadFiles.available().keySet();
    for (String w : value.split(",", -1)) {
      if (!known.contains(w)) {
        return "no workload '" + w + "' (known: " + String.join(", ", known) + ")";
      }
    }
    return null;
  }

  private static String checkHostPort(String value) {
    if (value.isEmpty()) {
      return null;
    }
    if (!HOST_PORT.matcher(value).matches()) {
      return "must be host or host:port";
    }
    int colon = value.indexOf(':');
    int port = colon < 0 ? 2181 : Integer.parseInt(value.substring(colon + 1));
    return port >= 1 && port <= 65535 ? null : "port must be 1-65535";
  }
}
