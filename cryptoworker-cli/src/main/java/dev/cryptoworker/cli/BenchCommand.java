package dev.cryptoworker.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** {@code cryptoworker bench}: the main job, the README's first command, with the same options. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Run the main job (YCSB: plain HBase beside CryptoWorker on one embedded HBase, or a cluster with"
        + " --zookeeper=HOST:PORT) with its own options, for example: cryptoworker bench --records=1000 --workloads=A,B",
        "It runs the README's main command from the CryptoWorker checkout (Maven wrapper: it builds what is missing);"
            + " `cryptoworker bench -- --help` lists the job's options."})
final class BenchCommand extends Subcommand {
  /** The README's main command, before its options. */
  static final List<String> MAIN_JOB = List.of("-q", "-DskipTests", "-pl", "benchmarks", "-am", "package",
      "exec:exec@ycsb");

  @Option(names = "--home", paramLabel = "DIR",
      description = "The CryptoWorker checkout (default: where ./cryptoworker runs from).")
  Path home;

  @Option(names = "--dry-run", description = "Print the command instead of running it.")
  boolean dryRun;

  /** The main job's options (--name=value): not this command's, so picocli leaves them here unchanged. */
  @Unmatched List<String> options = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Path checkout = home != null ? home : Paths.get(System.getProperty("cryptoworker.home", "."));
    Path wrapper = checkout.resolve("mvnw");
    List<String> command = command(wrapper, options);
    if (dryRun) {
      out().println(String.join(" ", command));
      return OK;
    }
    if (!Files.isExecutable(wrapper)) {
      throw new IllegalStateException(wrapper + " is not an executable Maven wrapper: run bench from a CryptoWorker"
          + " checkout (./cryptoworker sets it) or pass --home DIR");
    }
    Process job = new ProcessBuilder(command).directory(checkout.toFile()).inheritIO().start();
    return job.waitFor();
  }

  static List<String> command(Path wrapper, List<String> options) {
    List<String> command = new ArrayList<>();
    command.add(wrapper.toString());
    command.addAll(MAIN_JOB);
    if (!options.isEmpty()) {
      command.add("-Dbench.args=" + String.join(" ", options));
    }
    return command;
  }
}
