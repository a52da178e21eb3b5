package dev.cryptoworker.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProviders;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.PlaintextSchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaPlannerTest {
  static final Path DIR = Path.of("src", "test", "resources", "plan");

  static SchemaPlan plan(String schema, String queries) throws Exception {
    return new SchemaPlanner(PlaintextSchema.load(DIR.resolve(schema))).plan(QueryFile.load(DIR.resolve(queries)));
  }

  private static SchemaPlan plan(String schema, List<String> queries) throws Exception {
    return new SchemaPlanner(PlaintextSchema.load(DIR.resolve(schema)))
        .plan(QueryFile.parse(String.join(";\n", queries), "q.sql"));
  }

  /** Every entry of {@code schema} by YAML path, as the plan's notes name them. */
  private static Map<String, ColumnPolicy> entries(TableSchema schema) {
    Map<String, ColumnPolicy> out = new LinkedHashMap<>();
    out.put("rowKey", schema.rowKeyPolicy());
    for (FamilySchema f : schema.families().values()) {
      out.put("families." + f.name() + ".default", f.defaultPolicy());
      f.columns().forEach((q, p) -> out.put("families." + f.name() + ".columns." + q, p));
    }
    return out;
  }

  private static void assertPlan(Map<String, ColumnPolicy> expected, SchemaPlan plan) {
    Map<String, ColumnPolicy> actual = entries(plan.schema());
    assertEquals(expected.keySet(), actual.keySet());
    expected.forEach((path, policy) -> assertEquals(policy, actual.get(path), path));
  }

  private static ColumnPolicy of(BoxKind box, ValueType type) {
    return ColumnPolicy.of(box, type);
  }

  @Test
  void patientsGetADetRowKeySseForEqualitiesAnOpeDateAndStdElsewhere() throws Exception {
    SchemaPlan plan = plan("patients-plaintext.yaml", "patients-queries.sql");
    Map<String, ColumnPolicy> expected = new LinkedHashMap<>();
    expected.put("rowKey", of(BoxKind.DET, ValueType.BYTES));
    expected.put("families.identification.default", of(BoxKind.STD, ValueType.BYTES));
    expected.put("families.identification.columns.mainId", of(BoxKind.SSE, ValueType.STRING));
    expected.put("families.identification.columns.surname", of(BoxKind.STD, ValueType.STRING));
    expected.put("families.identification.columns.name", of(BoxKind.STD, ValueType.STRING));
    expected.put("families.identification.columns.birth",
        ColumnPolicy.builder(BoxKind.OPE).type(ValueType.DATE).companion(BoxKind.STD).build());
    expected.put("families.identification.columns.nationality", of(BoxKind.SSE, ValueType.STRING));
    expected.put("families.identification.columns.civilId", of(BoxKind.STD, ValueType.STRING));
    expected.put("families.contacts.default", of(BoxKind.STD, ValueType.STRING));
    expected.put("families.observations.default", of(BoxKind.STD, ValueType.STRING));
    expected.put("families.appointments.default", of(BoxKind.STD, ValueType.BYTES));
    assertPlan(expected, plan);
    assertTrue(plan.schema().family("appointments").orElseThrow().protectQualifiers());
  }

  @Test
  void adsGetAnOpeRowKeySplasheDimensionsAsheMeasuresAndSseForTheHighCardinalityFilter() throws Exception {
    SchemaPlan plan = plan("ads-plaintext.yaml", "ads-queries.sql");
    Map<String, ColumnPolicy> expected = new LinkedHashMap<>();
    expected.put("rowKey", of(BoxKind.OPE, ValueType.STRING));
    expected.put("families.a.default", of(BoxKind.STD, ValueType.BYTES));
    expected.put("families.a.columns.campaign", of(BoxKind.SSE, ValueType.STRING));
    expected.put("families.a.columns.advertiser", of(BoxKind.DET, ValueType.STRING));
    expected.put("families.a.columns.userAgent", of(BoxKind.STD, ValueType.STRING));
    expected.put("families.e.default", of(BoxKind.STD, ValueType.BYTES));
    expected.put("families.e.columns.country", ColumnPolicy.builder(BoxKind.SPLASHE).type(ValueType.STRING)
        .values("FR", "DE", "US", "GB", "ES").splays("revenue").build());
    expected.put("families.e.columns.device", ColumnPolicy.builder(BoxKind.SPLASHE).type(ValueType.STRING)
        .values("mobile", "desktop", "tablet").splays("clicks").build());
    expected.put("families.e.columns.day", of(BoxKind.OPE, ValueType.LONG));
    expected.put("families.e.columns.impressions", of(BoxKind.ASHE, ValueType.LONG));
    expected.put("families.e.columns.clicks", of(BoxKind.ASHE, ValueType.LONG));
    expected.put("families.e.columns.revenue", of(BoxKind.ASHE, ValueType.LONG));
    assertPlan(expected, plan);
  }

  @Test
  void eachNoteNamesTheQueriesThatForcedTheBoxAndWhatItLeaks() throws Exception {
    SchemaPlan plan = plan("patients-plaintext.yaml", "patients-queries.sql");
    String sse = BoxProviders.find(BoxKind.SSE).orElseThrow().rules()
        .leakage(BoxUse.of(BoxUse.Place.COLUMN, "string"));
    assertEquals(List.of("SSE: forced by " + DIR.resolve("patients-queries.sql") + ":3 (equality); leaks " + sse),
        plan.notes().get("families.identification.columns.mainId"));
    assertTrue(plan.notes().get("families.identification.columns.surname").get(0)
        .startsWith("STD: no sample query asks anything of it on the servers; leaks "));
  }

  @Test
  void thePlannedYamlOpensWithTheSchemaParser() throws Exception {
    for (String name : List.of("patients", "ads")) {
      SchemaPlan plan = plan(name + "-plaintext.yaml", name + "-queries.sql");
      String yaml = plan.toYaml();
      assertEquals(plan.schema(), TableSchema.parse(yaml, name), yaml);
      assertTrue(yaml.contains("  # STD: no sample query asks anything"), "notes are YAML comments:\n" + yaml);
    }
  }

  @Test
  void unservableQueriesAreNamedWithTheirReason() throws Exception {
    SchemaPlan plan = plan("ads-plaintext.yaml", "ads-queries.sql");
    Map<Integer, String> byLine = new LinkedHashMap<>();
    plan.unservable().forEach(u -> byLine.put(u.query().line(), u.reason()));
    assertEquals(List.of(10, 11, 12), List.copyOf(byLine.keySet()), byLine.toString());
    assertTrue(byLine.get(10).startsWith("e:revenue: no installed box answers its range on the servers together with"
        + " its sum ("), byLine.get(10));
    assertTrue(byLine.get(10).endsWith("which ASHE answers"), byLine.get(10));
    assertTrue(byLine.get(11).startsWith("LIKE:"), byLine.get(11));
    assertTrue(byLine.get(12).startsWith("a join:"), byLine.get(12));
    assertTrue(plan.toYaml().contains("#   " + DIR.resolve("ads-queries.sql") + ":10: SELECT SUM(revenue) FROM ads"
        + " WHERE revenue > 1000\n#     e:revenue: no installed box"), plan.toYaml());
  }

  @Test
  void oneSplayedColumnPerAggregateAndPerMeasure() throws Exception {
    SchemaPlan both = plan("ads-plaintext.yaml",
        List.of("SELECT SUM(revenue) FROM ads WHERE country = 'FR' AND device = 'mobile'"));
    assertEquals(BoxKind.SPLASHE, column(both, "country").box());
    assertEquals(List.of("revenue"), column(both, "country").splays());
    assertEquals(BoxKind.DET, column(both, "device").box(),
        "the second dimension filters on stored bytes (SSE would share family e with SPLASHE)");

    SchemaPlan shared = plan("ads-plaintext.yaml", List.of("SELECT SUM(revenue) FROM ads WHERE device = 'mobile'",
        "SELECT SUM(revenue) FROM ads WHERE country = 'FR'"));
    assertEquals(BoxKind.SPLASHE, column(shared, "country").box(), "the first listed dimension splays the measure");
    assertEquals(BoxKind.DET, column(shared, "device").box());
    assertEquals(List.of(), shared.unservable());
  }

  @Test
  void groupingAndFilteringOneDimensionOutsideSplashesReachGetsDet() throws Exception {
    SchemaPlan plan = plan("ads-plaintext.yaml", List.of("SELECT country, SUM(revenue) FROM ads GROUP BY country",
        "SELECT * FROM ads WHERE country <> 'FR'"));
    assertEquals(BoxKind.DET, column(plan, "country").box(), "SPLASHE does not filter plain scans");
  }

  /**
   * Declared rows per value let SPLASHE splay only the common values (enhanced SPLASHE), where
   * that stores fewer cells; without them, or where it would not, the plan stays basic.
   */
  @Test
  void declaredRowsPerValueMakeSkewedDimensionsEnhancedSplashe() throws Exception {
    String ads = Files.readString(DIR.resolve("ads-plaintext.yaml"));
    String skewed = ads.replace("values: [FR, DE, US, GB, ES] }",
        "values: [FR, DE, US, GB, ES], rows: { FR: 6100, DE: 400, US: 3100, GB: 300, ES: 100 } }");
    SchemaPlan plan = new SchemaPlanner(PlaintextSchema.parse(skewed, "ads.yaml"))
        .plan(QueryFile.load(DIR.resolve("ads-queries.sql")));
    ColumnPolicy country = column(plan, "country");
    assertEquals(BoxKind.SPLASHE, country.box());
    assertEquals(List.of("FR", "US"), country.frequent(), "FR alone cannot pad 4 x 3100 rows; FR and US pad 3 x 400");
    assertEquals(List.of("revenue"), country.splays());
    assertTrue(plan.notes().get("families.e.columns.country").get(0).contains("how many infrequent values there are"),
        plan.notes().toString());
    TableSchema.parse(plan.toYaml()); // the schema parser and validator accept what the plan proposes

    String even = ads.replace("values: [FR, DE, US, GB, ES] }",
        "values: [FR, DE, US, GB, ES], rows: { FR: 6100, DE: 400, US: 3100, GB: 300, ES: 100 } }")
        .replace("values: [mobile, desktop, tablet] }", "values: [mobile, desktop, tablet], rows: { mobile: 5,"
            + " desktop: 4, tablet: 1 } }");
    SchemaPlan three = new SchemaPlanner(PlaintextSchema.parse(even, "ads.yaml"))
        .plan(QueryFile.load(DIR.resolve("ads-queries.sql")));
    assertEquals(List.of(), column(three, "device").frequent(),
        "one frequent value of three stores as many cells as basic SPLASHE: basic");
    assertEquals(List.of(), column(plan("ads-plaintext.yaml", "ads-queries.sql"), "country").frequent(),
        "no declared rows: basic");
  }

  private static ColumnPolicy column(SchemaPlan plan, String qualifier) {
    return plan.schema().family("e").orElseThrow().columns().get(qualifier);
  }

  /** The client refuses a family with SPLASHE and SSE columns: the indexed column falls back to DET, and says why. */
  @Test
  void aFamilyWithSplayedColumnsGetsNoIndexedOnes() throws Exception {
    PlaintextSchema one = PlaintextSchema.parse(String.join("\n", "table: ads", "rowKey: { type: string }", "families:",
        "  e:", "    default: { type: bytes }", "    columns:", "      campaign: { type: string }",
        "      country: { type: string, values: [FR, DE] }", "      revenue: { type: long }", ""), "one.yaml");
    SchemaPlan plan = new SchemaPlanner(one).plan(QueryFile.parse("SELECT SUM(revenue) FROM ads WHERE country = 'FR';"
        + "\nSELECT * FROM ads WHERE campaign = 'x'", "q.sql"));
    assertEquals(BoxKind.SPLASHE, column(plan, "country").box());
    assertEquals(BoxKind.DET, column(plan, "campaign").box());
    assertTrue(plan.notes().get("families.e.columns.campaign").get(0).startsWith("DET: forced by q.sql:2 (equality)"
        + " (not SSE: family e holds SPLASHE columns"), plan.notes().toString());
  }

  @Test
  void aYamlListOfQueriesPlansAsTheSqlFile() throws Exception {
    SchemaPlan sql = plan("patients-plaintext.yaml", "patients-queries.sql");
    SchemaPlan yaml = plan("patients-plaintext.yaml", "patients-queries.yaml");
    assertEquals(sql.schema(), yaml.schema());
    assertEquals(List.of(8), yaml.unservable().stream().map(u -> u.query().line()).toList());
    InvalidQueryException item = assertThrows(InvalidQueryException.class,
        () -> QueryFile.parseYaml("- SELECT * FROM ads\n- { sql: x }\n", "q.yaml"));
    assertEquals("q.yaml:2: each item is one SQL query, as a string", item.getMessage());
  }

  @Test
  void badQueriesFailNamingFileLineAndReason() throws Exception {
    PlaintextSchema ads = PlaintextSchema.load(DIR.resolve("ads-plaintext.yaml"));
    InvalidQueryException unknown = assertThrows(InvalidQueryException.class, () -> new SchemaPlanner(ads)
        .plan(QueryFile.parse("SELECT * FROM ads;\n\nSELECT SUM(revenue) FROM ads WHERE contry = 'FR';", "q.sql")));
    assertEquals("q.sql:3: unknown column 'contry' (no family lists it; the row key is rowkey)", unknown.getMessage());
    InvalidQueryException malformed = assertThrows(InvalidQueryException.class, () -> new SchemaPlanner(ads)
        .plan(QueryFile.parse("-- first\nSELECT FROM WHERE ads;", "q.sql")));
    assertTrue(malformed.getMessage().startsWith("q.sql:2: malformed SQL: "), malformed.getMessage());
    InvalidQueryException table = assertThrows(InvalidQueryException.class, () -> new SchemaPlanner(ads)
        .plan(QueryFile.parse("SELECT * FROM adz", "q.sql")));
    assertEquals("q.sql:1: reads table 'adz', but the schema describes 'ads'", table.getMessage());
  }
}
