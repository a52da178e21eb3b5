package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.client.migrate.ColumnMigration;
import dev.cryptoworker.client.migrate.TableMigration;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.keys.KeysetKey;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.ValueType;
import dev.cryptoworker.testing.PatientsUnderLoad;
import dev.cryptoworker.testing.SharedHBaseCluster;
import dev.cryptoworker.testing.TestSize;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Online migration ({@link TableMigration}) on a real HBase: a column moves from DET to SSE while
 * writers and readers use the table through a migrating {@link SecureConnection}; a re-key moves
 * every value to the primary key; unsupported changes are refused.
 */
@ExtendWith(SharedHBaseCluster.class)
@Order(2) // long classes start first, beside the others
class OnlineMigrationTest {
  private static final byte[] ID = PatientsUnderLoad.ID;
  private static final byte[] MAIN_ID = PatientsUnderLoad.MAIN_ID;
  private static final int ROWS = TestSize.scaled(800);
  /** The first half of the rows is updated by the writers; the rest never change. */
  private static final int UPDATED = ROWS / 2;
  private static final int ROWS_REKEYED = 200;

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
    // The sequence of docs/operations.md (online migration): the table prepared first; a client with
    // the new schema refuses it before.
    try (SecureConnection early = SecureConnection.builder().connection(hbase).keys(keys).schema(target)
        .migratingFrom(old).build()) {
      IllegalStateException refused = assertThrows(IllegalStateException.class,
          () -> early.getTable(SecureFixture.name(target)));
      assertTrue(refused.getMessage().contains("needs the region-side observer") && refused.getMessage()
          .contains("--prepare-only"), refused.getMessage());
    }
    migration.prepare();
    TableMigration.Counts counts;
    try (SecureConnection app = SecureConnection.builder().connection(hbase).keys(keys).schema(target)
        .migratingFrom(old).build()) {
      PatientsUnderLoad load = PatientsUnderLoad.start(() -> app.getTable(SecureFixture.name(target)), expected,
          ROWS, UPDATED, 4, 4);
      try {
        counts = migration.run(false, c -> { });
        Thread.sleep(300); // writers and readers go on a moment in the new form only
      } finally {
        load.close();
      }
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
  void fullRekeyMovesRowsWhileTheTableIsInUseThenTheOldKeyIsRetired(Connection hbase) throws Exception {
    KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(new byte[32]);
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek);
    TableSchema schema = withMainId(SecureFixture.schema("rekey", YAML), BoxKind.SSE);
    int oldest;
    try (SecureConnection before = SecureFixture.createSecure(hbase, KeyProvider.fromKeysetFile(keyset, kek), schema);
        Table t = before.getTable(SecureFixture.name(schema))) {
      PatientsUnderLoad.load(t, ROWS_REKEYED);
      oldest = KeysetFiles.describe(keyset, kek).get(0).id();
    }
    KeysetFiles.rotate(keyset, kek);
    int primary = KeysetFiles.describe(keyset, kek).stream().filter(KeysetKey::primary).findFirst().orElseThrow().id();
    KeyProvider keys = KeyProvider.fromKeysetFile(keyset, kek);

    TableMigration migration = TableMigration.builder().connection(hbase).keys(keys).from(schema).to(schema)
        .rekey(true).cleanupDelay(Duration.ofMillis(200)).build();
    assertTrue(migration.describe().contains("re-encrypted under primary key " + Integer.toUnsignedString(primary, 16)
        + ", row keys and qualifier names too"), migration.describe());
    Map<String, String> expected;
    try (SecureConnection before = SecureConnection.wrap(hbase, keys, List.of(schema));
        Table t = before.getTable(SecureFixture.name(schema))) {
      expected = new java.util.concurrent.ConcurrentHashMap<>();
      for (Result r : SecureFixture.scanAll(t, new Scan())) {
        expected.put(Bytes.toString(r.getRow()), Bytes.toString(r.getValue(ID, MAIN_ID)));
      }
    }
    TableMigration.Counts counts;
    try (SecureConnection app = SecureConnection.builder().connection(hbase).keys(keys).schema(schema)
        .migratingFrom(schema, true).build()) {
      PatientsUnderLoad load = PatientsUnderLoad.start(() -> app.getTable(SecureFixture.name(schema)), expected,
          ROWS_REKEYED, ROWS_REKEYED / 2, 2, 2);
      try {
        counts = migration.run(false, c -> { });
        Thread.sleep(200);
      } finally {
        load.close();
      }
    }
    assertEquals(0, counts.rowsFailed(), migration.failures().toString());
    assertEquals(ROWS_REKEYED, counts.oldRowsDeleted(), counts.toString()); // every old row moved
    assertTrue(counts.done());

    // A client that still names rows under the oldest key is told so, not answered with nothing.
    try (SecureConnection stale = SecureConnection.wrap(hbase, keys, List.of(schema))) {
      KeyMismatchException e = assertThrows(KeyMismatchException.class, () -> stale.getTable(SecureFixture.name(schema)));
      assertTrue(e.getMessage().contains("a re-key moved them"), e.getMessage());
    }

    // With the old key disabled, nothing depends on it: every cell reads, under the new key only.
    KeysetFiles.disable(keyset, kek, oldest, true);
    KeyProvider newKeys = KeyProvider.fromKeysetFile(keyset, kek);
    try (SecureConnection after = SecureConnection.wrap(hbase, newKeys, List.of(schema));
        Table t = after.getTable(SecureFixture.name(schema))) {
      Map<String, String> stored = new TreeMap<>();
      for (Result r : SecureFixture.scanAll(t, new Scan())) {
        stored.put(Bytes.toString(r.getRow()), Bytes.toString(r.getValue(ID, MAIN_ID)));
      }
      assertEquals(new TreeMap<>(expected), stored);
      List<InspectedCell> all = new ArrayList<>();
      after.inspector(SecureFixture.name(schema)).forEachRow(all::addAll);
      // Every version of every cell (writers overwrote some mainIds), all under the new key.
      assertEquals(stored.size(), all.stream().map(c -> Bytes.toStringBinary(c.storedRow())).distinct().count());
      for (InspectedCell cell : all) {
        assertTrue(cell.problem().isEmpty(), cell.problem().orElse(""));
        assertEquals(primary, cell.valueKeyId().getAsInt());
        assertEquals(primary, cell.rowKeyId().getAsInt());
      }
      // Searches of the SSE index: the rows written by the migration and by the writers are found.
      for (String row : List.of(PatientsUnderLoad.row(7), PatientsUnderLoad.row(150), "w0-0")) {
        assertEquals(List.of(row), PatientsUnderLoad.rowsWithMainId(t, expected.get(row)), row);
      }
    }
  }

  @Test
  void aRowKeyProtectionChangeMovesEveryRowAndRangesThenRunOnTheServer(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema det = SecureFixture.schema("rowmove", YAML);
    TableSchema ope = det.toBuilder().rowKey(ColumnPolicy.of(BoxKind.OPE, ValueType.STRING)).build();
    try (SecureConnection before = SecureFixture.createSecure(hbase, keys, det);
        Table t = before.getTable(SecureFixture.name(det))) {
      PatientsUnderLoad.load(t, 100);
    }
    TableMigration migration = TableMigration.builder().connection(hbase).keys(keys).from(det).to(ope)
        .cleanupDelay(Duration.ZERO).build();
    try (SecureConnection app = SecureConnection.builder().connection(hbase).keys(keys).schema(ope).migratingFrom(det)
        .build(); Table t = app.getTable(SecureFixture.name(ope))) {
      // Before the migration every row is in the old form, and reads through the new schema find it.
      assertEquals("m-42", Bytes.toString(t.get(new Get(Bytes.toBytes(PatientsUnderLoad.row(42)))).getValue(ID, MAIN_ID)));
      assertTrue(t.exists(new Get(Bytes.toBytes(PatientsUnderLoad.row(6)))));
      // A delete removes both forms: the old one here, so the migration has nothing to bring back.
      t.delete(new Delete(Bytes.toBytes(PatientsUnderLoad.row(5))));
      assertTrue(t.get(new Get(Bytes.toBytes(PatientsUnderLoad.row(5)))).isEmpty());
      // A write goes to the new form; a read merges it with the old one.
      t.put(new Put(Bytes.toBytes(PatientsUnderLoad.row(7))).addColumn(ID, MAIN_ID, Bytes.toBytes("m-7b")));
      Result seven = t.get(new Get(Bytes.toBytes(PatientsUnderLoad.row(7))));
      assertEquals("m-7b", Bytes.toString(seven.getValue(ID, MAIN_ID)));
      assertEquals("+351 " + PatientsUnderLoad.row(7), Bytes.toString(seven.getValue(Bytes.toBytes("contacts"),
          Bytes.toBytes("phone"))));
      UnsupportedSecureOperationException atomic = assertThrows(UnsupportedSecureOperationException.class,
          () -> t.incrementColumnValue(Bytes.toBytes(PatientsUnderLoad.row(8)), ID, Bytes.toBytes("n"), 1));
      assertTrue(atomic.getMessage().contains("rows are moving to new stored keys"), atomic.getMessage());
      assertEquals(99, SecureFixture.scanAll(t, new Scan()).size()); // each row once, though p-0007 is stored twice

      TableMigration.Counts counts = migration.run(false, c -> { });
      assertEquals(new TableMigration.Counts(100, 99, 1, 0, 99, true), counts); // p-0007 also in the new form
      assertEquals(99, SecureFixture.scanAll(t, new Scan()).size());
      assertEquals("m-7b", Bytes.toString(t.get(new Get(Bytes.toBytes(PatientsUnderLoad.row(7)))).getValue(ID, MAIN_ID)));
      BatchContract.check(t, Bytes.toBytes("contacts"), "zz-contract-"); // while rows move, batches keep it too
    }
    try (SecureConnection after = SecureConnection.wrap(hbase, keys, List.of(ope));
        Table t = after.getTable(SecureFixture.name(ope))) {
      List<Result> range = SecureFixture.scanAll(t, new Scan().withStartRow(Bytes.toBytes(PatientsUnderLoad.row(10)))
          .withStopRow(Bytes.toBytes(PatientsUnderLoad.row(20))));
      assertEquals(10, range.size());
      assertEquals(PatientsUnderLoad.row(10), Bytes.toString(range.get(0).getRow()));
      assertEquals("m-19", Bytes.toString(range.get(9).getValue(ID, MAIN_ID)));
    }
  }

  /**
   * A column moves off SSE (to DET): each row's rewrite deletes its index cell with the old value,
   * rows read right during the move, and afterwards no index cell is left and equality runs on the
   * servers over DET.
   */
  @Test
  void aColumnMovingOffSseLeavesNoIndexCellBehind(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema det = SecureFixture.schema("off_sse", YAML);
    TableSchema sse = withMainId(det, BoxKind.SSE);
    int rows = 40;
    try (SecureConnection before = SecureFixture.createSecure(hbase, keys, sse);
        Table t = before.getTable(SecureFixture.name(sse))) {
      PatientsUnderLoad.load(t, rows);
    }
    assertEquals(rows, indexCells(hbase, sse), "one index cell per row before");
    TableMigration migration = TableMigration.builder().connection(hbase).keys(keys).from(sse).to(det).build();
    migration.prepare();
    try (SecureConnection app = SecureConnection.builder().connection(hbase).keys(keys).schema(det).migratingFrom(sse)
        .build(); Table t = app.getTable(SecureFixture.name(det))) {
      assertEquals("m-7", Bytes.toString(t.get(new Get(Bytes.toBytes(PatientsUnderLoad.row(7)))).getValue(ID, MAIN_ID)));
      t.put(PatientsUnderLoad.patient(PatientsUnderLoad.row(3), "m-3b")); // written in the new form meanwhile
      TableMigration.Counts counts = migration.run(false, c -> { });
      assertEquals(rows, counts.rowsRewritten(), counts.toString());
      assertEquals("m-3b", Bytes.toString(t.get(new Get(Bytes.toBytes(PatientsUnderLoad.row(3)))).getValue(ID, MAIN_ID)));
    }
    assertEquals(0, indexCells(hbase, det), "index cells left behind");
    try (SecureConnection after = SecureConnection.wrap(hbase, keys, List.of(det));
        Table t = after.getTable(SecureFixture.name(det))) {
      assertEquals(List.of(PatientsUnderLoad.row(11)), PatientsUnderLoad.rowsWithMainId(t, "m-11"));
      assertEquals(List.of(PatientsUnderLoad.row(3)), PatientsUnderLoad.rowsWithMainId(t, "m-3b"));
    }
  }

  /** The stored search-index cells of {@code schema}'s table, every version. */
  private static int indexCells(Connection hbase, TableSchema schema) throws IOException {
    int n = 0;
    try (Table raw = hbase.getTable(SecureFixture.name(schema));
        ResultScanner scanner = raw.getScanner(new Scan().readAllVersions())) {
      for (Result r : scanner) {
        for (Cell c : r.rawCells()) {
          n += SearchIndexCells.isIndexQualifier(CellUtil.cloneQualifier(c)) ? 1 : 0;
        }
      }
    }
    return n;
  }

  @Test
  void unsupportedChangesAndOperationsAreRefusedNamingWhy(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema old = SecureFixture.schema("refusals", YAML);
    TableSchema sse = withMainId(old, BoxKind.SSE);
    UnsupportedOperationException rowKey = assertThrows(UnsupportedOperationException.class,
        () -> ColumnMigration.between(old, old.toBuilder().rowKey(ColumnPolicy.of(BoxKind.STD, ValueType.STRING)).build()));
    assertTrue(rowKey.getMessage().contains("row key: rows cannot move to or from STD row keys"), rowKey.getMessage());
    UnsupportedOperationException qualifiers = assertThrows(UnsupportedOperationException.class,
        () -> ColumnMigration.between(old, old.toBuilder().family(old.family("contacts").orElseThrow().toBuilder()
            .protectQualifiers(true).build()).build()));
    assertTrue(qualifiers.getMessage().contains("family contacts: changing protectQualifiers"), qualifiers.getMessage());
    IllegalArgumentException nothing = assertThrows(IllegalArgumentException.class,
        () -> TableMigration.builder().connection(hbase).keys(keys).from(old).to(old).build());
    assertTrue(nothing.getMessage().contains("nothing to migrate"), nothing.getMessage());
    assertEquals("identification:mainId DET -> SSE", ColumnMigration.between(old, sse).describe());

    SecureFixture.createSecure(hbase, keys, old).close();
    TableMigration.builder().connection(hbase).keys(keys).from(old).to(sse).build().prepare();
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
