package dev.cryptoworker.cli;

import dev.cryptoworker.cli.plan.InvalidQueryException;
import dev.cryptoworker.cli.plan.QueryFile;
import dev.cryptoworker.cli.plan.SchemaPlan;
import dev.cryptoworker.cli.plan.SchemaPlanner;
import dev.cryptoworker.cli.plan.Unservable;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.PlaintextSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cryptoworker schema plan}: Seabed's planner (docs/planner.md). */
@Command(name = "plan", mixinStandardHelpOptions = true,
    description = {"Plan a schema from a plaintext schema and sample SQL queries: per column the box that leaks"
        + " least among those answering every sample query on the servers, STD where none asks anything; a"
        + " comment above each entry says what forced it and what it leaks. Queries no box answers on the"
        + " servers are named at the end (and on standard error).",
        "Exits 1 on a malformed schema or query (file:line: reason), or with --strict when a query is unservable."})
final class SchemaPlanCommand extends Subcommand {
  @Option(names = "--schema", required = true, paramLabel = "PLAINTEXT_SCHEMA",
      description = "The table before protection: the schema YAML form with types and no boxes; columns may declare"
          + " values: [..] (low cardinality).")
  Path schema;

  @Option(names = "--queries", required = true, paramLabel = "QUERIES",
      description = "Sample SQL queries over the table, separated by ';' ('--' comments).")
  Path queries;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the planned schema here instead of standard output.")
  Path out;

  @Option(names = "--strict", description = "Exit 1 if any sample query is unservable (the plan is still written).")
  boolean strict;

  @Override
  public Integer call() throws IOException {
    SchemaPlan plan;
    try {
      plan = new SchemaPlanner(PlaintextSchema.load(schema)).plan(QueryFile.load(queries));
    } catch (InvalidSchemaException | InvalidQueryException e) {
      err().println(e.getMessage());
      return FAILED;
    }
    String yaml = "# Planned by cryptoworker schema plan from " + schema.getFileName() + " and "
        + queries.getFileName() + "\n" + plan.toYaml();
    if (out == null) {
      out().print(yaml);
      out().flush();
    } else {
      Files.writeString(out, yaml, StandardCharsets.UTF_8);
    }
    for (Unservable u : plan.unservable()) {
      err().println(u.query().where() + ": unservable: " + u.reason());
    }
    return strict && !plan.unservable().isEmpty() ? FAILED : OK;
  }
}
