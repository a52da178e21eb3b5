package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cli.plan.QueryFile;
import dev.cryptoworker.cli.plan.SchemaPlanner;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.PlaintextSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code schema sample} on a plain table of the shared cluster, and its output planned. */
@ExtendWith(SharedHBaseCluster.class)
class SchemaSampleCommandTest {
  private static final Path ADS = Path.of("src", "test", "resources", "plan", "ads-plaintext.yaml");
  private static final byte[] E = Bytes.toBytes("e");
  private static final String COUNTRY_ENTRY = "country:     { type: string, values: [FR, DE, US, GB, ES] }";
  /** 1,000 rows: FR 610, US 310, DE 40, GB 30, ES 10; every 10th row has no country. */
  private static final List<String> COUNTRIES = List.of("FR", "US", "DE", "GB", "ES");
  private static final List<Integer> SHARES = List.of(61, 31, 4, 3, 1);

  @TempDir Path dir;

  private String table;
  private Path schema;
  private String zookeeper;
  private final Map<String, Long> oracle = new LinkedHashMap<>();

  private void setUp(Connection hbase, Configuration conf, String plaintextSchema) throws Exception {
    table = SharedHBaseCluster.uniqueTableName("sample").getNameAsString();
    schema = dir.resolve("plaintext.yaml");
    Files.writeString(schema, plaintextSchema.replace("table: ads", "table: " + table));
    zookeeper = conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort");
    try (Admin admin = hbase.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(table))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("a")).setColumnFamily(ColumnFamilyDescriptorBuilder.of(E))
          .build());
    }
    List<String> countries = new ArrayList<>();
    for (int c = 0; c < COUNTRIES.size(); c++) {
      countries.addAll(Collections.nCopies(SHARES.get(c) * 10, COUNTRIES.get(c)));
    }
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < countries.size(); i++) {
      Put p = new Put(Bytes.toBytes(String.format("20240101#%05d", i)))
          .addColumn(E, Bytes.toBytes("revenue"), Bytes.toBytes((long) i))
          .addColumn(E, Bytes.toBytes("device"), Bytes.toBytes(i % 3 == 0 ? "tablet" : "mobile"));
      if (i % 10 != 9) {
        p.addColumn(E, Bytes.toBytes("country"), Bytes.toBytes(countries.get(i)));
        oracle.merge(countries.get(i), 1L, Long::sum);
      }
      puts.add(p);
    }
    try (Table t = hbase.getTable(TableName.valueOf(table))) {
      t.put(puts);
    }
  }

  private Cli.Result sample(String... args) {
    List<String> full = new ArrayList<>(List.of("schema", "sample", "--zookeeper", zookeeper, "--schema",
        schema.toString()));
    full.addAll(List.of(args));
    return Cli.run(full.toArray(new String[0]));
  }

  @Test
  void countsEveryValueAndThePlannerMakesTheSkewedDimensionEnhancedSplashe(Connection hbase, Configuration conf)
      throws Exception {
    String ads = Files.readString(ADS);
    setUp(hbase, conf, ads.replace(COUNTRY_ENTRY, "country:     { type: string }"));
    Cli.Result result = sample("--column", "e:country");
    assertEquals(0, result.exitCode(), result.err());
    assertTrue(result.out().startsWith("# e:country: 900 rows hold a value, in every row\n"), result.out());
    String entry = result.out().lines().filter(l -> l.startsWith("country:")).findFirst().orElseThrow();
    assertEquals("country: { type: string, values: [FR, US, DE, GB, ES], rows: { FR: 549, US: 279, DE: 36, GB: 27,"
        + " ES: 9 } }", entry);

    PlaintextSchema sampled = PlaintextSchema.parse(ads.replace(COUNTRY_ENTRY, entry), "sampled.yaml");
    assertEquals(oracle, Map.copyOf(sampled.declaredRows("e", "country").orElseThrow()));
    ColumnPolicy country = new SchemaPlanner(sampled)
        .plan(QueryFile.load(Path.of("src", "test", "resources", "plan", "ads-queries.sql")))
        .schema().family("e").orElseThrow().columns().get("country");
    assertEquals(BoxKind.SPLASHE, country.box());
    assertEquals(List.of("FR", "US"), country.frequent());
  }

  @Test
  void aFractionCountsSomeRowsAndDefaultsToTheColumnsDeclaringValues(Connection hbase, Configuration conf)
      throws Exception {
    setUp(hbase, conf, Files.readString(ADS));
    Cli.Result result = sample("--fraction", "0.5");
    assertEquals(0, result.exitCode(), result.err());
    Matcher m = Pattern.compile("# e:country: ([0-9,]+) rows hold a value, in a random 0.5 of the rows")
        .matcher(result.out());
    assertTrue(m.find(), result.out());
    long counted = Long.parseLong(m.group(1).replace(",", ""));
    // Each row is kept with probability 1/2: all or none of the 900 has probability 2^-899.
    assertTrue(counted > 0 && counted < 900, "values counted: " + counted);
    assertTrue(result.out().contains("# e:device: "), "both columns that declare values: " + result.out());
  }

  @Test
  void refusesTooManyValuesUnknownColumnsMissingTablesAndNonText(Connection hbase, Configuration conf)
      throws Exception {
    setUp(hbase, conf, Files.readString(ADS));
    Cli.Result many = sample("--column", "e:country", "--max-values", "3");
    assertEquals(1, many.exitCode());
    assertTrue(many.err().startsWith("table " + table + ", column e:country: more than 3 distinct values in the"
        + " first "), many.err());
    assertTrue(many.err().contains("not a low-cardinality column (raise --max-values if it is one)"), many.err());

    Cli.Result unknown = sample("--column", "e:contry");
    assertEquals(1, unknown.exitCode());
    assertEquals("table " + table + ": column e:contry is not listed in plaintext.yaml (expected FAMILY:QUALIFIER"
        + " of a listed column)", unknown.err().strip());

    try (Table t = hbase.getTable(TableName.valueOf(table))) {
      t.put(new Put(Bytes.toBytes("20240102#00000")).addColumn(E, Bytes.toBytes("device"), new byte[] {(byte) 0xff}));
    }
    Cli.Result binary = sample("--column", "e:device");
    assertEquals(1, binary.exitCode());
    assertEquals("table " + table + ", column e:device: holds a value that is not UTF-8 text without NUL, which a"
        + " SPLASHE dimension cannot declare", binary.err().strip());

    Files.writeString(schema, Files.readString(schema).replace("table: " + table, "table: nosuch_" + table));
    Cli.Result missing = sample();
    assertEquals(1, missing.exitCode());
    assertEquals("table nosuch_" + table + " does not exist on this cluster (the plain table the schema describes)",
        missing.err().strip());
  }
}
