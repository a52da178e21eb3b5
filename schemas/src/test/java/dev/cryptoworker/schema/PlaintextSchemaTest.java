package dev.cryptoworker.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PlaintextSchemaTest {
  private static final String ADS = String.join("\n",
      "table: ads",
      "rowKey: { type: string }",
      "families:",
      "  e:",
      "    default: { type: bytes }",
      "    columns:",
      "      country: { type: string, values: [FR, DE] }",
      "      revenue: { type: long, box: PLAIN }",
      "");

  @Test
  void readsTypesAndDeclaredValuesWithEveryPolicyPlain() {
    PlaintextSchema ads = PlaintextSchema.parse(ADS, "ads.yaml");
    FamilySchema e = ads.table().family("e").orElseThrow();
    assertEquals(ColumnPolicy.of(BoxKind.PLAIN, ValueType.STRING), e.columns().get("country"));
    assertEquals(ColumnPolicy.of(BoxKind.PLAIN, ValueType.LONG), e.columns().get("revenue"));
    assertEquals(ValueType.STRING, ads.table().rowKeyPolicy().type());
    assertEquals(Optional.of(List.of("FR", "DE")), ads.declaredValues("e", "country"));
    assertEquals(Optional.empty(), ads.declaredValues("e", "revenue"));
  }

  @Test
  void readsRowsPerDeclaredValueInDeclaredOrder() {
    PlaintextSchema ads = PlaintextSchema.parse(ADS.replace("[FR, DE] }", "[FR, DE], rows: { DE: 30, FR: 70 } }"),
        "ads.yaml");
    assertEquals(Optional.of(List.of("FR", "DE")), ads.declaredValues("e", "country"));
    assertEquals(List.of("FR", "DE"), List.copyOf(ads.declaredRows("e", "country").orElseThrow().keySet()));
    assertEquals(70L, ads.declaredRows("e", "country").orElseThrow().get("FR"));
    assertEquals(Optional.empty(), ads.declaredRows("e", "revenue"));
  }

  /** Values YAML would misread unquoted (a colon, a boolean word, quotes, a line separator) read back as written. */
  @Test
  void aColumnEntryReadsBackItsValuesAndRows() {
    Map<String, Long> rows = new LinkedHashMap<>();
    rows.put("FR", 70L);
    rows.put("a: b", 20L);
    rows.put("yes", 7L);
    rows.put("say \"hi\"\u2028now", 3L);
    String entry = PlaintextSchema.columnEntry("country", ValueType.STRING, rows);
    PlaintextSchema ads = PlaintextSchema.parse(ADS.replace("country: { type: string, values: [FR, DE] }", entry),
        "ads.yaml");
    assertEquals(Optional.of(List.copyOf(rows.keySet())), ads.declaredValues("e", "country"));
    assertEquals(rows, ads.declaredRows("e", "country").orElseThrow());
  }

  @Test
  void refusesRowsThatDoNotCountEachDeclaredValueOnce() {
    assertEquals("ads.yaml:7: table ads, families.e.columns.country.rows: gives no count for the declared value 'DE'"
        + " (one count per declared value)", refusal("[FR, DE], rows: { FR: 70 } }"));
    assertEquals("ads.yaml:7: table ads, families.e.columns.country.rows.IT: counts 'IT', which values: [..] does"
        + " not declare", refusal("[FR, DE], rows: { FR: 70, DE: 30, IT: 1 } }"));
    assertEquals("ads.yaml:7: table ads, families.e.columns.country.rows.DE: must be a count of rows, 0 or more",
        refusal("[FR, DE], rows: { FR: 70, DE: -3 } }"));
    assertEquals("ads.yaml:7: table ads, families.e.columns.country.rows.DE: must be a count of rows, 0 or more",
        refusal("[FR, DE], rows: { FR: 70, DE: many } }"));
    assertEquals("ads.yaml:7: table ads, families.e.columns.country.rows: counts no row at all",
        refusal("[FR, DE], rows: { FR: 0, DE: 0 } }"));
    InvalidSchemaException noValues = assertThrows(InvalidSchemaException.class, () -> PlaintextSchema.parse(
        ADS.replace("type: string, values: [FR, DE] }", "type: string, rows: { FR: 1 } }"), "ads.yaml"));
    assertEquals("ads.yaml:7: table ads, families.e.columns.country.rows: counts the rows of declared values:"
        + " declare the column's values: [..] too", noValues.getMessage());
  }

  private static String refusal(String countryEntry) {
    return assertThrows(InvalidSchemaException.class,
        () -> PlaintextSchema.parse(ADS.replace("[FR, DE] }", countryEntry), "ads.yaml")).getMessage();
  }

  @Test
  void refusesBoxesRepeatedValuesAndValuesOutsideColumnsAtTheirLine() {
    InvalidSchemaException boxed = assertThrows(InvalidSchemaException.class,
        () -> PlaintextSchema.parse(ADS.replace("box: PLAIN", "box: ASHE"), "ads.yaml"));
    assertEquals("ads.yaml:8: table ads, families.e.columns.revenue.box: a plaintext schema gives no box (or PLAIN):"
        + " the planner chooses them", boxed.getMessage());
    InvalidSchemaException twice = assertThrows(InvalidSchemaException.class,
        () -> PlaintextSchema.parse(ADS.replace("[FR, DE]", "[FR, FR]"), "ads.yaml"));
    assertEquals("ads.yaml:7: table ads, families.e.columns.country.values: declares the column's possible values:"
        + " at least one, each once", twice.getMessage());
    InvalidSchemaException onDefault = assertThrows(InvalidSchemaException.class,
        () -> PlaintextSchema.parse(ADS.replace("default: { type: bytes }", "default: { type: bytes, values: [x] }"),
            "ads.yaml"));
    assertEquals(5, onDefault.line(), onDefault.getMessage());
  }
}
