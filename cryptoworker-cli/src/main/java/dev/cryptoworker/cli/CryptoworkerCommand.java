package dev.cryptoworker.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import java.util.Objects;
import picocli.AutoComplete.GenerateCompletion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/**
 * {@code cryptoworker}: the operator's command line. Exit codes: 0 ok, 1 failed, 2 usage error.
 * Expected failures print one line to stderr; {@code --verbose} adds the stack trace.
 */
@Command(
    name = "cryptoworker",
    mixinStandardHelpOptions = true,
    versionProvider = CryptoworkerCommand.Version.class,
    description = "CryptoWorker's operator command line: keyset files, table schemas, and the stored cells of"
        + " protected tables (inspect, audit, migrate, search-index, recount), and the benchmark (bench).",
    subcommands = {KeysCommand.class, SchemaCommand.class, InspectCommand.class, AuditCommand.class,
        MigrateCommand.class, CopyCommand.class, SearchIndexCommand.class, RecountCommand.class, BenchCommand.class,
        GenerateCompletion.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:ok", "1:failed (one line on stderr; --verbose for the stack trace)",
        "2:usage error"})
public final class CryptoworkerCommand {

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "On failure, print the stack trace too.")
  boolean verbose;

  private final Map<String, String> environment;

  /** A command reading the process environment. */
  public CryptoworkerCommand() {
    this(System.getenv());
  }

  /** A command reading {@code environment} instead of the process's (for tests and embedding). */
  public CryptoworkerCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
  }

  Map<String, String> environment() {
    return environment;
  }

  /** The command line of {@code command}, with the failure handling of {@link #main}. */
  public static CommandLine commandLine(CryptoworkerCommand command) {
    return new CommandLine(command).setExecutionExceptionHandler(new OneLineFailures());
  }

  public static void main(String[] args) {
    System.exit(commandLine(new CryptoworkerCommand()).execute(args));
  }

  /** Prints a failure as one line (the stack trace with {@code --verbose}) and exits 1. */
  static final class OneLineFailures implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
      command.getErr().println("cryptoworker: " + describe(e));
      if (verbose(parsed)) {
        e.printStackTrace(command.getErr());
      }
      command.getErr().flush();
      return CommandLine.ExitCode.SOFTWARE;
    }

    private static String describe(Throwable e) {
      String message = e.getMessage();
      // The file system's exceptions carry only the path.
      if (e instanceof NoSuchFileException) {
        return "no such file: " + message;
      }
      if (e instanceof FileAlreadyExistsException) {
        return "file already exists (never overwritten): " + message;
      }
      if (e instanceof AccessDeniedException) {
        return "permission denied: " + message;
      }
      return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    private static boolean verbose(ParseResult parsed) {
      for (ParseResult p = parsed; p != null; p = p.subcommand()) {
        if (p.hasMatchedOption("--verbose")) {
          return true;
        }
      }
      return false;
    }
  }

  /** The version from the jar's manifest. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = CryptoworkerCommand.class.getPackage().getImplementationVersion();
      return new String[] {"cryptoworker " + (version == null ? "(development build)" : version)};
    }
  }
}
