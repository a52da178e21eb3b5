package dev.cryptoworker.cli;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.client.inspect.TableInspector;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.keys.KeysetKey;
import dev.cryptoworker.schema.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.TableName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cryptoworker audit}: every stored cell of a table checked against its schema and keyset. */
@Command(name = "audit", mixinStandardHelpOptions = true,
    description = {"Scan a table's raw storage (every version) and report, with counts: cells that do not"
        + " decrypt, cells under key ids the keyset does not have or has disabled, cells under keys to retire"
        + " (--retiring), and protected values, qualifier names or row keys that are not in CryptoWorker's format"
        + " (plaintext?).",
        "Resumable: a checkpoint (rows done and counts so far) in HBase every --checkpoint-every rows; run the"
            + " same command again after a crash to continue (examples found before it are not shown again).",
        "Exit 1 if any cell is in one of those classes."})
final class AuditCommand extends Subcommand {
  @Mixin ClusterOptions cluster;
  @Mixin NamedClusters namedClusters;
  @Mixin TableOptions tableOptions;

  @Option(names = "--retiring", paramLabel = "KEYID", split = ",", converter = KeysCommand.HexKeyId.class,
      description = "Key ids (hex) to retire: cells still under them are findings.")
  List<Integer> retiring = new ArrayList<>();

  @Option(names = "--show", paramLabel = "N", defaultValue = "10",
      description = "How many findings to print in full (default ${DEFAULT-VALUE}).")
  int show;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(names = "--checkpoint-every", paramLabel = "ROWS", defaultValue = "10000",
      description = "Rows between checkpoints (default ${DEFAULT-VALUE}).")
  int checkpointEvery;

  @Option(names = "--restart", description = "Start from the first row, ignoring the checkpoint of an unfinished audit.")
  boolean restart;

  /** Checkpoint counts besides the findings' (RowWalk): rows, cells, and values per key id. */
  private static final String ROWS = "rows";
  private static final String CELLS = "cells";
  private static final String KEY = "key-";

  /** The classes of findings, in the order a cell is classified. */
  enum Finding {
    PLAINTEXT("not in CryptoWorker's format (plaintext?)"),
    UNKNOWN_KEY("under a key id the keyset does not have"),
    DISABLED_KEY("under a key the keyset has disabled"),
    UNDECRYPTABLE("does not decrypt"),
    RETIRING_KEY("under a key to retire");

    final String meaning;

    Finding(String meaning) {
      this.meaning = meaning;
    }
  }

  private final Map<Finding, Long> counts = new LinkedHashMap<>();
  private final List<String> examples = new ArrayList<>();
  private final Map<Integer, Long> cellsByKey = new TreeMap<>();
  private long rows;
  private long cells;

  @Override
  public Integer call() throws Exception {
    TableSchema schema = tableOptions.schema();
    Map<Integer, KeysetKey> keyset = KeysetFiles.describe(tableOptions.keyset.keyset,
        tableOptions.kek(root().environment())).stream().collect(Collectors.toMap(KeysetKey::id, k -> k));
    Set<Integer> retire = Set.copyOf(retiring);
    for (Finding f : Finding.values()) {
      counts.put(f, 0L);
    }
    try (ClusterOptions.OpenCluster open = cluster.open(namedClusters, "audit", List.of(schema));
        SecureConnection secure = tableOptions.secure(open.clusters(), root().environment())) {
      TableInspector inspector = secure.inspector(TableName.valueOf(schema.tableName())).resolvingKeyIds(keyset.keySet());
      RowWalk walk = RowWalk.named(open.connection(), "audit/" + schema.tableName(), checkpointEvery);
      RowWalk.Checkpoint from = restart ? RowWalk.Checkpoint.start()
          : walk.load().filter(c -> !c.done()).orElse(RowWalk.Checkpoint.start());
      if (from.after() != null) {
        err().printf("resuming after %,d rows (checkpoint)%n", from.count(ROWS));
      }
      RowWalk.Checkpoint end = walk.walk(from, inspector::rows, row -> row.get(0).storedRow(), (row, walked) -> {
        walked.add(ROWS, 1);
        for (InspectedCell cell : row) {
          if (cell.kind() == InspectedCell.Kind.IN_PACK) {
            continue; // a row inside a pack: the pack is the stored cell, audited on its own
          }
          walked.add(CELLS, 1);
          Finding finding = classify(cell, keyset, retire, walked);
          if (finding != null) {
            walked.add(finding.name(), 1);
            if (examples.size() < show) {
              examples.add(finding.name() + " " + InspectCommand.column(cell) + " @" + cell.timestamp() + ": "
                  + cell.problem().orElse(finding.meaning) + keyNote(cell));
            }
          }
        }
      }, () -> { }, c -> { });
      walk.clear();
      rows = end.count(ROWS);
      cells = end.count(CELLS);
      for (Finding f : Finding.values()) {
        counts.put(f, end.count(f.name()));
      }
      end.counts().forEach((name, n) -> {
        if (name.startsWith(KEY)) {
          cellsByKey.put(Integer.parseUnsignedInt(name.substring(KEY.length()), 16), n);
        }
      });
    }
    long findings = counts.values().stream().mapToLong(Long::longValue).sum();
    if (json) {
      printJson(schema, keyset, findings);
    } else {
      printText(schema, keyset, findings);
    }
    return findings == 0 ? OK : FAILED;
  }

  /** The cell's finding, or null; counts a decrypting protected value under its key id in {@code walked}. */
  private static Finding classify(InspectedCell cell, Map<Integer, KeysetKey> keyset, Set<Integer> retire,
      RowWalk.Counts walked) {
    OptionalInt rowKey = cell.rowKeyId();
    OptionalInt qualifierKey = cell.qualifierKeyId();
    OptionalInt valueKey = cell.valueKeyId();
    boolean protectedValue = cell.valueKeyExpected();
    if ((cell.rowKeyExpected() && rowKey.isEmpty()) || (cell.hasProtectedQualifier() && qualifierKey.isEmpty())
        || (protectedValue && valueKey.isEmpty())) {
      return Finding.PLAINTEXT;
    }
    for (OptionalInt id : List.of(rowKey, qualifierKey, protectedValue ? valueKey : OptionalInt.empty())) {
      if (id.isPresent()) {
        KeysetKey key = keyset.get(id.getAsInt());
        if (key == null) {
          return Finding.UNKNOWN_KEY;
        }
        if (!key.status().equals("ENABLED")) {
          return Finding.DISABLED_KEY;
        }
      }
    }
    if (cell.problem().isPresent()) {
      return Finding.UNDECRYPTABLE;
    }
    if (protectedValue) {
      walked.add(KEY + KeysetKey.hex(valueKey.getAsInt()), 1);
    }
    if ((rowKey.isPresent() && retire.contains(rowKey.getAsInt()))
        || (qualifierKey.isPresent() && retire.contains(qualifierKey.getAsInt()))
        || (protectedValue && retire.contains(valueKey.getAsInt()))) {
      return Finding.RETIRING_KEY;
    }
    return null;
  }

  private static String keyNote(InspectedCell cell) {
    StringBuilder s = new StringBuilder();
    cell.rowKeyId().ifPresent(id -> s.append(" [row key ").append(KeysetKey.hex(id)));
    cell.qualifierKeyId().ifPresent(id -> s.append(s.length() == 0 ? " [" : ", ").append("qualifier key ")
        .append(KeysetKey.hex(id)));
    cell.valueKeyId().ifPresent(id -> s.append(s.length() == 0 ? " [" : ", ").append("value key ").append(KeysetKey.hex(id)));
    return s.length() == 0 ? "" : s.append(']').toString();
  }

  private void printText(TableSchema schema, Map<Integer, KeysetKey> keyset, long findings) {
    out().printf("audited table %s: %,d stored rows, %,d stored cells (every version)%n", schema.tableName(), rows, cells);
    for (Map.Entry<Finding, Long> e : counts.entrySet()) {
      out().printf("  %-44s %,d%n", e.getKey().meaning + ":", e.getValue());
    }
    out().println("protected values by key id:");
    if (cellsByKey.isEmpty()) {
      out().println("  (none)");
    }
    cellsByKey.forEach((id, n) -> out().printf("  %s %-9s %,d%n", KeysetKey.hex(id), describe(keyset.get(id)), n));
    if (!examples.isEmpty()) {
      out().println("findings (first " + examples.size() + "):");
      examples.forEach(e -> out().println("  " + e));
    }
    out().println(findings == 0 ? "OK: nothing found" : "FAILED: " + String.format("%,d", findings) + " finding(s)");
  }

  private void printJson(TableSchema schema, Map<Integer, KeysetKey> keyset, long findings) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("table", schema.tableName());
    document.put("rows", rows);
    document.put("cells", cells);
    Map<String, Long> byFinding = new LinkedHashMap<>();
    counts.forEach((f, n) -> byFinding.put(f.name(), n));
    document.put("findings", byFinding);
    Map<String, Object> byKey = new LinkedHashMap<>();
    cellsByKey.forEach((id, n) -> byKey.put(KeysetKey.hex(id), Map.of("status", describe(keyset.get(id)), "cells", n)));
    document.put("valuesByKey", byKey);
    document.put("examples", examples);
    document.put("ok", findings == 0);
    Json.print(out(), document);
  }

  private static String describe(KeysetKey key) {
    return key.primary() ? "primary" : key.status().toLowerCase(java.util.Locale.ROOT);
  }
}
