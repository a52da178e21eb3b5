package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.client.migrate.TableMigration;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.ChildJvmCommand;
import dev.cryptoworker.testing.FaultInjection;
import dev.cryptoworker.testing.PatientsUnderLoad;
import dev.cryptoworker.testing.SharedHBaseCluster;
import dev.cryptoworker.testing.TestSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code cryptoworker migrate} on a real HBase: patients' mainId moves from DET to SSE while
 * writers and readers use the table; the command is killed with SIGKILL at 30% and run again.
 */
@ExtendWith(SharedHBaseCluster.class)
@Execution(ExecutionMode.CONCURRENT) // each test its own table, key set and files; the killed one takes longest
class MigrateCommandTest {
  private static final String KEK = KeyEncryptionKey.generateBase64();
  private static final Map<String, String> ENV = Map.of("CRYPTOWORKER_KEK", KEK);
  private static final int ROWS = TestSize.scaled(600);
  /** The first third of the rows is updated by the writers; the rest never change. */
  private static final int UPDATED = ROWS / 3;

  @TempDir Path dir;

  private String table;
  private Path oldSchema;
  private Path newSchema;
  private Path keyset;
  private String zookeeper;

  private static String schema(String table, String mainIdBox) {
    return String.join("\n",
        "table: " + table,
        "rowKey: { box: DET, type: string }",
        "families:",
        "  identification:",
        "    default: { box: STD, type: string }",
        "    columns:",
        "      mainId: { box: " + mainIdBox + ", type: string }",
        "  contacts:",
        "    default: { box: STD, type: string }",
        "");
  }

  private static KeyEncryptionKey kek() {
    return KeyEncryptionKey.fromEnvironment("CRYPTOWORKER_KEK", ENV);
  }

  private KeyProvider keys() throws Exception {
    return KeyProvider.fromKeysetFile(keyset, kek());
  }

  /** A table of {@link #ROWS} patients under the DET schema; the SSE schema beside it. */
  private void setUp(Connection hbase, Configuration conf, Map<String, String> expected) throws Exception {
    table = SharedHBaseCluster.uniqueTableName("migrate").getNameAsString();
    oldSchema = Files.writeString(dir.resolve("old.yaml"), schema(table, "DET"));
    newSchema = Files.writeString(dir.resolve("new.yaml"), schema(table, "SSE"));
    newKeysetOn(conf);
    TableSchema old = TableSchema.load(oldSchema);
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys(), List.of(old))) {
      secure.createTable(old);
      try (Table t = secure.getTable(TableName.valueOf(table))) {
        expected.putAll(PatientsUnderLoad.load(t, ROWS));
      }
    }
  }

  /** A fresh keyset file, and the shared cluster's quorum for the commands. */
  private void newKeysetOn(Configuration conf) throws Exception {
    keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek());
    zookeeper = conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort");
  }

  private List<String> migrateArgs(String... more) {
    List<String> args = new ArrayList<>(List.of("migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(),
        "--table", table, "--from", oldSchema.toString(), "--to", newSchema.toString()));
    args.addAll(Arrays.asList(more));
    return args;
  }

  @Test
  @FaultInjection
  void aMigrationKilledAt30PercentResumesAndFinishesWhileTheTableIsInUse(Connection hbase, Configuration conf)
      throws Exception {
    Map<String, String> expected = new ConcurrentHashMap<>();
    setUp(hbase, conf, expected);
    TableSchema old = TableSchema.load(oldSchema);
    TableSchema target = TableSchema.load(newSchema);
    // mainId moves from DET to SSE and everything to a new key, row keys included (rows move).
    String oldest = KeysetFiles.describe(keyset, kek()).get(0).hexId();
    KeysetFiles.rotate(keyset, kek());

    // The sequence of docs/operations.md. Step 0, the table prepared for SSE: until then the new schema is refused.
    try (SecureConnection early = SecureConnection.builder().connection(hbase).keys(keys()).schema(target)
        .migratingFrom(old, true).build()) {
      IllegalStateException refused = assertThrows(IllegalStateException.class,
          () -> early.getTable(TableName.valueOf(table)));
      assertTrue(refused.getMessage().contains("--prepare-only"), refused.getMessage());
    }
    Cli.Result prepared = Cli.run(ENV, migrateArgs("--rekey", "--prepare-only").toArray(new String[0]));
    assertEquals(0, prepared.exitCode(), prepared.out() + prepared.err());
    assertTrue(prepared.out().contains("prepared table " + table), prepared.out());
    // Step 1, the application switched to the new schema in migration mode: 4 writers, 4 readers.
    SecureConnection app = SecureConnection.builder().connection(hbase).keys(keys()).schema(target)
        .migratingFrom(old, true).build();
    PatientsUnderLoad load = PatientsUnderLoad.start(() -> app.getTable(TableName.valueOf(table)), expected, ROWS,
        UPDATED, 4, 4);

    // The command in its own JVM, killed with SIGKILL once its checkpoint passes 30% of the rows.
    List<String> command = ChildJvmCommand.java();
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), CryptoworkerCommand.class.getName()));
    command.addAll(migrateArgs("--rekey", "--checkpoint-every", "20", "--max-rows-per-second", "150", "--no-progress"));
    ProcessBuilder child = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("child.log").toFile());
    child.environment().put("CRYPTOWORKER_KEK", KEK);
    TableMigration probe = TableMigration.builder().connection(hbase).keys(keys()).from(old).to(target).rekey(true)
        .build();
    Process process = child.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    TableMigration.Counts atKill = null;
    while (System.nanoTime() < deadline && process.isAlive()) {
      TableMigration.Counts now = probe.checkpoint().orElse(null);
      if (now != null && now.rowsRead() >= ROWS * 3 / 10) {
        process.destroyForcibly(); // SIGKILL
        atKill = now;
        break;
      }
      Thread.sleep(20);
    }
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    String childLog = Files.readString(dir.resolve("child.log"));
    assertTrue(atKill != null, "the migration never reached 30%:\n" + childLog);
    TableMigration.Counts saved = probe.checkpoint().orElseThrow();
    assertFalse(saved.done(), saved.toString());
    assertTrue(saved.rowsRead() < ROWS, saved.toString());

    Cli.Result resumed = Cli.run(ENV, migrateArgs("--rekey", "--cleanup-delay", "1", "--no-progress")
        .toArray(new String[0]));
    assertEquals(0, resumed.exitCode(), resumed.out() + resumed.err());
    assertTrue(resumed.err().contains("resuming after"), resumed.err());
    assertTrue(resumed.out().startsWith("migrated table " + table + ": rows read "), resumed.out());
    assertTrue(resumed.out().contains("failed 0"), resumed.out());

    Thread.sleep(200);
    load.close();
    app.close();
    // Nothing is left under the old key: disabled, it is not missed.
    assertEquals(0, Cli.run(ENV, "keys", "disable", oldest, "--force", "--keyset", keyset.toString()).exitCode());

    // With the new schema alone: no write lost, every cell in its new form, searches from the index.
    try (SecureConnection strict = SecureConnection.wrap(hbase, keys(), List.of(target));
        Table t = strict.getTable(TableName.valueOf(table))) {
      Map<String, String> stored = new TreeMap<>();
      try (ResultScanner scanner = t.getScanner(new Scan())) {
        for (Result r : scanner) {
          stored.put(Bytes.toString(r.getRow()), Bytes.toString(r.getValue(PatientsUnderLoad.ID, PatientsUnderLoad.MAIN_ID)));
        }
      }
      assertEquals(new TreeMap<>(expected), stored);
      List<String> problems = new ArrayList<>();
      strict.inspector(TableName.valueOf(table)).forEachRow(cells -> {
        for (InspectedCell cell : cells) {
          cell.problem().ifPresent(problems::add);
        }
      });
      assertEquals(List.of(), problems);
      for (int i = UPDATED; i < ROWS; i += 37) {
        assertEquals(List.of(PatientsUnderLoad.row(i)), PatientsUnderLoad.rowsWithMainId(t, "m-" + i));
      }
    }
    Cli.Result audit = Cli.run(ENV, "audit", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--table", table,
        "--schema", newSchema.toString(), "--retiring", oldest);
    assertEquals(0, audit.exitCode(), audit.out() + audit.err());
  }

  @Test
  void afterAFullRekeyTheOldKeyIsDisabledAndTheAuditFindsNothingUnderIt(Connection hbase, Configuration conf)
      throws Exception {
    Map<String, String> expected = new TreeMap<>();
    setUp(hbase, conf, expected);
    String oldest = KeysetFiles.describe(keyset, kek()).get(0).hexId();
    assertEquals(0, Cli.run(ENV, "keys", "rotate", "--keyset", keyset.toString()).exitCode());

    Cli.Result rekey = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--table", table,
        "--from", oldSchema.toString(), "--rekey", "--cleanup-delay", "0", "--no-progress");
    assertEquals(0, rekey.exitCode(), rekey.out() + rekey.err());
    assertTrue(rekey.err().contains("row keys and qualifier names too"), rekey.err());
    assertTrue(rekey.out().contains("old forms of moved rows deleted " + ROWS), rekey.out());

    assertEquals(0, Cli.run(ENV, "keys", "disable", oldest, "--force", "--keyset", keyset.toString()).exitCode());
    Cli.Result audit = Cli.run(ENV, "audit", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--table", table,
        "--schema", oldSchema.toString(), "--retiring", oldest, "--json");
    assertEquals(0, audit.exitCode(), audit.out() + audit.err());
    JsonNode report = new ObjectMapper().readTree(audit.out());
    assertEquals(ROWS, report.get("rows").asLong());
    assertTrue(report.get("ok").asBoolean());
    try (SecureConnection after = SecureConnection.wrap(hbase, keys(), List.of(TableSchema.load(oldSchema)));
        Table t = after.getTable(TableName.valueOf(table))) {
      assertEquals("m-123", Bytes.toString(t.get(new Get(Bytes.toBytes(PatientsUnderLoad.row(123))))
          .getValue(PatientsUnderLoad.ID, PatientsUnderLoad.MAIN_ID)));
    }
  }

  /**
   * Tables with ASHE and SPLASHE columns can retire their oldest key too: the re-key moves their
   * rows and their identifier counters' names to the primary key, the audit finds nothing left
   * under the old one once it is disabled, sums come out right, and new rows lease identifiers
   * from the new counters.
   */
  @Test
  void aTableWithAsheAndSplasheColumnsRetiresItsOldestKey(Connection hbase, Configuration conf) throws Exception {
    table = SharedHBaseCluster.uniqueTableName("migrate_ashe").getNameAsString();
    Path schemaFile = Files.writeString(dir.resolve("sums.yaml"), String.join("\n",
        "table: " + table,
        "rowKey: { box: DET, type: string }",
        "families:",
        "  e:",
        "    default: { box: STD, type: string }",
        "    columns:",
        "      salary: { box: ASHE, type: long }",
        "      gender: { box: SPLASHE, values: [F, M], splays: [salary] }",
        ""));
    newKeysetOn(conf);
    TableSchema schema = TableSchema.load(schemaFile);
    byte[] e = Bytes.toBytes("e");
    byte[] salary = Bytes.toBytes("salary");
    int rows = TestSize.scaled(80);
    long[] women = new long[2]; // sum, count
    long total = 0;
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys(), List.of(schema))) {
      secure.createTable(schema);
      try (Table t = secure.getTable(TableName.valueOf(table))) {
        for (int i = 0; i < rows; i++) {
          String gender = i % 3 == 0 ? "F" : "M";
          t.put(new Put(Bytes.toBytes("p" + i)).addColumn(e, salary, Bytes.toBytes(1000L + i))
              .addColumn(e, Bytes.toBytes("gender"), Bytes.toBytes(gender)));
          total += 1000L + i;
          if (gender.equals("F")) {
            women[0] += 1000L + i;
            women[1]++;
          }
        }
      }
    }
    String oldest = KeysetFiles.describe(keyset, kek()).get(0).hexId();
    assertEquals(0, Cli.run(ENV, "keys", "rotate", "--keyset", keyset.toString()).exitCode());

    Cli.Result rekey = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--table", table,
        "--from", schemaFile.toString(), "--rekey", "--cleanup-delay", "0", "--no-progress");
    assertEquals(0, rekey.exitCode(), rekey.out() + rekey.err());
    assertTrue(rekey.err().contains("row keys and qualifier names too"), rekey.err());
    assertTrue(rekey.out().contains("old forms of moved rows deleted " + rows), rekey.out());

    assertEquals(0, Cli.run(ENV, "keys", "disable", oldest, "--force", "--keyset", keyset.toString()).exitCode());
    Cli.Result audit = Cli.run(ENV, "audit", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--table", table,
        "--schema", schemaFile.toString(), "--retiring", oldest, "--json");
    assertEquals(0, audit.exitCode(), audit.out() + audit.err());
    JsonNode report = new ObjectMapper().readTree(audit.out());
    assertEquals(rows, report.get("rows").asLong());
    assertTrue(report.get("ok").asBoolean(), audit.out());

    try (SecureConnection after = SecureConnection.wrap(hbase, keys(), List.of(schema));
        SecureTable t = after.getSecureTable(TableName.valueOf(table))) {
      SingleColumnValueFilter female = new SingleColumnValueFilter(e, Bytes.toBytes("gender"), CompareOperator.EQUAL,
          new BinaryComparator(Bytes.toBytes("F")));
      assertEquals(new AggregateResult(total, rows), t.aggregate(new Scan(), e, salary));
      assertEquals(new AggregateResult(women[0], women[1]), t.aggregate(new Scan().setFilter(female), e, salary));
      // New rows lease identifiers from the counters named under the new key (the old one is disabled).
      t.put(new Put(Bytes.toBytes("p-new")).addColumn(e, salary, Bytes.toBytes(5L))
          .addColumn(e, Bytes.toBytes("gender"), Bytes.toBytes("F")));
      assertEquals(new AggregateResult(total + 5, rows + 1), t.aggregate(new Scan(), e, salary));
      assertEquals(new AggregateResult(women[0] + 5, women[1] + 1), t.aggregate(new Scan().setFilter(female), e, salary));
    }
  }

  /**
   * What migrate refuses, copy does: the patients move into a new table whose contacts family
   * protects its qualifiers and whose mainId is SSE. Every row reads back under the new schema,
   * mainId is found through the index, and the new table's stored qualifiers hide "phone".
   */
  @Test
  void copyMovesRowsIntoANewTableUnderASchemaMigrateRefuses(Connection hbase, Configuration conf) throws Exception {
    Map<String, String> expected = new TreeMap<>();
    setUp(hbase, conf, expected);
    String copy = table + "_copy";
    Path copySchema = Files.writeString(dir.resolve("copy.yaml"), schema(copy, "SSE")
        .replace("  contacts:\n    default: { box: STD, type: string }\n",
            "  contacts:\n    default: { box: STD, type: string }\n    protectQualifiers: true\n"));
    Cli.Result refused = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(),
        "--table", table, "--from", oldSchema.toString(), "--to", Files.writeString(dir.resolve("same-name.yaml"),
            Files.readString(copySchema).replace("table: " + copy, "table: " + table)).toString());
    assertEquals(1, refused.exitCode());
    assertTrue(refused.err().contains("changing protectQualifiers") && refused.err().contains("cryptoworker copy"),
        refused.err());

    Cli.Result copied = Cli.run(ENV, "copy", "--zookeeper", zookeeper, "--keyset", keyset.toString(),
        "--from", oldSchema.toString(), "--to", copySchema.toString());
    assertEquals(0, copied.exitCode(), copied.out() + copied.err());
    assertTrue(copied.out().contains("copied " + String.format("%,d", ROWS) + " rows"), copied.out());
    Cli.Result again = Cli.run(ENV, "copy", "--zookeeper", zookeeper, "--keyset", keyset.toString(),
        "--from", oldSchema.toString(), "--to", copySchema.toString());
    assertEquals(1, again.exitCode());
    assertTrue(again.err().contains("exists already"), again.err());

    TableSchema target = TableSchema.load(copySchema);
    try (SecureConnection after = SecureConnection.wrap(hbase, keys(), List.of(target));
        Table t = after.getTable(TableName.valueOf(copy))) {
      assertMainIds(t, expected);
      assertEquals(List.of(PatientsUnderLoad.row(5)), PatientsUnderLoad.rowsWithMainId(t, "m-5"));
    }
    // Stored: no plaintext qualifier, mainId (the values of five bytes or more, so that a chance match in
    // ciphertext is out of reach) or phone number.
    List<byte[]> plaintexts = new ArrayList<>();
    for (Map.Entry<String, String> e : expected.entrySet()) {
      plaintexts.add(Bytes.toBytes("+351 " + e.getKey()));
      if (e.getValue().length() >= 5) {
        plaintexts.add(Bytes.toBytes(e.getValue()));
      }
    }
    try (Table raw = hbase.getTable(TableName.valueOf(copy)); ResultScanner scanner = raw.getScanner(new Scan())) {
      int cells = 0;
      for (Result r : scanner) {
        for (var c : r.rawCells()) {
          cells++;
          assertFalse(Bytes.contains(org.apache.hadoop.hbase.CellUtil.cloneQualifier(c), Bytes.toBytes("phone")),
              "a plaintext qualifier in the copy");
          byte[] value = org.apache.hadoop.hbase.CellUtil.cloneValue(c);
          for (byte[] plaintext : plaintexts) {
            assertFalse(Bytes.contains(value, plaintext), "plaintext stored in the copy: " + Bytes.toString(plaintext));
          }
        }
      }
      assertEquals(3 * ROWS, cells, "mainId, its index cell and the phone of every row");
    }

    // Into another layout, which migrate cannot reach: packs of 8 rows.
    String packed = table + "_packed";
    Path packedSchema = Files.writeString(dir.resolve("packed.yaml"), schema(packed, "STD")
        .replace("families:", "layout: { type: PACKED, rowsPerPack: 8 }\nfamilies:"));
    Cli.Result intoPacks = Cli.run(ENV, "copy", "--zookeeper", zookeeper, "--keyset", keyset.toString(),
        "--from", oldSchema.toString(), "--to", packedSchema.toString(), "--latest-only");
    assertEquals(0, intoPacks.exitCode(), intoPacks.out() + intoPacks.err());
    try (SecureConnection after = SecureConnection.wrap(hbase, keys(), List.of(TableSchema.load(packedSchema)));
        Table t = after.getTable(TableName.valueOf(packed))) {
      assertMainIds(t, expected);
    }
  }

  /** Every row of {@code expected} reads back its mainId (one batch of gets). */
  private static void assertMainIds(Table t, Map<String, String> expected) throws Exception {
    List<String> rows = new ArrayList<>(expected.keySet());
    List<Get> gets = new ArrayList<>();
    for (String row : rows) {
      gets.add(new Get(Bytes.toBytes(row)));
    }
    Result[] got = t.get(gets);
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(expected.get(rows.get(i)), Bytes.toString(got[i].getValue(PatientsUnderLoad.ID,
          PatientsUnderLoad.MAIN_ID)), rows.get(i));
    }
  }

  @Test
  void progressJsonRerunsAndRefusals(Connection hbase, Configuration conf) throws Exception {
    setUp(hbase, conf, new TreeMap<>());
    Cli.Result first = Cli.run(ENV, migrateArgs().toArray(new String[0]));
    assertEquals(0, first.exitCode(), first.out() + first.err());
    assertTrue(first.err().contains("identification:mainId DET -> SSE"), first.err());
    assertTrue(first.err().contains("migrate " + table) && first.err().contains("rows"), first.err()); // the bar
    assertTrue(first.out().contains("rewritten " + ROWS + ", skipped (already in the new form) 0, failed 0"), first.out());

    Cli.Result again = Cli.run(ENV, migrateArgs("--json").toArray(new String[0]));
    assertEquals(0, again.exitCode(), again.err());
    JsonNode done = new ObjectMapper().readTree(again.out());
    assertTrue(done.get("done").asBoolean());
    assertEquals(ROWS, done.get("rowsRewritten").asLong()); // the finished run's counts, nothing redone

    Cli.Result restarted = Cli.run(ENV, migrateArgs("--restart", "--json", "--no-progress").toArray(new String[0]));
    JsonNode redo = new ObjectMapper().readTree(restarted.out());
    assertEquals(0, redo.get("rowsRewritten").asLong());
    assertEquals(ROWS, redo.get("rowsSkipped").asLong());

    Path stdRows = Files.writeString(dir.resolve("std-rows.yaml"),
        schema(table, "SSE").replace("rowKey: { box: DET", "rowKey: { box: STD"));
    Cli.Result refused = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(),
        "--table", table, "--from", newSchema.toString(), "--to", stdRows.toString());
    assertEquals(1, refused.exitCode());
    assertTrue(refused.err().contains("rows cannot move to or from STD row keys"), refused.err());
    Cli.Result wrongTable = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(),
        "--table", "other", "--from", oldSchema.toString(), "--to", newSchema.toString());
    assertEquals(1, wrongTable.exitCode());
    assertTrue(wrongTable.err().contains("describes table " + table + ", not --table other"), wrongTable.err());
    assertEquals(2, Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--table", table).exitCode());
  }
}
