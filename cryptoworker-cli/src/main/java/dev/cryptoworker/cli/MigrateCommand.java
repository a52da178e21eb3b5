package dev.cryptoworker.cli;

import dev.cryptoworker.client.StorageLayouts;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.migrate.TableMigration;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cryptoworker migrate}: online, resumable re-encryption of a table to a new schema or key. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
    description = {"Re-encrypt a table's stored cells from --from's schema to --to's (and with --rekey every protected"
        + " value under the keyset's primary key), online: applications keep reading and writing through a"
        + " SecureConnection built with migratingFrom(OLD schema).",
        "Resumable: a checkpoint in HBase every --checkpoint-every rows; run the same command again after a crash to"
            + " continue. Idempotent: cells already in the new form are skipped.",
        "Exit 1 if any row failed (listed; run again to retry them)."})
final class MigrateCommand extends Subcommand {
  @Mixin ClusterOptions cluster;
  @Mixin NamedClusters namedClusters;
  @Mixin KeysetOptions keyset;

  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "The table.")
  String table;

  @Option(names = "--from", required = true, paramLabel = "OLD.yaml", description = "The schema the data is stored under.")
  Path from;

  @Option(names = "--to", paramLabel = "NEW.yaml",
      description = "The schema to move to (default: --from, for --rekey alone).")
  Path to;

  @Option(names = "--rekey", description = "Re-encrypt every protected value not under the keyset's primary key.")
  boolean rekey;

  @Option(names = "--checkpoint-every", paramLabel = "ROWS", defaultValue = "1000",
      description = "Rows between checkpoints (default ${DEFAULT-VALUE}).")
  int checkpointEvery;

  @Option(names = "--max-rows-per-second", paramLabel = "RATE", defaultValue = "0",
      description = "Limit the load on the cluster (default ${DEFAULT-VALUE}: no limit).")
  double maxRowsPerSecond;

  @Option(names = "--cleanup-delay", paramLabel = "SECONDS", defaultValue = "120",
      description = "When rows move to new stored keys: seconds between copying the last row and deleting the old"
          + " forms, so that scans already running find every row (default ${DEFAULT-VALUE}).")
  long cleanupDelaySeconds;

  @Option(names = "--restart", description = "Start from the first row, ignoring the checkpoint (and a finished run).")
  boolean restart;

  @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Show a progress bar with rate and ETA on stderr (default); --no-progress hides it.")
  boolean progress;

  @Option(names = "--json", description = "Print the final counts as JSON.")
  boolean json;

  @Option(names = "--legacy-key-check", description = {"The table predates key checks that bind its stored format"
      + " (its descriptor has none, or one of version 1): open it anyway, and give it a current check. Only for a"
      + " table known to be that old: a server could strip a newer table's descriptor to look so."})
  boolean legacyKeyCheck;

  @Option(names = "--prepare-only", description = {"Only give the table what the new schema needs on the region"
      + " servers (for SSE: the observer, the search attribute, the counter table; regions reopen once), then stop:"
      + " the first step of an online migration, before clients open the table with the new schema."})
  boolean prepareOnly;

  @Override
  public Integer call() throws Exception {
    TableSchema old = TableSchema.load(from);
    TableSchema target = to == null ? old : TableSchema.load(to);
    for (TableSchema s : new TableSchema[] {old, target}) {
      if (!s.tableName().equals(table)) {
        throw new IllegalArgumentException(s.source() + " describes table " + s.tableName() + ", not --table " + table);
      }
    }
    for (TableSchema s : new TableSchema[] {old, target}) {
      try {
        LayoutCapability.MIGRATION.require(StorageLayouts.of(s.layout()), s.layout(), table, "cryptoworker migrate");
      } catch (UnsupportedSecureOperationException e) {
        throw new IllegalArgumentException(e.getMessage() + " (" + s.source() + "); copy the table into a new one"
            + " instead: cryptoworker copy (docs/operations.md, Copying into a new table)", e);
      }
    }
    KeyProvider keys = KeyProvider.fromKeysetFile(keyset.keyset, keyset.keyEncryptionKey(root().environment()));
    try (ClusterOptions.OpenCluster open = cluster.open(namedClusters, "migrate", List.of(old, target))) {
      TableMigration.Builder builder = TableMigration.builder().keys(keys).from(old).to(target).rekey(rekey)
          .checkpointEvery(checkpointEvery).maxRowsPerSecond(maxRowsPerSecond)
          .cleanupDelay(Duration.ofSeconds(cleanupDelaySeconds)).legacyKeyCheck(legacyKeyCheck);
      open.clusters().forEach(builder::cluster);
      TableMigration migration = builder.build();
      if (prepareOnly) {
        migration.prepare();
        out().println("prepared table " + table + " for " + target.source() + ": clients may now open it with that"
            + " schema and migratingFrom(" + old.source() + "); then run this command without --prepare-only");
        return OK;
      }
      err().println("migrating table " + table + " (migration " + migration.id() + "): " + migration.describe());
      TableMigration.Counts start = restart ? null : migration.checkpoint().orElse(null);
      if (start != null && !start.done()) {
        err().printf("resuming after %,d rows (checkpoint)%n", start.rowsRead());
      }
      long started = System.nanoTime();
      TableMigration.Counts counts;
      if (progress && (start == null || !start.done())) {
        try (ProgressBar bar = bar(migration.countRows(), start)) {
          counts = migration.run(restart, c -> bar.stepTo(c.rowsRead()));
        }
        err().println();
      } else {
        counts = migration.run(restart, c -> { });
      }
      report(counts, (System.nanoTime() - started) / 1e9, migration);
      return counts.rowsFailed() == 0 ? OK : FAILED;
    }
  }

  private ProgressBar bar(long rows, TableMigration.Counts start) {
    ProgressBarBuilder builder = new ProgressBarBuilder().setTaskName("migrate " + table)
        .setInitialMax(Math.max(rows, start == null ? 0 : start.rowsRead())).setStyle(ProgressBarStyle.ASCII)
        .setUnit(" rows", 1).showSpeed().setUpdateIntervalMillis(500)
        .setConsumer(new DelegatingProgressBarConsumer(line -> {
          err().print("\r" + line);
          err().flush();
        }, 100));
    if (start != null) {
      builder.startsFrom(start.rowsRead(), Duration.ZERO);
    }
    return builder.build();
  }

  private void report(TableMigration.Counts counts, double seconds, TableMigration migration) {
    if (json) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("table", table);
      document.put("migration", migration.id());
      document.put("rowsRead", counts.rowsRead());
      document.put("rowsRewritten", counts.rowsRewritten());
      document.put("rowsSkipped", counts.rowsSkipped());
      document.put("rowsFailed", counts.rowsFailed());
      document.put("oldRowsDeleted", counts.oldRowsDeleted());
      document.put("done", counts.done());
      document.put("failures", migration.failures());
      Json.print(out(), document);
    } else {
      out().printf("%s table %s: rows read %,d, rewritten %,d, skipped (already in the new form) %,d, failed %,d"
              + "%s (%.1f s this run)%n", counts.done() ? "migrated" : "stopped", table, counts.rowsRead(),
          counts.rowsRewritten(), counts.rowsSkipped(), counts.rowsFailed(),
          counts.oldRowsDeleted() > 0 ? String.format(", old forms of moved rows deleted %,d", counts.oldRowsDeleted()) : "",
          seconds);
      migration.failures().forEach(f -> out().println("  failed: " + f));
    }
  }
}
