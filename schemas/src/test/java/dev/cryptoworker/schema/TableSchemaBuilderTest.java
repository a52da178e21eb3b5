package dev.cryptoworker.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxProviders;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TableSchemaBuilderTest {
  private static final ColumnPolicy STD = ColumnPolicy.of(BoxKind.STD);
  private static final ColumnPolicy ASHE_LONG = ColumnPolicy.of(BoxKind.ASHE, ValueType.LONG);

  /** The architecture example of {@link TableSchemaTest}, made with the builders. */
  private static TableSchema appointments() {
    return TableSchema.builder("clinic:appointments")
        .rowKey(ColumnPolicy.of(BoxKind.DET))
        .family(FamilySchema.builder("physician").defaultPolicy(ColumnPolicy.of(BoxKind.DET)).build())
        .family(FamilySchema.builder("appointment")
            .defaultPolicy(STD)
            .column("date", ColumnPolicy.builder(BoxKind.OPE).type(ValueType.DATE).companion(BoxKind.STD).build())
            .column("price", ASHE_LONG)
            .build())
        .family(FamilySchema.builder("notes").defaultPolicy(ColumnPolicy.PLAIN).protectQualifiers(true).build())
        .build();
  }

  private static TableSchema roundTrip(TableSchema schema) {
    TableSchema back = TableSchema.parse(schema.toYaml(), "round-trip.yaml");
    assertEquals(schema, back, schema.toYaml());
    assertEquals(schema.hashCode(), back.hashCode());
    assertEquals(schema.toYaml(), back.toYaml());
    return back;
  }

  @Test
  void builtEqualsParsed() {
    TableSchema parsed = TableSchema.parse(TableSchemaTest.APPOINTMENTS);
    TableSchema built = appointments();
    assertEquals(parsed, built);
    assertEquals(parsed.hashCode(), built.hashCode());
    assertEquals("<builder>", built.source());
    assertEquals("<schema>", parsed.source());
    assertEquals(List.of("physician", "appointment", "notes"), List.copyOf(built.families().keySet()));
    roundTrip(built);
  }

  @Test
  void exampleSchemasRoundTrip() {
    for (String resource : ExampleSchemas.RESOURCES) {
      TableSchema example = ExampleSchemas.fromResource(resource);
      assertEquals(resource, example.source());
      roundTrip(example);
    }
    assertEquals(
        "table: appointments\n"
            + "rowKey: { box: DET }\n"
            + "families:\n"
            + "  physician:\n"
            + "    default: { box: DET, type: string }\n"
            + "  patient:\n"
            + "    default: { box: STD, type: string }\n"
            + "  appointment:\n"
            + "    default: { box: STD, type: string }\n"
            + "    columns:\n"
            + "      date: { box: OPE, type: date, companion: STD }\n"
            + "  institution:\n"
            + "    default: { box: STD, type: string }\n",
        ExampleSchemas.appointments().toYaml());
  }

  @Test
  void splasheAndProtectedQualifiersRoundTrip() {
    TableSchema schema = TableSchema.builder("ns_1:sales.2019")
        .rowKey(ColumnPolicy.of(BoxKind.OPE, ValueType.LONG))
        .family(FamilySchema.builder("m")
            .defaultPolicy(ColumnPolicy.of(BoxKind.DET, ValueType.STRING))
            .column("amount", ASHE_LONG)
            .column("count", ColumnPolicy.of(BoxKind.ASHE, ValueType.INT))
            .column("region", ColumnPolicy.builder(BoxKind.SPLASHE).values("north", "south", "east west").splays("amount")
                .frequent("north").build())
            .column("kind", ColumnPolicy.builder(BoxKind.SPLASHE).values(List.of("true", "null", "7")).splays(List.of("count")).build())
            .build())
        .family(FamilySchema.builder("dyn").defaultPolicy(STD).protectQualifiers(true).build())
        .build();
    TableSchema back = roundTrip(schema);
    ColumnPolicy region = back.family("m").orElseThrow().policyFor("region");
    assertEquals(List.of("north", "south", "east west"), region.values());
    assertEquals(List.of("north"), region.frequent());
    assertEquals(List.of(), back.family("m").orElseThrow().policyFor("kind").frequent(), "basic SPLASHE");
    assertEquals(ValueType.STRING, region.type());
    assertEquals("region", back.family("m").orElseThrow().splayedBy("amount").orElseThrow());
    assertTrue(back.family("dyn").orElseThrow().protectQualifiers());
  }

  @Test
  void namesYamlWouldReadOtherwiseAreQuoted() {
    FamilySchema.Builder family = FamilySchema.builder("2019").defaultPolicy(STD);
    List<String> names = List.of("a b", "#x", "a: b", "\"q\"", "back\\slash", "tab\there", "new\nline", "é", "😀",
        "true", "Yes", "n", "null", "~", "123", "1e3", ".inf", "-x", " lead", "trail ", "[x]", "{x}", "*a", "&a",
        "!x", "%p", "@a", "`b", "\u0085nel", "\u2028ls", "\ufeffbom", "\u0001", "\ud800lone", "a,b", "?q", "|",
        "'", "<<", "default");
    for (String name : names) {
      family.column(name, ColumnPolicy.of(BoxKind.DET, ValueType.STRING));
    }
    family.column("m", ASHE_LONG)
        .column("dim", ColumnPolicy.builder(BoxKind.SPLASHE).values("a b", "#x", "a, b", "]", "'q'", "yes").splays("m").build());
    for (String table : List.of("t", "true", "ns:t", "1", "a.b-c", "_")) {
      TableSchema back = roundTrip(TableSchema.builder(table).rowKey(ColumnPolicy.PLAIN).family(family.build()).build());
      assertEquals(names.size() + 2, back.family("2019").orElseThrow().columns().size());
    }
  }

  @Test
  void toBuilderEditsACopy() {
    TableSchema patients = ExampleSchemas.patients();
    FamilySchema contacts = FamilySchema.builder("contacts").defaultPolicy(ColumnPolicy.of(BoxKind.DET)).build();
    TableSchema edited = patients.toBuilder()
        .tableName("clinic:patients2")
        .rowKey(ColumnPolicy.of(BoxKind.OPE, ValueType.STRING))
        .family(contacts)
        .removeFamily("observations")
        .build();
    assertEquals("clinic:patients2", edited.tableName());
    assertEquals(ColumnPolicy.of(BoxKind.OPE, ValueType.STRING), edited.rowKeyPolicy());
    assertEquals(List.of("identification", "contacts", "appointments"), List.copyOf(edited.families().keySet()));
    assertEquals(contacts, edited.family("contacts").orElseThrow());
    assertEquals("<builder>", edited.source());
    roundTrip(edited);
    // the original is untouched
    assertEquals(ExampleSchemas.patients(), patients);
    assertEquals("patients", patients.tableName());
    assertEquals(4, patients.families().size());
    // a copy made without edits is equal; the source does not count
    assertEquals(patients, TableSchema.newBuilder(patients).build());
    assertNotEquals(patients, edited);

    FamilySchema identification = patients.family("identification").orElseThrow();
    FamilySchema fewer = identification.toBuilder().removeColumn("civilId").protectQualifiers(true).build();
    assertFalse(fewer.isListed("civilId"));
    assertTrue(identification.isListed("civilId"));
    assertEquals(identification, FamilySchema.newBuilder(identification).build());
    assertNotEquals(identification, fewer);
  }

  @Test
  void buildersAreReusableAndSchemasImmutable() {
    FamilySchema.Builder family = FamilySchema.builder("f").defaultPolicy(STD).column("a", STD);
    TableSchema.Builder table = TableSchema.builder("t").rowKey(ColumnPolicy.PLAIN).family(family.build());
    TableSchema first = table.build();
    family.column("b", STD);
    table.rowKey(ColumnPolicy.of(BoxKind.DET)).family(family.build());
    TableSchema second = table.build();
    assertEquals(List.of("a"), List.copyOf(first.family("f").orElseThrow().columns().keySet()));
    assertEquals(ColumnPolicy.PLAIN, first.rowKeyPolicy());
    assertEquals(List.of("a", "b"), List.copyOf(second.family("f").orElseThrow().columns().keySet()));
    assertThrows(UnsupportedOperationException.class, () -> second.families().clear());
    assertThrows(UnsupportedOperationException.class, () -> second.family("f").orElseThrow().columns().clear());
  }

  // Every box, type and companion in every place, and every SPLASHE shape, the builder way and the
  // YAML way: both accept (and then agree, and round-trip) or both refuse for the same reason.

  @Test
  void builderAcceptsExactlyWhatTheLoaderAccepts() {
    List<ValueType> types = new ArrayList<>(List.of(ValueType.values()));
    types.add(null);
    List<BoxKind> installed = BoxProviders.installed().stream().map(BoxProvider::kind).toList();
    List<BoxKind> companions = new ArrayList<>(installed);
    companions.add(null);
    int accepted = 0;
    int cases = 0;
    for (String place : List.of("rowKey", "default", "column")) {
      for (BoxKind box : installed) {
        for (ValueType type : types) {
          for (BoxKind companion : companions) {
            for (String table : List.of("t", "clinic:t")) {
              for (boolean protect : List.of(false, true)) {
                Case c = new Case(table, protect);
                List<String> values = box == BoxKind.SPLASHE ? List.of("a", "b") : null;
                List<String> splays = box == BoxKind.SPLASHE ? List.of("m") : null;
                c.put(place, box, type, companion, values, splays);
                accepted += c.check() ? 1 : 0;
                cases++;
              }
            }
          }
        }
      }
    }
    assertEquals(3 * installed.size() * 6 * (installed.size() + 1) * 2 * 2, cases);
    assertTrue(accepted > 300, accepted + " accepted");
  }

  @Test
  void builderAcceptsExactlyTheSplasheShapesTheLoaderAccepts() {
    List<List<String>> valueLists = new ArrayList<>(List.of(List.of(), List.of("a"), List.of("a", "a"), List.of("a", "b"),
        List.of("a", "b", "c"), List.of("a", "a\0")));
    valueLists.add(null);
    List<List<String>> splayLists = new ArrayList<>(List.of(List.of(), List.of("m"), List.of("m", "n"), List.of("x"),
        List.of("p"), List.of("m", "m"), List.of("n")));
    splayLists.add(null);
    int accepted = 0;
    for (String place : List.of("rowKey", "default", "column")) {
      for (BoxKind box : List.of(BoxKind.SPLASHE, BoxKind.ASHE, BoxKind.DET)) {
        for (List<String> values : valueLists) {
          for (List<String> splays : splayLists) {
            for (boolean protect : List.of(false, true)) {
              for (boolean second : List.of(false, true)) {
                Case c = new Case("t", protect);
                c.put(place, box, box == BoxKind.ASHE ? ValueType.LONG : null, null, values, splays);
                if (second) { // another dimension splaying n
                  c.put("column2", BoxKind.SPLASHE, null, null, List.of("y", "z"), List.of("n"));
                }
                accepted += c.check() ? 1 : 0;
              }
            }
          }
        }
      }
    }
    assertTrue(accepted >= 20, accepted + " accepted");
  }

  @Test
  void builderAcceptsExactlyTheNamesTheLoaderAccepts() {
    for (String table : List.of("t", "ns:t", "a.b-c_1", "_", "9", "no spaces", "ns:", ":t", "a:b:c", "-t", ".t", "t/u")) {
      for (String family : List.of("f", "f.g-1", "_x", "9", "-x", ".x", "a b", "a:b", "é")) {
        for (String qualifier : List.of("q", "", "a\0b", " x ", "é", "a b")) {
          Case c = new Case(table, false);
          c.familyName = family;
          c.qualifier = qualifier;
          c.put("column", BoxKind.DET, ValueType.STRING, null, null, null);
          c.check();
        }
      }
    }
  }

  /**
   * One schema, as a builder call and as YAML text written by hand: a row key, and family f with a
   * default, listed ASHE columns m and n, PLAIN column p and one more column q.
   */
  private static final class Case {
    private final String table;
    private final boolean protect;
    private String familyName = "f";
    private String qualifier = "q";
    private ColumnPolicy rowKey = ColumnPolicy.PLAIN;
    private String rowKeyYaml = "{ box: PLAIN }";
    private ColumnPolicy defaultPolicy = STD;
    private String defaultYaml = "{ box: STD }";
    private ColumnPolicy column = STD;
    private String columnYaml = "{ box: STD }";
    private ColumnPolicy column2;
    private String column2Yaml;

    Case(String table, boolean protect) {
      this.table = table;
      this.protect = protect;
    }

    void put(String place, BoxKind box, ValueType type, BoxKind companion, List<String> values, List<String> splays) {
      ColumnPolicy.Builder b = ColumnPolicy.builder(box);
      StringBuilder yaml = new StringBuilder("{ box: " + box);
      if (type != null) {
        b.type(type);
        yaml.append(", type: ").append(type.yamlName());
      }
      if (companion != null) {
        b.companion(companion);
        yaml.append(", companion: ").append(companion);
      }
      if (values != null) {
        b.values(values);
        yaml.append(", values: ").append(list(values));
      }
      if (splays != null) {
        b.splays(splays);
        yaml.append(", splays: ").append(list(splays));
      }
      ColumnPolicy p = b.build();
      String y = yaml.append(" }").toString();
      switch (place) {
        case "rowKey" -> { rowKey = p; rowKeyYaml = y; }
        case "default" -> { defaultPolicy = p; defaultYaml = y; }
        case "column" -> { column = p; columnYaml = y; }
        default -> { column2 = p; column2Yaml = y; }
      }
    }

    TableSchema build() {
      FamilySchema.Builder f = FamilySchema.builder(familyName).defaultPolicy(defaultPolicy)
          .column("m", ASHE_LONG).column("n", ASHE_LONG).column("p", ColumnPolicy.PLAIN).column(qualifier, column)
          .protectQualifiers(protect);
      if (column2 != null) {
        f.column("q2", column2);
      }
      return TableSchema.builder(table).rowKey(rowKey).family(f.build()).build();
    }

    String yaml() {
      return "table: " + quote(table) + "\n"
          + "rowKey: " + rowKeyYaml + "\n"
          + "families:\n"
          + "  " + quote(familyName) + ":\n"
          + "    default: " + defaultYaml + "\n"
          + "    columns:\n"
          + "      m: { box: ASHE, type: long }\n"
          + "      n: { box: ASHE, type: long }\n"
          + "      p: { box: PLAIN }\n"
          + "      " + quote(qualifier) + ": " + columnYaml + "\n"
          + (column2 == null ? "" : "      q2: " + column2Yaml + "\n")
          + "    protectQualifiers: " + protect + "\n";
    }

    /** Whether both ways accept; fails unless they agree. */
    boolean check() {
      String yaml = yaml();
      TableSchema parsed;
      try {
        parsed = TableSchema.parse(yaml, "case.yaml");
      } catch (InvalidSchemaException fromYaml) {
        InvalidSchemaException built = assertThrows(InvalidSchemaException.class, this::build, yaml);
        // A family is built before its table: YAML names the table, the builder cannot.
        String table = built.reason().startsWith("families.") ? "table " + this.table + ", " : "";
        assertEquals(fromYaml.reason(), table + built.reason(), yaml);
        assertEquals("<builder>: " + built.reason(), built.getMessage());
        assertEquals(0, built.line());
        assertTrue(fromYaml.line() > 0, fromYaml.getMessage());
        return false;
      }
      TableSchema built = build();
      assertEquals(parsed, built, yaml);
      roundTrip(built);
      return true;
    }

    private static String list(List<String> items) {
      List<String> quoted = new ArrayList<>();
      for (String item : items) {
        quoted.add(quote(item));
      }
      return "[" + String.join(", ", quoted) + "]";
    }

    private static String quote(String s) {
      return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\0", "\\0") + "\"";
    }
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        refusal("bad table name", () -> table("no spaces", ColumnPolicy.PLAIN, family(STD)),
            "table: 'no spaces' is not a valid HBase table name"),
        refusal("no row key", () -> TableSchema.builder("t").family(family(STD)).build(),
            "rowKey is required (write rowKey: { box: PLAIN } for unprotected keys)"),
        refusal("ASHE row key", () -> table("t", ASHE_LONG, family(STD)),
            "rowKey: a row key cannot use box ASHE (allowed: PLAIN, STD, DET, OPE)"),
        refusal("SSE row key", () -> table("t", ColumnPolicy.of(BoxKind.SSE), family(STD)),
            "rowKey: a row key cannot use box SSE (allowed: PLAIN, STD, DET, OPE)"),
        refusal("SPLASHE row key", () -> table("t", splashe("m"), family(STD)),
            "rowKey: a row key cannot use box SPLASHE (allowed: PLAIN, STD, DET, OPE)"),
        refusal("row key companion", () -> table("t",
                ColumnPolicy.builder(BoxKind.OPE).type(ValueType.STRING).companion(BoxKind.STD).build(), family(STD)),
            "rowKey: a row key cannot have a companion"),
        refusal("OPE date row key", () -> table("t", ColumnPolicy.of(BoxKind.OPE, ValueType.DATE), family(STD)),
            "rowKey: an OPE row key cannot have type date (its text form would be lost);"
                + " store epoch milliseconds with type long, or ISO text with type string"),
        refusal("no families", () -> TableSchema.builder("t").rowKey(ColumnPolicy.PLAIN).build(),
            "families: at least one family is required"),
        refusal("no families left", () -> ExampleSchemas.appointments().toBuilder().removeFamily("physician")
                .removeFamily("patient").removeFamily("appointment").removeFamily("institution").build(),
            "families: at least one family is required"),
        refusal("bad family name", () -> FamilySchema.builder("a b").defaultPolicy(STD).build(),
            "families.a b: 'a b' is not a valid column family name"),
        refusal("no default", () -> FamilySchema.builder("f").column("a", STD).build(),
            "families.f: 'default' is required (the policy of qualifiers not listed under columns)"),
        refusal("SPLASHE default", () -> family(splashe("m")),
            "families.f.default: SPLASHE applies to one named dimension column, not to a family default"),
        refusal("empty qualifier", () -> family(STD, "", STD),
            "families.f.columns.: a qualifier name must not be empty"),
        refusal("NUL in qualifier", () -> family(STD, "a\0b", STD),
            "families.f.columns.a\0b: a qualifier name must not contain NUL (reserved for SPLASHE columns)"),
        refusal("companion on DET", () -> ExampleSchemas.patients().toBuilder()
                .family(ExampleSchemas.patients().family("identification").orElseThrow().toBuilder()
                    .column("mainId", ColumnPolicy.builder(BoxKind.DET).type(ValueType.STRING).companion(BoxKind.STD).build())
                    .build())
                .build(),
            "families.identification.columns.mainId.companion: a companion copy is only meaningful for OPE columns, not DET"),
        refusal("companion not STD", () -> family(STD, "d",
                ColumnPolicy.builder(BoxKind.OPE).type(ValueType.DATE).companion(BoxKind.DET).build()),
            "families.f.columns.d.companion: the companion must be STD, got DET"),
        refusal("OPE date without companion", () -> family(STD, "d", ColumnPolicy.of(BoxKind.OPE, ValueType.DATE)),
            "families.f.columns.d: OPE on type date needs companion: STD (the order key, the instant, does not"
                + " keep the text's form; the authenticated companion does)"),
        refusal("ASHE on strings", () -> family(ColumnPolicy.of(BoxKind.ASHE, ValueType.STRING)),
            "families.f.default: ASHE sums numbers: type must be long or int, got string"),
        refusal("ASHE on bytes", () -> family(STD, "m", ColumnPolicy.of(BoxKind.ASHE)),
            "families.f.columns.m: ASHE sums numbers: type must be long or int, got bytes"),
        refusal("values on DET", () -> family(STD, "c", ColumnPolicy.builder(BoxKind.DET).values("a", "b").build()),
            "families.f.columns.c.values: values belongs to SPLASHE columns only"),
        refusal("splays on ASHE", () -> family(STD, "c", ColumnPolicy.builder(BoxKind.ASHE).type(ValueType.LONG).splays("m").build()),
            "families.f.columns.c.splays: splays belongs to SPLASHE columns only"),
        refusal("SPLASHE without values", () -> family(STD, "m", ASHE_LONG, "g", ColumnPolicy.builder(BoxKind.SPLASHE).splays("m").build()),
            "families.f.columns.g: a SPLASHE column needs values (its possible values) and splays (the ASHE columns it filters)"),
        refusal("SPLASHE without splays", () -> family(STD, "g", ColumnPolicy.builder(BoxKind.SPLASHE).values("a", "b").build()),
            "families.f.columns.g: a SPLASHE column needs values (its possible values) and splays (the ASHE columns it filters)"),
        refusal("one value", () -> family(STD, "m", ASHE_LONG, "g", ColumnPolicy.builder(BoxKind.SPLASHE).values("a").splays("m").build()),
            "families.f.columns.g.values: needs at least two distinct values"),
        refusal("repeated value", () -> family(STD, "m", ASHE_LONG, "g", ColumnPolicy.builder(BoxKind.SPLASHE).values("a", "b", "a").splays("m").build()),
            "families.f.columns.g.values: needs at least two distinct values"),
        refusal("NUL in value", () -> family(STD, "m", ASHE_LONG, "g", ColumnPolicy.builder(BoxKind.SPLASHE).values("a", "b\0").splays("m").build()),
            "families.f.columns.g.values: a value must not contain NUL"),
        refusal("blank value", () -> family(STD, "m", ASHE_LONG, "g", ColumnPolicy.builder(BoxKind.SPLASHE).values("a", " ").splays("m").build()),
            "families.f.columns.g.values[1]: must be a non-empty single value, without white space at either end"),
        refusal("padded splay", () -> family(STD, " m", ASHE_LONG, "g", ColumnPolicy.builder(BoxKind.SPLASHE).values("a", "b").splays(" m").build()),
            "families.f.columns.g.splays[0]: must be a non-empty single value, without white space at either end"),
        refusal("no splays", () -> family(STD, "g", ColumnPolicy.builder(BoxKind.SPLASHE).values("a", "b").splays().build()),
            "families.f.columns.g.splays: needs at least one ASHE column to splay"),
        refusal("splays a STD column", () -> family(STD, "m", STD, "g", splashe("m")),
            "families.f.columns.g: splays: 'm' must be an ASHE column listed in the same family"),
        refusal("splays an unlisted column", () -> family(ASHE_LONG, "g", splashe("m")),
            "families.f.columns.g: splays: 'm' must be an ASHE column listed in the same family"),
        refusal("splayed twice", () -> family(STD, "m", ASHE_LONG, "g", splashe("m"), "h", splashe("m")),
            "families.f.columns.h: splays: 'm' is already splayed by 'g'"),
        refusal("SPLASHE with protectQualifiers", () -> FamilySchema.builder("f").defaultPolicy(STD)
                .column("m", ASHE_LONG).column("g", splashe("m")).protectQualifiers(true).build(),
            "families.f.columns.g: SPLASHE cannot be combined with protectQualifiers in the same family"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void builderRefusesWithPathAndReason(String name, Supplier<Object> build, String reason) {
    InvalidSchemaException e = assertThrows(InvalidSchemaException.class, build::get);
    assertEquals(reason, e.reason());
    assertEquals("<builder>", e.source());
    assertEquals(0, e.line());
    assertEquals("<builder>: " + reason, e.getMessage());
  }

  private static Arguments refusal(String name, Supplier<Object> build, String reason) {
    return Arguments.of(name, build, reason);
  }

  private static TableSchema table(String name, ColumnPolicy rowKey, FamilySchema family) {
    return TableSchema.builder(name).rowKey(rowKey).family(family).build();
  }

  /** Family f with {@code defaultPolicy} and the columns given as qualifier, policy pairs. */
  private static FamilySchema family(ColumnPolicy defaultPolicy, Object... columns) {
    FamilySchema.Builder f = FamilySchema.builder("f").defaultPolicy(defaultPolicy);
    for (int i = 0; i < columns.length; i += 2) {
      f.column((String) columns[i], (ColumnPolicy) columns[i + 1]);
    }
    return f.build();
  }

  private static ColumnPolicy splashe(String... splays) {
    return ColumnPolicy.builder(BoxKind.SPLASHE).values("a", "b").splays(splays).build();
  }
}
