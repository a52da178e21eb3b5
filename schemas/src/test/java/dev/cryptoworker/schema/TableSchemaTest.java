package dev.cryptoworker.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TableSchemaTest {
  static final String APPOINTMENTS =
      "table: clinic:appointments\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  physician:\n"
          + "    default: { box: DET }\n"
          + "  appointment:\n"
          + "    default: { box: STD }\n"
          + "    columns:\n"
          + "      date:  { box: OPE, type: date, companion: STD }\n"
          + "      price: { box: ASHE, type: long }\n"
          + "  notes:\n"
          + "    default: { box: PLAIN }\n"
          + "    protectQualifiers: true\n";

  @Test
  void parsesTheArchitectureExample() {
    TableSchema s = TableSchema.parse(APPOINTMENTS);
    assertEquals("clinic:appointments", s.tableName());
    assertEquals(BoxKind.DET, s.rowKeyPolicy().box());
    assertEquals(3, s.families().size());
    FamilySchema appointment = s.family("appointment").orElseThrow();
    assertEquals(BoxKind.OPE, appointment.policyFor("date").box());
    assertEquals(ValueType.DATE, appointment.policyFor("date").type());
    assertEquals(BoxKind.STD, appointment.policyFor("date").companion().orElseThrow());
    assertEquals(BoxKind.ASHE, appointment.policyFor("price").box());
    assertEquals(BoxKind.STD, appointment.policyFor("anything-else").box());
    assertEquals(ValueType.BYTES, appointment.policyFor("anything-else").type());
    assertTrue(s.family("notes").orElseThrow().protectQualifiers());
    assertTrue(s.family("notes").orElseThrow().isProtected());
    assertFalse(s.family("physician").orElseThrow().protectQualifiers());
  }

  @Test
  void examplesLoad() {
    assertEquals("patients", ExampleSchemas.patients().tableName());
    assertEquals("appointments", ExampleSchemas.appointments().tableName());
    assertEquals(BoxKind.DET, ExampleSchemas.patients().family("identification").orElseThrow().policyFor("mainId").box());
  }

  @Test
  void loadNamesTheFileInErrors(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, "table: t\nrowKey: { box: DET }\nfamilies:\n  f:\n    default: { box: DETT }\n",
        StandardCharsets.UTF_8);
    InvalidSchemaException e = assertThrows(InvalidSchemaException.class, () -> TableSchema.load(file));
    assertEquals(file.toString(), e.source());
    assertEquals(5, e.line());
    assertTrue(e.getMessage().startsWith(file + ":5: table t, families.f.default.box: unknown box 'DETT'"),
        e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "unknown top-level key | table: t\\nrowKey: {box: PLAIN}\\nfamilies: {f: {default: {box: STD}}}\\nowner: me | 4 | unknown key 'owner'",
        "unknown box | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: AES}\\n | 5 | unknown box 'AES'",
        "unknown type | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD, type: float}\\n | 5 | unknown type 'float'",
        "unknown policy key | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD, mode: gcm}\\n | 5 | unknown key 'mode'",
        "missing table | rowKey: {box: PLAIN}\\nfamilies: {f: {default: {box: STD}}}\\n | 1 | 'table' is required",
        "missing rowKey | table: t\\nfamilies: {f: {default: {box: STD}}}\\n | 1 | rowKey is required",
        "missing default | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    columns: {a: {box: STD}}\\n | 4 | 'default' is required",
        "no families | table: t\\nrowKey: {box: PLAIN}\\nfamilies: {}\\n | 3 | at least one family",
        "ASHE row key | table: t\\nrowKey: {box: ASHE, type: long}\\nfamilies: {f: {default: {box: STD}}}\\n | 2 | a row key cannot use box ASHE",
        "ASHE string | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: ASHE, type: string}\\n | 5 | type must be long or int",
        "companion on DET | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: DET, companion: STD}\\n | 5 | only meaningful for OPE",
        "companion not STD | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: OPE, companion: DET}\\n | 5 | the companion must be STD",
        "bad table name | table: 'no spaces'\\nrowKey: {box: PLAIN}\\nfamilies: {f: {default: {box: STD}}}\\n | 1 | not a valid HBase table name",
        "bad boolean | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    protectQualifiers: yes please\\n | 6 | must be true or false",
        "duplicate key | table: t\\ntable: u\\nrowKey: {box: PLAIN}\\nfamilies: {f: {default: {box: STD}}}\\n | 2 | duplicate key",
        "not YAML | table: t\\nrowKey: {box: PLAIN\\nfamilies: [\\n | 3 | not valid YAML",
        "not a mapping | - a\\n- b\\n | 1 | must be a mapping",
        "empty | '' | 0 | the schema is empty",
        "OPE date without companion | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: OPE, type: date}\\n | 5 | needs companion: STD",
        "SPLASHE without values | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    columns:\\n      s: {box: ASHE, type: long}\\n      g: {box: SPLASHE, splays: [s]}\\n | 8 | needs values",
        "SPLASHE splays non-ASHE | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    columns:\\n      s: {box: STD}\\n      g: {box: SPLASHE, values: [a, b], splays: [s]}\\n | 8 | must be an ASHE column",
        "SPLASHE duplicate values | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    columns:\\n      s: {box: ASHE, type: long}\\n      g: {box: SPLASHE, values: [a, a], splays: [s]}\\n | 8 | two distinct values",
        "SPLASHE as default | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: SPLASHE, values: [a, b], splays: [s]}\\n | 5 | not to a family default",
        "values on ASHE | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: ASHE, type: long, values: [a, b]}\\n | 5 | values belongs to SPLASHE columns only",
        "SPLASHE frequent not declared | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    columns:\\n      s: {box: ASHE, type: long}\\n      g: {box: SPLASHE, values: [a, b, c], splays: [s], frequent: [a, z]}\\n | 8 | table t, families.f.columns.g.frequent: item 1 ('z') is not one of the declared values",
        "SPLASHE frequent empty | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    columns:\\n      s: {box: ASHE, type: long}\\n      g: {box: SPLASHE, values: [a, b, c], splays: [s], frequent: []}\\n | 8 | table t, families.f.columns.g.frequent: needs at least one value (omit frequent",
        "SPLASHE frequent twice | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    columns:\\n      s: {box: ASHE, type: long}\\n      g: {box: SPLASHE, values: [a, b, c], splays: [s], frequent: [a, a]}\\n | 8 | table t, families.f.columns.g.frequent: item 1 ('a') is listed twice",
        "SPLASHE one infrequent | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: STD}\\n    columns:\\n      s: {box: ASHE, type: long}\\n      g: {box: SPLASHE, values: [a, b, c], splays: [s], frequent: [a, b]}\\n | 8 | table t, families.f.columns.g.frequent: must leave at least two declared values infrequent",
        "frequent on ASHE | table: t\\nrowKey: {box: PLAIN}\\nfamilies:\\n  f:\\n    default: {box: ASHE, type: long, frequent: [a]}\\n | 5 | table t, families.f.default.frequent: frequent belongs to SPLASHE columns only",
        "OPE date row key | table: t\\nrowKey: {box: OPE, type: date}\\nfamilies: {f: {default: {box: STD}}}\\n | 2 | an OPE row key cannot have type date",
      })
  void refusesWithLineAndReason(String name, String yaml, int line, String reason) {
    InvalidSchemaException e =
        assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(yaml.replace("\\n", "\n"), "test.yaml"));
    assertEquals(line, e.line(), e.getMessage());
    assertTrue(e.getMessage().contains(reason), e.getMessage());
    assertTrue(e.getMessage().startsWith("test.yaml"), e.getMessage());
  }

  /** unlistedFamilies: REFUSE unless the schema says PLAIN; written back; unknown values named with the line. */
  @Test
  void unlistedFamiliesAreRefusedUnlessTheSchemaSaysPlain() {
    String oneColumn = "table: t\nrowKey: { box: PLAIN }\nUNLISTED\nfamilies:\n  f:\n    default: { box: PLAIN }\n"
        + "    columns:\n      ssn: { box: STD }\n";
    assertEquals(UnlistedFamilies.REFUSE, TableSchema.parse(oneColumn.replace("UNLISTED\n", "")).unlistedFamilies());
    TableSchema plain = TableSchema.parse(oneColumn.replace("UNLISTED", "unlistedFamilies: plain"));
    assertEquals(UnlistedFamilies.PLAIN, plain.unlistedFamilies());
    assertEquals(plain, TableSchema.parse(plain.toYaml()));
    assertTrue(plain.toYaml().contains("unlistedFamilies: PLAIN\n"), plain.toYaml());
    assertEquals(UnlistedFamilies.REFUSE,
        TableSchema.parse(oneColumn.replace("UNLISTED", "unlistedFamilies: REFUSE")).unlistedFamilies());
    InvalidSchemaException unknown = assertThrows(InvalidSchemaException.class,
        () -> TableSchema.parse(oneColumn.replace("UNLISTED", "unlistedFamilies: STD"), "one.yaml"));
    assertEquals("one.yaml:3: unlistedFamilies: unknown unlistedFamilies 'STD' (expected REFUSE, PLAIN: what to do"
        + " with families the schema does not list)", unknown.getMessage());
    InvalidSchemaException list = assertThrows(InvalidSchemaException.class,
        () -> TableSchema.parse(oneColumn.replace("UNLISTED", "unlistedFamilies: [PLAIN]"), "one.yaml"));
    assertTrue(list.getMessage().startsWith("one.yaml:3: unlistedFamilies: must be a non-empty single value"),
        list.getMessage());
  }

  @Test
  void valueTypesCheckValues() {
    assertNull(ValueType.LONG.problemWith(new byte[8]));
    assertTrue(ValueType.LONG.problemWith(new byte[7]).contains("8 bytes"));
    assertNull(ValueType.INT.problemWith(new byte[4]));
    assertTrue(ValueType.STRING.problemWith(new byte[] {(byte) 0xc3}).contains("UTF-8"));
    assertTrue(ValueType.STRING.problemWith(new byte[] {'a', 'b', (byte) 0xff, 'c'}).contains("UTF-8"));
    assertNull(ValueType.STRING.problemWith("plain ascii".getBytes(StandardCharsets.UTF_8)));
    assertNull(ValueType.STRING.problemWith("São João, Ñandú".getBytes(StandardCharsets.UTF_8)));
    for (String ok : new String[] {"2019-03-01", "20190301", "20190301101530", "2019-03-01T10:15:30Z", "2019-03-01T10:15:30"}) {
      assertNull(ValueType.DATE.problemWith(ok.getBytes(StandardCharsets.UTF_8)), ok);
    }
    for (String bad : new String[] {"2019-13-01", "yesterday", "20190231101530", "2019-03-01 "}) {
      assertTrue(ValueType.DATE.problemWith(bad.getBytes(StandardCharsets.UTF_8)) != null, bad);
    }
    assertNull(ValueType.DATE.problemWith(new byte[] {0, 0, 1, 2, 3, 4, 5, 6}), "epoch millis");
  }
}
