package dev.cryptoworker.layout.packed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.packs.PackPadding;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.schema.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The PACKED {@code layout:} section, read through the installed {@link PackedLayoutProvider}. */
class PackedTableLayoutTest {
  private static final String PACKED = String.join("\n",
      "table: records",
      "rowKey: { box: OPE, type: long }",
      "layout: { type: PACKED, mode: GENERIC, rowsPerPack: 50, compression: ZSTD, dictionary: true,"
          + " padding: [1024, 4096, 16384] }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "");

  private static InvalidSchemaException refused(String yaml) {
    return assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(yaml, "t.yaml"));
  }

  @Test
  void readsPackedLayoutsWithDefaultsAndWritesThemBack() {
    TableSchema packed = TableSchema.parse(PACKED);
    assertEquals(new PackedTableLayout(PackMode.GENERIC, 50, PackCompression.ZSTD, true,
        PackPadding.tiers(List.of(1024, 4096, 16384)), TableLayout.DEFAULT_CLUSTER), packed.layout());
    assertEquals(packed, TableSchema.parse(packed.toYaml()));
    TableSchema defaults = TableSchema.parse(PACKED.replaceFirst("layout: .*",
        "layout: { type: packed, mode: append, cluster: west }"));
    assertEquals(new PackedTableLayout(PackMode.APPEND, 50, PackCompression.ZSTD, false, PackPadding.padme(), "west"),
        defaults.layout());
    assertEquals(defaults, TableSchema.parse(defaults.toYaml()));
    TableSchema epochs = TableSchema.parse(PACKED.replaceFirst("layout: .*",
        "layout: { type: PACKED, mode: APPEND, epochMillis: 5000, leaseMillis: 800 }"));
    assertEquals(new PackedTableLayout(PackMode.APPEND, 50, PackCompression.ZSTD, false, PackPadding.padme(),
        TableLayout.DEFAULT_CLUSTER, 5000, 800), epochs.layout());
    assertEquals(epochs, TableSchema.parse(epochs.toYaml()));
  }

  /** A pack holds the families its schema lists: unlisted ones cannot be kept beside them unprotected. */
  @Test
  void refusesUnlistedPlainFamilies() {
    InvalidSchemaException e = refused(PACKED.replace("families:", "unlistedFamilies: PLAIN\nfamilies:"));
    assertEquals("t.yaml:4: unlistedFamilies: PLAIN needs a layout that stores each family as it is (CELL); PACKED"
        + " stores only the families the schema lists", e.getMessage());
  }

  /** Packs are padded with Padmé unless the schema says NONE or gives tiers. */
  @Test
  void packsArePaddedWithPadmeUnlessTheSchemaSaysOtherwise() {
    for (String[] c : new String[][] {{"", "PADME"}, {", padding: padme", "PADME"}, {", padding: NONE", "NONE"},
        {", padding: []", "NONE"}, {", padding: [512, 2048]", "TIERS"}}) {
      TableSchema s = TableSchema.parse(PACKED.replaceFirst("layout: .*", "layout: { type: PACKED" + c[0] + " }"));
      PackPadding padding = ((PackedTableLayout) s.layout()).padding();
      assertEquals(c[1], padding instanceof PackPadding.Padme ? "PADME" : padding instanceof PackPadding.None ? "NONE"
          : "TIERS", c[0]);
      assertEquals(s, TableSchema.parse(s.toYaml()), "written back: " + c[0]);
    }
    assertTrue(refused(PACKED.replace("[1024, 4096, 16384]", "SOME")).getMessage()
        .contains("layout.padding: padding is PADME (the default), NONE, or a list of ascending sizes"));
  }

  @Test
  void epochAndLeaseLengthsBelongToAppendModeAndAreBounded() {
    assertTrue(refused(PACKED.replace("rowsPerPack: 50", "rowsPerPack: 50, epochMillis: 5000")).getMessage()
        .contains("layout.epochMillis: epochMillis applies to mode APPEND only (this table is GENERIC)"));
    assertTrue(refused(PACKED.replaceFirst("layout: .*", "layout: { type: PACKED, mode: APPEND, leaseMillis: 5 }"))
        .getMessage().contains("leaseMillis must be between 100 and 600000 milliseconds, got 5"));
  }

  @Test
  void appendEntriesArePaddedToTiersThatCanBeChanged() {
    TableSchema defaults = TableSchema.parse(PACKED.replaceFirst("layout: .*", "layout: { type: PACKED, mode: APPEND }"));
    assertEquals(List.of(128, 256, 512, 1024, 2048, 4096), ((PackedTableLayout) defaults.layout()).entryPadding());
    TableSchema none = TableSchema.parse(PACKED.replaceFirst("layout: .*",
        "layout: { type: PACKED, mode: APPEND, entryPadding: [] }"));
    assertEquals(List.of(), ((PackedTableLayout) none.layout()).entryPadding());
    assertEquals(none, TableSchema.parse(none.toYaml()));
    assertTrue(refused(PACKED.replace("rowsPerPack: 50", "rowsPerPack: 50, entryPadding: [256]")).getMessage()
        .contains("layout.entryPadding: entryPadding applies to mode APPEND only (this table is GENERIC)"));
    assertTrue(refused(PACKED.replaceFirst("layout: .*", "layout: { type: PACKED, mode: APPEND, entryPadding: [512, 256] }"))
        .getMessage().contains("padding tiers must be positive and ascending"));
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
