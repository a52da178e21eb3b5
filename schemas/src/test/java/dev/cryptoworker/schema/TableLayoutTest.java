package dev.cryptoworker.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code layout:} section: CELL (optionally on a named cluster), SHARED over independent clusters, PACKED. */
class TableLayoutTest {
  private static final String SHARED = String.join("\n",
      "table: records",
      "rowKey: { box: DET }",
      "layout: { type: SHARED, scheme: SECURE_RAID, n: 4, r: 1, z: 1, clusters: [east, west, north, south] }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "");

  private static InvalidSchemaException refused(String yaml) {
    return assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(yaml, "t.yaml"));
  }

  @Test
  void readsSharedAndCellLayoutsAndWritesThemBack() {
    TableSchema shared = TableSchema.parse(SHARED);
    TableLayout.Shared layout = (TableLayout.Shared) shared.layout();
    assertEquals(SharingKind.SECURE_RAID, layout.scheme());
    assertEquals(new SharingParameters(4, 1, 1), layout.parameters());
    assertEquals(List.of("east", "west", "north", "south"), layout.clusters());
    assertEquals(shared, TableSchema.parse(shared.toYaml()));

    TableSchema plain = TableSchema.parse(SHARED.replace(
        "layout: { type: SHARED, scheme: SECURE_RAID, n: 4, r: 1, z: 1, clusters: [east, west, north, south] }",
        "layout: { type: CELL, cluster: west }"));
    assertEquals(new TableLayout.Cell("west"), plain.layout());
    assertEquals(plain, TableSchema.parse(plain.toYaml()));
    assertEquals(TableLayout.cell(), ExampleSchemas.patients().layout());
  }

  @Test
  void impossibleParametersAreRefusedAtTheirLine() {
    InvalidSchemaException e = refused(SHARED.replace("r: 1, z: 1", "r: 2, z: 2"));
    assertEquals(3, e.line());
    assertTrue(e.getMessage().contains("t.yaml:3: layout: z + r must be below n (z=2, r=2, n=4)"), e.getMessage());
    assertTrue(refused(SHARED.replace("n: 4", "n: four")).getMessage().contains("must be a whole number"));
    assertTrue(refused(SHARED.replace("SECURE_RAID", "RAID6")).getMessage().contains("unknown scheme 'RAID6'"));
    assertTrue(refused(SHARED.replace(", north, south", ", north")).getMessage()
        .contains("n is 4 but 3 clusters are named"));
    assertTrue(refused(SHARED.replace("north, south", "north, east")).getMessage()
        .contains("cluster 'east' is named twice"));
    assertTrue(refused(SHARED.replace("type: SHARED", "type: TILES")).getMessage()
        .contains("unknown layout type 'TILES'"));
  }

  @Test
  void sharedTablesShareEveryValueUnderRowKeysEveryClusterStoresAlike() {
    InvalidSchemaException rowKey = refused(SHARED.replace("rowKey: { box: DET }", "rowKey: { box: STD }"));
    assertTrue(rowKey.getMessage().contains("t.yaml:2: rowKey: a SHARED table needs row keys every cluster"
        + " stores alike"), rowKey.getMessage());
    InvalidSchemaException column = refused(SHARED + "    columns:\n      id: { box: DET }\n");
    assertTrue(column.getMessage().contains("families.f.columns.id: a SHARED table shares every value"),
        column.getMessage());
    // The builder refuses the same way, naming the YAML path.
    InvalidSchemaException built = assertThrows(InvalidSchemaException.class, () -> TableSchema.builder("t")
        .rowKey(ColumnPolicy.of(BoxKind.DET))
        .layout(new TableLayout.Shared(SharingKind.SHAMIR, new SharingParameters(3, 1, 1), List.of("a", "b", "c")))
        .family(FamilySchema.builder("f").defaultPolicy(ColumnPolicy.of(BoxKind.OPE)).build())
        .build());
    assertTrue(built.getMessage().contains("families.f.default: a SHARED table shares every value"),
        built.getMessage());
  }

  private static final String PACKED = String.join("\n",
      "table: records",
      "rowKey: { box: OPE, type: long }",
      "layout: { type: PACKED, mode: GENERIC, rowsPerPack: 50, compression: ZSTD, dictionary: true,"
          + " padding: [1024, 4096, 16384] }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "");

  @Test
  void readsPackedLayoutsWithDefaultsAndWritesThemBack() {
    TableSchema packed = TableSchema.parse(PACKED);
    assertEquals(new TableLayout.Packed(PackMode.GENERIC, 50, PackCompression.ZSTD, true, List.of(1024, 4096, 16384),
        TableLayout.DEFAULT_CLUSTER), packed.layout());
    assertEquals(packed, TableSchema.parse(packed.toYaml()));
    TableSchema defaults = TableSchema.parse(PACKED.replaceFirst("layout: .*",
        "layout: { type: packed, mode: append, cluster: west }"));
    assertEquals(new TableLayout.Packed(PackMode.APPEND, 50, PackCompression.ZSTD, false, List.of(), "west"),
        defaults.layout());
    assertEquals(defaults, TableSchema.parse(defaults.toYaml()));
    TableSchema epochs = TableSchema.parse(PACKED.replaceFirst("layout: .*",
        "layout: { type: PACKED, mode: APPEND, epochMillis: 5000, leaseMillis: 800 }"));
    assertEquals(new TableLayout.Packed(PackMode.APPEND, 50, PackCompression.ZSTD, false, List.of(),
        TableLayout.DEFAULT_CLUSTER, 5000, 800), epochs.layout());
    assertEquals(epochs, TableSchema.parse(epochs.toYaml()));
  }

  @Test
  void epochAndLeaseLengthsBelongToAppendModeAndAreBounded() {
    assertTrue(refused(PACKED.replace("rowsPerPack: 50", "rowsPerPack: 50, epochMillis: 5000")).getMessage()
        .contains("layout.epochMillis: epochMillis applies to mode APPEND only (this table is GENERIC)"));
    assertTrue(refused(PACKED.replaceFirst("layout: .*", "layout: { type: PACKED, mode: APPEND, leaseMillis: 5 }"))
        .getMessage().contains("leaseMillis must be between 100 and 600000 milliseconds, got 5"));
  }

  @Test
  void packedTablesRefuseWhatCannotWorkInsidePacks() {
    assertTrue(refused(PACKED.replace("rowsPerPack: 50", "rowsPerPack: 0")).getMessage()
        .contains("t.yaml:3: layout.rowsPerPack: rowsPerPack must be between 1 and 10000, got 0"));
    assertTrue(refused(PACKED.replace("compression: ZSTD", "compression: LZ4")).getMessage()
        .contains("LZ4 has no dictionaries"));
    assertTrue(refused(PACKED.replace("compression: ZSTD", "compression: BROTLI")).getMessage()
        .contains("unknown compression 'BROTLI' (expected one of NONE, ZSTD, LZ4, DEFLATE)"));
    assertTrue(refused(PACKED.replace("[1024, 4096, 16384]", "[4096, 1024]")).getMessage()
        .contains("padding tiers must be positive and ascending"));
    assertTrue(refused(PACKED.replace("dictionary: true", "dictionary: maybe")).getMessage()
        .contains("true or false"));
    assertTrue(refused(PACKED.replace("mode: GENERIC", "mode: BATCH")).getMessage()
        .contains("unknown mode 'BATCH'"));
    InvalidSchemaException rowKey = refused(PACKED.replace("rowKey: { box: OPE, type: long }", "rowKey: { box: STD }"));
    assertTrue(rowKey.getMessage().contains("t.yaml:2: rowKey: a PACKED table needs row keys it can find packs by"),
        rowKey.getMessage());
    for (String box : List.of("DET", "OPE, type: long", "ASHE, type: long", "SSE, type: string")) {
      InvalidSchemaException column = refused(PACKED + "    columns:\n      id: { box: " + box + " }\n");
      assertTrue(column.getMessage().contains("families.f.columns.id: a PACKED table keeps its values inside encrypted"
          + " packs"), column.getMessage());
    }
    TableSchema plainColumns = TableSchema.parse(PACKED + "    columns:\n      id: { box: PLAIN }\n");
    assertEquals("PACKED", plainColumns.layout().type());
  }
}
