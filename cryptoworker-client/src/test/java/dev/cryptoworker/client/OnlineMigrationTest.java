package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.keys.KeysetKey;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import dev.cryptoworker.testing.PatientsUnderLoad;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Online migration ({@link TableMigration}) on a real HBase: a column moves from DET to SSE while
 * writers and readers use the table through a migrating {@link SecureConnection}; a re-key moves
 * every value to the primary key; unsupported changes are refused.
 */
@ExtendWith(SharedHBaseCluster.class)
class OnlineMigrationTest {
  private static final byte[] ID = PatientsUnderLoad.ID;
  private static final byte[] MAIN_ID = PatientsUnderLoad.MAIN_ID;
  private static final int ROWS = 800;
  /** Rows p-0000 to p-0399 are updated by the writers; the rest never change. */
  private static final int UPDATED = 400;

  @TempDir Path dir;

  private static final String YAML = String.join("\n",
      "table: migration",
      "rowKey: { box: DET, type: string }",
      "families:",
      "  identification:",
      "    default: { box: STD, type: string }",
      "    columns:",
      "      mainId: { box: DET, type: string }",
      "  contacts:",
      "    default: { box: STD, type: string }",
      "");

  private static TableSchema withMainId(TableSchema schema, BoxKind box) {
    FamilySchema f = schema.family("identification").orElseThrow();
    return schema.toBuilder().family(f.toBuilder().column("mainId", ColumnPolicy.of(box, ValueType.STRING)).build())
        .build();
  }

  @Test
  void detToSseWhileFourWritersAndFourReadersRun(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema old = SecureFixture.schema("migration", YAML);
    TableSchema target = withMainId(old, BoxKind.SSE);
    Map<String, String> expected;
    try (SecureConnection before = SecureFixture.createSecure(hbase, keys, old);
        Table t = before.getTable(SecureFixture.name(old))) {
      expected = PatientsUnderLoad.load(t, ROWS);
    }

    TableMigration migration = TableMigration.builder().connection(hbase).keys(keys).from(old).to(target)
        .checkpointEvery(50).maxRowsPerSecond(400).build();
    TableMigration.Counts counts;
    try (SecureConnection app = SecureConnection.builder().connection(hbase).keys(keys).schema(target)
        .migratingFrom(old).build();
        PatientsUnderLoad load = PatientsUnderLoad.start(() -> app.getTable(SecureFixture.name(target)), expected,
            ROWS, UPDATED, 4, 4)) {
      counts = migration.run(false, c -> { });
      Thread.sleep(300); // writers and readers go on a moment in the new form only
    }
    assertTrue(counts.done());
    assertEquals(0, counts.rowsFailed(), migration.failures().toString());
    assertEquals(counts.rowsRead(), counts.rowsRewritten() + counts.rowsSkipped());
    assertTrue(counts.rowsRewritten() >= ROWS - UPDATED, counts.toString());

    // Read with the target schema alone: every cell decodes in its new form, no write was lost.
    try (SecureConnection strict = SecureConnection.wrap(hbase, keys, List.of(target));
        Table t = strict.getTable(SecureFixture.name(target))) {
      Map<String, String> stored = new TreeMap<>();
      for (Result r : SecureFixture.scanAll(t, new Scan())) {
        stored.put(Bytes.toString(r.getRow()), Bytes.toString(r.getValue(ID, MAIN_ID)));
      }
      assertEquals(new TreeMap<>(expected), stored);
      strict.inspector(SecureFixture.name(target)).forEachRow(cells -> {
        for (InspectedCell cell : cells) {
          assertTrue(cell.problem().isEmpty(), cell.problem().orElse(""));
        }
      });
      // Searches now go through the SSE index, and find exactly the row holding each value.
      int checked = 0;
      for (Map.Entry<String, String> e : new TreeMap<>(expected).entrySet()) {
        if (checked++ % 25 == 0) {
          assertEquals(List.of(e.getKey()), PatientsUnderLoad.rowsWithMainId(t, e.getValue()), e.getValue());
        }
      }
    }

    // Done: running again is a no-op; restarting finds nothing left to rewrite.
    assertEquals(counts, migration.run(false, c -> { }));
    TableMigration.Counts again = migration.run(true, c -> { });
    assertEquals(0, again.rowsRewritten(), again.toString());
    assertEquals(again.rowsRead(), again.rowsSkipped());
  }

  @Test
  void rekeyMovesEveryProtectedValueToThePrimaryKey(Connection hbase) throws Exception {
    KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(new byte[32]);
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek);
    TableSchema schema = withMainId(SecureFixture.schema("rekey", YAML), BoxKind.SSE);
    int oldest;
    try (SecureConnection before = SecureFixture.createSecure(hbase, KeyProvider.fromKeysetFile(keyset, kek), schema);
        Table t = before.getTable(SecureFixture.name(schema))) {
      for (int i = 0; i < 50; i++) {
        t.put(PatientsUnderLoad.patient(PatientsUnderLoad.row(i), "m-" + i));
      }
      oldest = KeysetFiles.describe(keyset, kek).get(0).id();
    }
    KeysetFiles.rotate(keyset, kek);
    int primary = KeysetFiles.describe(keyset, kek).stream().filter(KeysetKey::primary).findFirst().orElseThrow().id();
    KeyProvider keys = KeyProvider.fromKeysetFile(keyset, kek);

    TableMigration migration = TableMigration.builder().connection(hbase).keys(keys).from(schema).to(schema)
        .rekey(true).build();
    assertTrue(migration.describe().contains("re-encrypted under primary key " + Integer.toUnsignedString(primary, 16)),
        migration.describe());
    TableMigration.Counts counts = migration.run(false, c -> { });
    assertEquals(new TableMigration.Counts(50, 50, 0, 0, true), counts);

    try (SecureConnection after = SecureConnection.wrap(hbase, keys, List.of(schema));
        Table t = after.getTable(SecureFixture.name(schema))) {
      List<InspectedCell> all = new ArrayList<>();
      after.inspector(SecureFixture.name(schema)).forEachRow(all::addAll);
      assertEquals(50 * 3, all.size()); // mainId, its index entry, phone
      for (InspectedCell cell : all) {
        assertTrue(cell.problem().isEmpty());
        assertEquals(primary, cell.valueKeyId().getAsInt());
        assertEquals(oldest, cell.rowKeyId().getAsInt()); // row keys stay under the oldest key
      }
      assertEquals(List.of(PatientsUnderLoad.row(7)), PatientsUnderLoad.rowsWithMainId(t, "m-7"));
    }
  }

  @Test
  void unsupportedChangesAndOperationsAreRefusedNamingWhy(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema old = SecureFixture.schema("refusals", YAML);
    TableSchema sse = withMainId(old, BoxKind.SSE);
    UnsupportedOperationException rowKey = assertThrows(UnsupportedOperationException.class,
        () -> ColumnMigration.between(old, old.toBuilder().rowKey(ColumnPolicy.of(BoxKind.OPE, ValueType.STRING)).build()));
    assertTrue(rowKey.getMessage().contains("row key"), rowKey.getMessage());
    UnsupportedOperationException qualifiers = assertThrows(UnsupportedOperationException.class,
        () -> ColumnMigration.between(old, old.toBuilder().family(old.family("contacts").orElseThrow().toBuilder()
            .protectQualifiers(true).build()).build()));
    assertTrue(qualifiers.getMessage().contains("family contacts: changing protectQualifiers"), qualifiers.getMessage());
    UnsupportedOperationException offSse = assertThrows(UnsupportedOperationException.class,
        () -> ColumnMigration.between(sse, old));
    assertTrue(offSse.getMessage().contains("column identification:mainId: moving a column off SSE"), offSse.getMessage());
    IllegalArgumentException nothing = assertThrows(IllegalArgumentException.class,
        () -> TableMigration.builder().connection(hbase).keys(keys).from(old).to(old).build());
    assertTrue(nothing.getMessage().contains("nothing to migrate"), nothing.getMessage());
    assertEquals("identification:mainId DET -> SSE", ColumnMigration.between(old, sse).describe());

    SecureFixture.createSecure(hbase, keys, old).close();
    try (SecureConnection app = SecureConnection.builder().connection(hbase).keys(keys).schema(sse).migratingFrom(old)
        .build(); Table t = app.getTable(SecureFixture.name(sse))) {
      t.put(PatientsUnderLoad.patient(PatientsUnderLoad.row(1), "m-1"));
      UnsupportedSecureOperationException condition = assertThrows(UnsupportedSecureOperationException.class,
          () -> t.checkAndMutate(CheckAndMutate.newBuilder(Bytes.toBytes(PatientsUnderLoad.row(1)))
              .ifEquals(ID, MAIN_ID, Bytes.toBytes("m-1")).build(PatientsUnderLoad.patient(PatientsUnderLoad.row(1), "m-2"))));
      assertTrue(condition.getMessage().contains("column being migrated"), condition.getMessage());
      // A condition on a column that does not change still runs on the server.
      byte[] three = Bytes.toBytes(PatientsUnderLoad.row(3));
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(three).ifNotExists(Bytes.toBytes("contacts"),
          Bytes.toBytes("phone")).build(PatientsUnderLoad.patient(PatientsUnderLoad.row(3), "m-3"))).isSuccess());
      assertEquals("m-3", Bytes.toString(t.get(new Get(three)).getValue(ID, MAIN_ID)));
    }
  }
}
