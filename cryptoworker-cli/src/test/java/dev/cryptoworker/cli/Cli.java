package dev.cryptoworker.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;

/** Runs {@code cryptoworker} in-process with a given environment and captured output. */
final class Cli {
  record Result(int exitCode, String out, String err) {}

  private Cli() {}

  static Result run(Map<String, String> environment, String... args) {
    CommandLine cli = CryptoworkerCommand.commandLine(new CryptoworkerCommand(environment));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exitCode = cli.execute(args);
    return new Result(exitCode, out.toString(), err.toString());
  }

  static Result run(String... args) {
    return run(Map.of(), args);
  }
}
