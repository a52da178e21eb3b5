package dev.cryptoworker.cli;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.keys.KeysetKey;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.hadoop.hbase.TableName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cryptoworker inspect}: one row's stored cells beside their decrypted values. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = {"Show one row: each stored cell's column, box, key id, timestamp and decrypted value;"
        + " with --raw also the stored qualifier and value, and SSE index entries.",
        "A cell that does not decrypt is shown with the reason; exit 1 if any did not, or the row does not exist."})
final class InspectCommand extends Subcommand {
  @Mixin ClusterOptions cluster;
  @Mixin NamedClusters namedClusters;
  @Mixin TableOptions tableOptions;

  @Option(names = "--row", required = true, paramLabel = "KEY",
      description = "The row key as the application writes it (typed per the schema's rowKey: text, a decimal"
          + " number for long/int, 0x-hex for bytes).")
  String row;

  @Option(names = "--raw", description = "Also print the stored qualifier and value of each cell.")
  boolean raw;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    TableSchema schema = tableOptions.schema();
    byte[] key = ValueText.parse(schema.rowKeyPolicy().type(), row);
    List<InspectedCell> cells;
    try (ClusterOptions.OpenCluster open = cluster.open(namedClusters, "inspect", List.of(schema));
        SecureConnection secure = tableOptions.secure(open.clusters(), root().environment())) {
      // Every key of the keyset, disabled ones too, so that format-2 headers name them.
      List<Integer> keysetIds = KeysetFiles.describe(tableOptions.keyset.keyset, tableOptions.kek(root().environment()))
          .stream().map(KeysetKey::id).toList();
      cells = secure.inspector(TableName.valueOf(schema.tableName())).resolvingKeyIds(keysetIds).row(key);
    }
    if (cells.isEmpty()) {
      err().println("cryptoworker: table " + schema.tableName() + " has no row " + row);
      return FAILED;
    }
    long problems = cells.stream().filter(c -> c.problem().isPresent()).count();
    if (json) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("table", schema.tableName());
      document.put("row", row);
      document.put("rowKeyBox", schema.rowKeyPolicy().box().name());
      document.put("rowKeyId", keyId(cells.get(0).rowKeyId()));
      document.put("storedRow", ValueText.hex(cells.get(0).storedRow()));
      List<Map<String, Object>> out = new ArrayList<>();
      for (InspectedCell cell : cells) {
        if (cell.kind() == InspectedCell.Kind.VALUE || raw) {
          out.add(describe(cell));
        }
      }
      document.put("cells", out);
      Json.print(out(), document);
    } else {
      print(schema, cells);
    }
    return problems == 0 ? OK : FAILED;
  }

  private void print(TableSchema schema, List<InspectedCell> cells) {
    out().printf("table %s, row %s: row key %s, key id %s%n", schema.tableName(), row,
        schema.rowKeyPolicy().box(), keyIdText(cells.get(0).rowKeyId()));
    if (raw) {
      out().printf("  stored row key %s%n", ValueText.hex(cells.get(0).storedRow()));
    }
    for (InspectedCell cell : cells) {
      if (cell.kind() == InspectedCell.Kind.SEARCH_INDEX_ENTRY && !raw) {
        continue;
      }
      String box = cell.box().map(BoxKind::name).orElse("?");
      String what = switch (cell.kind()) {
        case SEARCH_INDEX_ENTRY -> "search index entry";
        case VALUE, IN_PACK -> valueText(cell);
        // A stored unit that holds part of a value (a share) says what it decodes to with the others.
        default -> cell.kind() + cell.note().map(n -> ": " + n).orElse("")
            + (cell.value().isPresent() ? ", decodes to " + valueText(cell) : "");
      } + cell.cluster().map(c -> " (cluster " + c + ")").orElse("");
      out().printf("  %-32s %-8s key %-8s @%d  %s%n", column(cell), box, keyIdText(cell.valueKeyId()),
          cell.timestamp(), cell.problem().map(p -> "DOES NOT DECRYPT: " + p).orElse(what));
      if (raw) {
        out().printf("      stored qualifier %s, value %s (%d bytes)%n", ValueText.hex(cell.storedQualifier()),
            ValueText.hex(cell.storedValue()), cell.storedValue().length);
      }
    }
  }

  private static Map<String, Object> describe(InspectedCell cell) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", cell.kind().name());
    out.put("column", column(cell));
    out.put("box", cell.box().map(BoxKind::name).orElse(null));
    out.put("keyId", keyId(cell.valueKeyId()));
    out.put("timestamp", cell.timestamp());
    out.put("value", (cell.kind() == InspectedCell.Kind.VALUE || cell.kind() == InspectedCell.Kind.IN_PACK
        || cell.value().isPresent()) && cell.problem().isEmpty() ? valueText(cell) : null);
    out.put("problem", cell.problem().orElse(null));
    out.put("note", cell.note().orElse(null));
    out.put("cluster", cell.cluster().orElse(null));
    out.put("storedQualifier", ValueText.hex(cell.storedQualifier()));
    out.put("storedValue", ValueText.hex(cell.storedValue()));
    return out;
  }

  /** {@code family:qualifier}, the qualifier as stored (hex) when it did not decode. */
  static String column(InspectedCell cell) {
    String family = new String(cell.family(), StandardCharsets.UTF_8);
    return family + ":" + cell.qualifier().map(q -> new String(q, StandardCharsets.UTF_8))
        .orElse(ValueText.hex(cell.storedQualifier()));
  }

  private static String valueText(InspectedCell cell) {
    ValueType type = cell.policy().map(ColumnPolicy::type).orElse(ValueType.BYTES);
    return cell.value().map(v -> ValueText.format(type, v)).orElse("");
  }

  private static String keyId(OptionalInt id) {
    return id.isPresent() ? KeysetKey.hex(id.getAsInt()) : null;
  }

  private static String keyIdText(OptionalInt id) {
    return id.isPresent() ? KeysetKey.hex(id.getAsInt()) : "-";
  }
}
