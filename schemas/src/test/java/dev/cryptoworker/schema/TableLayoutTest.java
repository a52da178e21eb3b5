package dev.cryptoworker.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The {@code layout:} section of the built-in CELL layout (optionally on a named cluster), and
 * layouts whose module is not installed (PACKED and SHARED are tested in their modules).
 */
class TableLayoutTest {
  private static final String CELL = String.join("\n",
      "table: records",
      "rowKey: { box: DET }",
      "layout: { type: CELL, cluster: west }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "");

  private static InvalidSchemaException refused(String yaml) {
    return assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(yaml, "t.yaml"));
  }

  @Test
  void readsCellLayoutsAndWritesThemBack() {
    TableSchema west = TableSchema.parse(CELL);
    assertEquals(new TableLayout.Cell("west"), west.layout());
    assertEquals(java.util.List.of("west"), west.layout().clusters());
    assertEquals(west, TableSchema.parse(west.toYaml()));
    TableSchema lowerCase = TableSchema.parse(CELL.replace("type: CELL", "type: cell"));
    assertEquals(west, lowerCase);
    assertEquals(TableLayout.cell(), ExampleSchemas.patients().layout());
    assertEquals(TableLayout.cell(), TableSchema.parse(CELL.replace("layout: { type: CELL, cluster: west }\n", ""))
        .layout());
  }

  @Test
  void unknownKeysBlankClustersAndUninstalledLayoutsAreRefusedAtTheirLine() {
    assertTrue(refused(CELL.replace("cluster: west", "cluster: west, rows: 3")).getMessage()
        .contains("t.yaml:3: layout.rows: unknown key 'rows' (allowed here: type, cluster)"));
    assertTrue(refused(CELL.replace("cluster: west", "cluster: \" \"")).getMessage()
        .contains("must be a non-empty single value"));
    InvalidSchemaException uninstalled = refused(CELL.replace("type: CELL", "type: PACKED"));
    assertEquals(3, uninstalled.line());
    assertTrue(uninstalled.getMessage().contains("unknown layout type 'PACKED' (installed: CELL; PACKED and SHARED"
        + " need their modules, layout-packed and layout-shared, on the class path)"), uninstalled.getMessage());
    assertTrue(refused(CELL.replace("type: CELL", "type: TILES")).getMessage()
        .contains("unknown layout type 'TILES'"));
  }

  @Test
  void builtSchemasAreCheckedByTheirLayoutToo() {
    InvalidSchemaException blank = assertThrows(InvalidSchemaException.class, () -> TableSchema.builder("t")
        .rowKey(ColumnPolicy.of(dev.cryptoworker.cryptobox.BoxKind.DET))
        .layout(new TableLayout.Cell(" "))
        .family(FamilySchema.builder("f").defaultPolicy(ColumnPolicy.of(dev.cryptoworker.cryptobox.BoxKind.STD))
            .build())
        .build());
    assertTrue(blank.getMessage().contains("layout.cluster: a cluster name must not be blank"), blank.getMessage());
  }
}
