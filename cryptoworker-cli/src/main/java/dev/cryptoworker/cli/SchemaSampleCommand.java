package dev.cryptoworker.cli;

import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.PlaintextSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.RandomRowFilter;
import org.apache.hadoop.hbase.util.Bytes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cryptoworker schema sample}: counts the values of low-cardinality columns in a table before
 * protection, and prints their {@code values} and {@code rows} entries for the plaintext schema the
 * planner reads (docs/planner.md). The rows counted are all, or a random fraction the region
 * servers pick ({@link RandomRowFilter}); only the two columns' values travel.
 */
@Command(name = "sample", mixinStandardHelpOptions = true,
    description = {"Count the values of low-cardinality columns in a plain table (before protection) and print"
        + " each column's plaintext-schema entry with values: [..] and rows: {..}, for schema plan: the"
        + " rows per value let it propose enhanced SPLASHE for skewed dimensions.",
        "Exits 1 when a column has more distinct values than --max-values, or holds a value that is not text."})
final class SchemaSampleCommand extends Subcommand {
  @Mixin ClusterOptions cluster;

  @Option(names = "--schema", required = true, paramLabel = "PLAINTEXT_SCHEMA",
      description = "The table before protection (schema plan's input); its table is the one read.")
  Path schema;

  @Option(names = "--column", paramLabel = "FAMILY:QUALIFIER",
      description = "A column to count (repeatable). Default: every column that declares values: [..].")
  List<String> columns;

  @Option(names = "--fraction", paramLabel = "F", defaultValue = "1",
      description = "The share of rows to count, picked at random by the region servers (0 < F <= 1;"
          + " default: ${DEFAULT-VALUE}, every row).")
  double fraction;

  @Option(names = "--max-values", paramLabel = "N", defaultValue = "64",
      description = "Refuse a column with more distinct values than this (default: ${DEFAULT-VALUE}).")
  int maxValues;

  /** One column's counts. */
  private record Counted(FamilySchema family, String qualifier, Map<String, Long> rows) {}

  @Override
  public Integer call() throws IOException {
    PlaintextSchema plaintext;
    try {
      plaintext = PlaintextSchema.load(schema);
    } catch (InvalidSchemaException e) {
      err().println(e.getMessage());
      return FAILED;
    }
    String table = plaintext.table().tableName();
    if (!(fraction > 0 && fraction <= 1)) {
      err().println("--fraction " + fraction + ": must be above 0 and at most 1");
      return FAILED;
    }
    List<Counted> counted = new ArrayList<>();
    for (String column : columns == null ? declaringValues(plaintext) : columns) {
      int colon = column.indexOf(':');
      FamilySchema family = colon < 0 ? null : plaintext.table().family(column.substring(0, colon)).orElse(null);
      if (family == null || !family.columns().containsKey(column.substring(colon + 1))) {
        err().println("table " + table + ": column " + column + " is not listed in " + schema.getFileName()
            + " (expected FAMILY:QUALIFIER of a listed column)");
        return FAILED;
      }
      counted.add(new Counted(family, column.substring(colon + 1), new HashMap<>()));
    }
    if (counted.isEmpty()) {
      err().println("table " + table + ": no column declares values: [..] in " + schema.getFileName()
          + "; name the columns to count with --column FAMILY:QUALIFIER");
      return FAILED;
    }
    try (ClusterOptions.OpenCluster open = cluster.open()) {
      try (Admin admin = open.connection().getAdmin()) {
        if (!admin.tableExists(TableName.valueOf(table))) {
          err().println("table " + table + " does not exist on this cluster (the plain table the schema describes)");
          return FAILED;
        }
      }
      try (Table t = open.connection().getTable(TableName.valueOf(table))) {
        count(t, table, counted);
      }
    } catch (SampleRefused e) {
      err().println(e.getMessage());
      return FAILED;
    }
    String share = fraction == 1 ? "in every row" : String.format(Locale.ROOT, "in a random %s of the rows", fraction);
    for (Counted c : counted) {
      long holding = c.rows().values().stream().mapToLong(Long::longValue).sum();
      out().printf(Locale.ROOT, "# %s:%s: %,d rows hold a value, %s%n", c.family().name(), c.qualifier(), holding,
          share);
      out().println(entry(c));
    }
    out().flush();
    return OK;
  }

  private static List<String> declaringValues(PlaintextSchema plaintext) {
    List<String> out = new ArrayList<>();
    for (FamilySchema f : plaintext.table().families().values()) {
      for (String q : f.columns().keySet()) {
        if (plaintext.declaredValues(f.name(), q).isPresent()) {
          out.add(f.name() + ":" + q);
        }
      }
    }
    return out;
  }

  /** Counts the columns' values in the rows read. */
  private void count(Table t, String table, List<Counted> counted) throws IOException {
    Scan scan = new Scan().setCaching(1000);
    for (Counted c : counted) {
      scan.addColumn(Bytes.toBytes(c.family().name()), Bytes.toBytes(c.qualifier()));
    }
    if (fraction < 1) {
      scan.setFilter(new RandomRowFilter((float) fraction));
    }
    long read = 0;
    try (ResultScanner rows = t.getScanner(scan)) {
      for (Result r = rows.next(); r != null; r = rows.next()) {
        read++;
        for (Counted c : counted) {
          byte[] value = r.getValue(Bytes.toBytes(c.family().name()), Bytes.toBytes(c.qualifier()));
          if (value != null) {
            c.rows().merge(text(table, c, value), 1L, Long::sum);
            if (c.rows().size() > maxValues) {
              throw new SampleRefused("table " + table + ", column " + c.family().name() + ":" + c.qualifier()
                  + ": more than " + maxValues + " distinct values in the first " + read + " rows read: not a"
                  + " low-cardinality column (raise --max-values if it is one)");
            }
          }
        }
      }
    }
  }

  /** A value as SPLASHE declares it: its UTF-8 text, without NUL. */
  private static String text(String table, Counted c, byte[] value) {
    try {
      String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
      if (text.indexOf('\0') < 0) {
        return text;
      }
    } catch (CharacterCodingException e) {
      // refused below
    }
    throw new SampleRefused("table " + table + ", column " + c.family().name() + ":" + c.qualifier()
        + ": holds a value that is not UTF-8 text without NUL, which a SPLASHE dimension cannot declare");
  }

  /** The column's plaintext-schema entry: its type, its values commonest first, and their rows. */
  private static String entry(Counted c) {
    List<Map.Entry<String, Long>> commonestFirst = new ArrayList<>(c.rows().entrySet());
    commonestFirst.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    Map<String, Long> ordered = new LinkedHashMap<>();
    commonestFirst.forEach(e -> ordered.put(e.getKey(), e.getValue()));
    return PlaintextSchema.columnEntry(c.qualifier(), c.family().columns().get(c.qualifier()).type(), ordered);
  }

  /** A count refused: too many values, or a value no dimension can declare. */
  private static final class SampleRefused extends RuntimeException {
    SampleRefused(String message) {
      super(message);
    }
  }
}
