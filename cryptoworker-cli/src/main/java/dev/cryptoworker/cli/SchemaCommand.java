package dev.cryptoworker.cli;

import dev.cryptoworker.cli.SchemaTargets.Setting;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.UnlistedFamilies;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cryptoworker schema ...}: table schema files. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = "Check, show, compare and plan table schema files (YAML), and sample a plain table's values for"
        + " the planner.",
    subcommands = {SchemaCommand.Check.class, SchemaCommand.Show.class, SchemaCommand.Diff.class,
        SchemaPlanCommand.class, SchemaSampleCommand.class})
final class SchemaCommand {

  private SchemaCommand() {}

  @Command(name = "check", mixinStandardHelpOptions = true,
      description = {"Load and validate each schema file: prints FILE: ok, or file:line: path:"
          + " reason.", "Exits 1 if any file is refused."})
  static final class Check extends Subcommand {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Schema files.")
    List<Path> files;

    @Override
    public Integer call() {
      boolean failed = false;
      for (Path file : files) {
        try {
          TableSchema.load(file);
          out().println(file + ": ok");
        } catch (InvalidSchemaException e) {
          err().println(e.getMessage());
          failed = true;
        } catch (IOException e) {
          err().println(file + ": cannot read: " + e);
          failed = true;
        }
      }
      return failed ? FAILED : OK;
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true,
      description = "The effective policy of the row key, each family default, each listed column"
          + " and each family's qualifier names, and what the server learns under it.")
  static final class Show extends Subcommand {
    @Parameters(paramLabel = "FILE", description = "Schema file.")
    Path file;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      TableSchema schema = TableSchema.load(file);
      List<Map<String, Object>> entries = new ArrayList<>();
      for (Map.Entry<String, Setting> target : SchemaTargets.of(schema).entrySet()) {
        Setting setting = target.getValue();
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("target", target.getKey());
        putPolicy(entry, setting);
        entry.put("serverLearns",
            setting.serverLearns(target.getKey().equals(SchemaTargets.ROW_KEY)));
        entries.add(entry);
      }
      if (json) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("table", schema.tableName());
        document.put("source", schema.source());
        document.put("entries", entries);
        document.put("unlistedFamilies", unlisted(schema));
        document.put("alwaysLearns", Leakage.ALWAYS);
        Json.print(out(), document);
        return OK;
      }
      out().println("table " + schema.tableName() + " (" + schema.source() + ")");
      for (Map<String, Object> entry : entries) {
        out().println(entry.get("target") + ": " + entry.get("policy"));
        out().println("    server learns: " + entry.get("serverLearns"));
      }
      out().println("families not listed: " + unlisted(schema));
      out().println("for every table the server learns: " + Leakage.ALWAYS);
      return OK;
    }

    /** What clients do with families the schema does not list ({@code unlistedFamilies}). */
    private static String unlisted(TableSchema schema) {
      return schema.unlistedFamilies() == UnlistedFamilies.PLAIN
          ? "PLAIN, stored as they are (server learns everything in them)"
          : "REFUSE, a client refuses their cells";
    }

    private static void putPolicy(Map<String, Object> entry, Setting setting) {
      entry.put("policy", setting.describe());
      ColumnPolicy policy = setting.policy();
      if (policy == null) {
        entry.put("protectQualifiers", setting.protectQualifiers());
        return;
      }
      entry.put("box", policy.box().name());
      entry.put("type", policy.type().yamlName());
      entry.put("companion", policy.companion().map(BoxKind::name).orElse(null));
      if (!policy.values().isEmpty() || !policy.splays().isEmpty()) {
        entry.put("values", policy.values());
        entry.put("splays", policy.splays());
      }
    }
  }

  @Command(name = "diff", mixinStandardHelpOptions = true,
      description = {"The policies that differ between two versions of a table's schema, each"
          + " with whether existing data needs re-encryption (a change of box, type, companion,"
          + " SPLASHE values or splays, protectQualifiers, table name, or of the key a column"
          + " uses: moving between its family default and its own entry changes its key).",
          "Families added or removed are listed too. Exits 0 whether or not they differ."})
  static final class Diff extends Subcommand {
    @Parameters(index = "0", paramLabel = "OLD", description = "The schema the data was written with.")
    Path oldFile;

    @Parameters(index = "1", paramLabel = "NEW", description = "The new schema.")
    Path newFile;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      List<Map<String, Object>> changes = changes(TableSchema.load(oldFile), TableSchema.load(newFile));
      if (json) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("old", oldFile.toString());
        document.put("new", newFile.toString());
        document.put("changes", changes);
        Json.print(out(), document);
        return OK;
      }
      if (changes.isEmpty()) {
        out().println("no differences");
      }
      for (Map<String, Object> change : changes) {
        boolean reencrypt = Boolean.TRUE.equals(change.get("needsReencryption"));
        out().println(change.get("target") + ": " + change.get("old") + " -> " + change.get("new")
            + "  (" + (reencrypt ? "needs re-encryption: " : "") + change.get("reason") + ")");
      }
      return OK;
    }

    static List<Map<String, Object>> changes(TableSchema before, TableSchema after) {
      List<Map<String, Object>> changes = new ArrayList<>();
      if (!before.tableName().equals(after.tableName())) {
        changes.add(change("table name", before.tableName(), after.tableName(),
            "every key is derived with the table name"));
      }
      if (before.unlistedFamilies() != after.unlistedFamilies()) {
        // No stored cell changes form: only what clients accept in families the schemas do not list.
        Map<String, Object> change = change("families not listed", before.unlistedFamilies().name(),
            after.unlistedFamilies().name(),
            "clients " + (after.unlistedFamilies() == UnlistedFamilies.PLAIN ? "store them unprotected" : "refuse them"));
        change.put("needsReencryption", false);
        changes.add(change);
      }
      Set<String> families = new LinkedHashSet<>(before.families().keySet());
      families.addAll(after.families().keySet());
      for (String family : families) {
        boolean was = before.family(family).isPresent();
        boolean is = after.family(family).isPresent();
        if (was != is) {
          Map<String, Object> change = new LinkedHashMap<>();
          change.put("target", "family " + family);
          change.put("old", was ? "present" : "absent");
          change.put("new", is ? "present" : "absent");
          change.put("needsReencryption", false);
          change.put("reason", is ? "added" : "removed: its data is no longer described");
          changes.add(change);
        }
      }
      Map<String, Setting> old = SchemaTargets.shared(before, after);
      Map<String, Setting> now = SchemaTargets.shared(after, before);
      for (Map.Entry<String, Setting> target : old.entrySet()) {
        Setting a = target.getValue();
        Setting b = now.get(target.getKey());
        if (!a.equals(b)) {
          changes.add(change(target.getKey(), a.describe(), b.describe(), reason(a, b)));
        }
      }
      return changes;
    }

    private static String reason(Setting a, Setting b) {
      List<String> reasons = new ArrayList<>();
      ColumnPolicy p = a.policy();
      ColumnPolicy q = b.policy();
      if (p == null) {
        reasons.add("protectQualifiers changed");
      } else {
        if (p.box() != q.box()) {
          reasons.add("box " + p.box() + " -> " + q.box());
        }
        if (p.type() != q.type()) {
          reasons.add("type " + p.type().yamlName() + " -> " + q.type().yamlName());
        }
        if (!p.companion().equals(q.companion())) {
          reasons.add("companion changed");
        }
        if (!p.values().equals(q.values()) || !p.splays().equals(q.splays())) {
          reasons.add("SPLASHE values or splays changed");
        }
      }
      if (!Objects.equals(a.keyScope(), b.keyScope())) {
        reasons.add("key changes: " + scope(a) + " -> " + scope(b));
      }
      return String.join("; ", reasons);
    }

    private static String scope(Setting setting) {
      return setting.keyScope().endsWith(":*") ? "family default's key" : "its own key";
    }

    private static Map<String, Object> change(
        String target, String before, String after, String reason) {
      Map<String, Object> change = new LinkedHashMap<>();
      change.put("target", target);
      change.put("old", before);
      change.put("new", after);
      change.put("needsReencryption", true);
      change.put("reason", reason);
      return change;
    }
  }
}
