package dev.cryptoworker.layout.shared;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The SHARED {@code layout:} section, read through the installed {@link SharedLayoutProvider}. */
class SharedTableLayoutTest {
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
  void readsSharedLayoutsAndWritesThemBack() {
    TableSchema shared = TableSchema.parse(SHARED);
    SharedTableLayout layout = (SharedTableLayout) shared.layout();
    assertEquals(SharingKind.SECURE_RAID, layout.scheme());
    assertEquals(new SharingParameters(4, 1, 1), layout.parameters());
    assertEquals(List.of("east", "west", "north", "south"), layout.clusters());
    assertEquals(shared, TableSchema.parse(shared.toYaml()));

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
        .layout(new SharedTableLayout(SharingKind.SHAMIR, new SharingParameters(3, 1, 1), List.of("a", "b", "c")))
        .family(FamilySchema.builder("f").defaultPolicy(ColumnPolicy.of(BoxKind.OPE)).build())
        .build());
    assertTrue(built.getMessage().contains("families.f.default: a SHARED table shares every value"),
        built.getMessage());
  }

  @Test
  void conditionalWritesOnlyWhereAnyTwoWriteQuorumsShareACluster() {
    SharedLayoutProvider provider = new SharedLayoutProvider();
    assertEquals(Set.of(LayoutCapability.INSPECTION, LayoutCapability.BULK_LOAD, LayoutCapability.CHECK_AND_MUTATE),
        provider.capabilities(TableSchema.parse(SHARED).layout()), "n = 4, r = 1: quorums of 3 always meet");
    assertEquals(Set.of(LayoutCapability.INSPECTION, LayoutCapability.BULK_LOAD),
        provider.capabilities(TableSchema.parse(SHARED.replace("r: 1, z: 1", "r: 2, z: 1")).layout()),
        "n = 4, r = 2: two quorums of 2 can miss each other");
  }

  @Test
  void aSchemeOfNumbersNeedsLongColumnsAndGivesRegionSums() {
    String numbers = SHARED.replace("SECURE_RAID", "SHAMIR_P127").replace("{ box: STD }", "{ box: STD, type: long }");
    TableSchema schema = TableSchema.parse(numbers);
    SharedLayoutProvider provider = new SharedLayoutProvider();
    assertEquals(Set.of(LayoutCapability.INSPECTION, LayoutCapability.BULK_LOAD, LayoutCapability.CHECK_AND_MUTATE,
        LayoutCapability.REGION_WORK), provider.capabilities(schema.layout()));
    assertTrue(provider.needsRegionObserver(schema.layout()));
    assertTrue(!provider.needsRegionObserver(TableSchema.parse(SHARED).layout()), "GF(2^8) shares are never added");
    InvalidSchemaException column = refused(numbers + "    columns:\n      note: { box: STD, type: string }\n");
    assertTrue(column.getMessage().contains("families.f.columns.note: scheme SHAMIR_P127 shares signed 64-bit numbers"),
        column.getMessage());
    InvalidSchemaException untyped = refused(SHARED.replace("SECURE_RAID", "SHAMIR_P127"));
    assertTrue(untyped.getMessage().contains("t.yaml:6: families.f.default: scheme SHAMIR_P127"), untyped.getMessage());
  }

  @Test
  void summedColumnsAreLongColumnsNamedOnceInFamiliesThatStoreQualifiersAsTheyAre() {
    String summed = SHARED.replace("clusters: [east, west, north, south] }",
        "clusters: [east, west, north, south], summed: ['f:amount'] }")
        + "    columns:\n      amount: { box: STD, type: long }\n      note: { box: STD, type: string }\n";
    TableSchema schema = TableSchema.parse(summed);
    SharedTableLayout layout = (SharedTableLayout) schema.layout();
    assertEquals(List.of("f:amount"), layout.summed());
    assertEquals(schema, TableSchema.parse(schema.toYaml()));
    SharedLayoutProvider provider = new SharedLayoutProvider();
    assertTrue(provider.capabilities(layout).contains(LayoutCapability.REGION_WORK));
    assertTrue(provider.needsRegionObserver(layout));
    ColumnSchemes schemes = new ColumnSchemes(layout);
    assertEquals(SharingKind.SHAMIR_P127, schemes.of(toBytes("f"), toBytes("amount")).kind());
    assertEquals(SharingKind.SECURE_RAID, schemes.of(toBytes("f"), toBytes("note")).kind());
    assertEquals(3, schemes.threshold(), "Secure RAID's n - r, above SHAMIR_P127's z + 1");

    assertTrue(refused(summed.replace("'f:amount'", "'f:note'")).getMessage().contains("summed column 'f:note': a"
        + " summed column is shared as a signed 64-bit number"));
    assertTrue(refused(summed.replace("'f:amount'", "'f:nothing'")).getMessage().contains("the schema lists no column"
        + " f:nothing"));
    assertTrue(refused(summed.replace("'f:amount'", "amount")).getMessage().contains("write family:qualifier"));
    assertTrue(refused(summed.replace("'f:amount'", "'f:amount', 'f:amount'")).getMessage().contains("listed twice"));
    InvalidSchemaException protectedFamily = refused(summed.replace("    default: { box: STD }\n",
        "    default: { box: STD }\n    protectQualifiers: true\n"));
    assertTrue(protectedFamily.getMessage().contains("family f protects its qualifiers"), protectedFamily.getMessage());
    InvalidSchemaException noPrivacy = refused(summed.replace("SECURE_RAID", "AONT_RS").replace("z: 1", "z: 0"));
    assertTrue(noPrivacy.getMessage().contains("which needs z >= 1"), noPrivacy.getMessage());
  }
}
