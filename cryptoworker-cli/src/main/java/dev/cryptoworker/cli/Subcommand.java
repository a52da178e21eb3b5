package dev.cryptoworker.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A runnable subcommand: its output streams and the root command's environment. */
abstract class Subcommand implements Callable<Integer> {
  static final int OK = CommandLine.ExitCode.OK;
  static final int FAILED = CommandLine.ExitCode.SOFTWARE;

  @Spec CommandSpec spec;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  CryptoworkerCommand root() {
    return (CryptoworkerCommand) spec.root().userObject();
  }
}
