package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.keys.KeysetKey;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.OwnClusters;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code inspect} and {@code audit} against a real HBase (the shared embedded cluster, and --embedded). */
@ExtendWith(SharedHBaseCluster.class)
class TableCommandsTest {
  private static final String KEK = KeyEncryptionKey.generateBase64();
  private static final Map<String, String> ENV = Map.of("CRYPTOWORKER_KEK", KEK);

  @TempDir Path dir;

  private String table;
  private Path schemaFile;
  private Path keyset;
  private String zookeeper;

  private void setUp(Configuration conf) throws Exception {
    table = SharedHBaseCluster.uniqueTableName("cli").getNameAsString();
    schemaFile = dir.resolve("schema.yaml");
    Files.writeString(schemaFile, String.join("\n",
        "table: " + table,
        "rowKey: { box: DET, type: string }",
        "families:",
        "  id:",
        "    default: { box: STD, type: string }",
        "    columns:",
        "      mainId: { box: SSE, type: string }",
        "      code:   { box: DET, type: string }",
        "      age:    { box: OPE, type: long }",
        "      visits: { box: ASHE, type: long }",
        "  notes:",
        "    default: { box: PLAIN, type: string }",
        "  visits:",
        "    default: { box: STD, type: string }",
        "    protectQualifiers: true",
        ""));
    keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek());
    zookeeper = conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort");
  }

  private static KeyEncryptionKey kek() {
    return KeyEncryptionKey.fromEnvironment("CRYPTOWORKER_KEK", ENV);
  }

  private SecureConnection secure(Connection hbase) throws Exception {
    return SecureConnection.wrap(hbase, KeyProvider.fromKeysetFile(keyset, kek()),
        List.of(TableSchema.load(schemaFile)));
  }

  private void writePatient(Connection hbase, String row, String surname) throws Exception {
    try (SecureConnection secure = secure(hbase); Table t = secure.getTable(TableName.valueOf(table))) {
      t.put(new Put(Bytes.toBytes(row))
          .addColumn(Bytes.toBytes("id"), Bytes.toBytes("mainId"), Bytes.toBytes("Ana Silva 1980"))
          .addColumn(Bytes.toBytes("id"), Bytes.toBytes("code"), Bytes.toBytes("X1"))
          .addColumn(Bytes.toBytes("id"), Bytes.toBytes("age"), Bytes.toBytes(42L))
          .addColumn(Bytes.toBytes("id"), Bytes.toBytes("visits"), Bytes.toBytes(7L))
          .addColumn(Bytes.toBytes("id"), Bytes.toBytes("surname"), Bytes.toBytes(surname))
          .addColumn(Bytes.toBytes("notes"), Bytes.toBytes("text"), Bytes.toBytes("hello")));
    }
  }

  private void createTable(Connection hbase) throws Exception {
    try (SecureConnection secure = secure(hbase)) {
      secure.createTable(TableSchema.load(schemaFile));
    }
  }

  private Cli.Result run(String command, String... args) {
    List<String> full = new ArrayList<>(List.of(command, "--zookeeper", zookeeper, "--schema", schemaFile.toString(),
        "--table", table, "--keyset", keyset.toString()));
    full.addAll(Arrays.asList(args));
    return Cli.run(ENV, full.toArray(new String[0]));
  }

  private String primaryKeyId() throws Exception {
    return KeysetFiles.describe(keyset, kek()).stream().filter(KeysetKey::primary).findFirst().orElseThrow().hexId();
  }

  /**
   * The first of {@code candidates} whose first byte is no key's format-2 header (a key id's last
   * byte): plaintext that looks like a header would be reported as undecryptable, not as plaintext.
   */
  private String notLikeAHeader(String... candidates) throws Exception {
    List<Integer> tags = KeysetFiles.describe(keyset, kek()).stream().map(k -> k.id() & 0xff).toList();
    for (String c : candidates) {
      if (!tags.contains(c.charAt(0) & 0xff)) {
        return c;
      }
    }
    throw new AssertionError("every candidate starts like a key header");
  }

  @Test
  void inspectShowsEachStoredCellBesideItsValueBoxAndKey(Connection hbase, Configuration conf) throws Exception {
    setUp(conf);
    createTable(hbase);
    writePatient(hbase, "p-1", "Silva");

    Cli.Result text = run("inspect", "--row", "p-1");
    assertEquals(0, text.exitCode(), text.err());
    String key = primaryKeyId();
    assertTrue(text.out().startsWith("table " + table + ", row p-1: row key DET, key id " + key), text.out());
    for (String expected : List.of("id:mainId", "SSE", "\"Ana Silva 1980\"", "id:code", "\"X1\"", "id:age", "OPE",
        " 42", "id:visits", "ASHE", " 7", "id:surname", "STD", "\"Silva\"", "notes:text", "PLAIN", "\"hello\"")) {
      assertTrue(text.out().contains(expected), expected + " missing from:\n" + text.out());
    }
    assertFalse(text.out().contains("search index entry"), text.out());
    assertFalse(text.out().contains("stored qualifier"), text.out());

    Cli.Result raw = run("inspect", "--row", "p-1", "--raw");
    assertEquals(0, raw.exitCode(), raw.err());
    assertTrue(raw.out().contains("search index entry"), raw.out());
    // New tables are in stored format 6 (format 2's headers): keyed boxes start with the key id's last byte; ASHE and SSE keep format 1.
    String tag = key.substring(6);
    assertTrue(raw.out().contains("stored row key 0x" + tag), raw.out());

    Cli.Result json = run("inspect", "--row", "p-1", "--json");
    assertEquals(0, json.exitCode(), json.err());
    JsonNode doc = new ObjectMapper().readTree(json.out());
    assertEquals(6, doc.get("cells").size(), json.out());
    for (JsonNode cell : doc.get("cells")) {
      String column = cell.get("column").asText();
      String expectedBox = switch (column) {
        case "id:mainId" -> "SSE";
        case "id:code" -> "DET";
        case "id:age" -> "OPE";
        case "id:visits" -> "ASHE";
        case "id:surname" -> "STD";
        case "notes:text" -> "PLAIN";
        default -> throw new AssertionError("unexpected column " + column);
      };
      assertEquals(expectedBox, cell.get("box").asText(), column);
      assertTrue(cell.get("problem").isNull(), column);
      if (!expectedBox.equals("PLAIN")) {
        assertEquals(key, cell.get("keyId").asText(), column);
        boolean formatOne = expectedBox.equals("SSE") || expectedBox.equals("ASHE");
        assertTrue(cell.get("storedValue").asText().startsWith(formatOne ? "0x01" + key : "0x" + tag), column);
      }
    }

    Cli.Result missing = run("inspect", "--row", "p-404");
    assertEquals(1, missing.exitCode());
    assertTrue(missing.err().contains("has no row p-404"), missing.err());
  }

  @Test
  void auditPassesCleanTablesAndCountsPlaintextTamperedAndRetiringCells(Connection hbase, Configuration conf)
      throws Exception {
    setUp(conf);
    createTable(hbase);
    writePatient(hbase, "p-1", "Silva");
    writePatient(hbase, "p-2", "Costa");
    try (SecureConnection secure = secure(hbase); Table t = secure.getTable(TableName.valueOf(table))) {
      t.put(new Put(Bytes.toBytes("p-1")).addColumn(Bytes.toBytes("visits"), Bytes.toBytes("2024-01-01"),
          Bytes.toBytes("checkup")));
    }

    Cli.Result clean = run("audit");
    assertEquals(0, clean.exitCode(), clean.out() + clean.err());
    assertTrue(clean.out().contains("2 stored rows"), clean.out());
    assertTrue(clean.out().contains("OK: nothing found"), clean.out());

    // A plain client writes a plaintext value into a protected column, and alters a ciphertext.
    try (Table raw = hbase.getTable(TableName.valueOf(table));
        ResultScanner scanner = raw.getScanner(new Scan())) {
      List<Result> rows = new ArrayList<>();
      scanner.forEach(rows::add);
      assertEquals(2, rows.size());
      raw.put(new Put(rows.get(0).getRow()).addColumn(Bytes.toBytes("id"), Bytes.toBytes("surname"),
          Bytes.toBytes(notLikeAHeader("Smith", "Jones", "Brown"))));
      // A qualifier name in clear in a family that protects them (the value a ciphertext copied from another cell).
      raw.put(new Put(rows.get(1).getRow()).addColumn(Bytes.toBytes("visits"),
          Bytes.toBytes(notLikeAHeader("2024-02-02", "1999-02-02", "3024-02-02")),
          CellUtil.cloneValue(rows.get(1).getColumnLatestCell(Bytes.toBytes("id"), Bytes.toBytes("mainId")))));
      Cell surname = rows.get(1).getColumnLatestCell(Bytes.toBytes("id"), Bytes.toBytes("surname"));
      byte[] altered = CellUtil.cloneValue(surname);
      altered[altered.length - 1] ^= 1;
      raw.put(new Put(rows.get(1).getRow()).addColumn(Bytes.toBytes("id"), Bytes.toBytes("surname"),
          surname.getTimestamp() + 1, altered));
    }

    Cli.Result found = run("audit", "--json");
    assertEquals(1, found.exitCode(), found.out() + found.err());
    JsonNode findings = new ObjectMapper().readTree(found.out()).get("findings");
    assertEquals(2, findings.get("PLAINTEXT").asLong(), found.out());
    assertEquals(1, findings.get("UNDECRYPTABLE").asLong(), found.out());
    assertEquals(0, findings.get("UNKNOWN_KEY").asLong(), found.out());
    assertEquals(0, findings.get("RETIRING_KEY").asLong(), found.out());

    Cli.Result retiring = run("audit", "--retiring", primaryKeyId(), "--show", "3");
    assertEquals(1, retiring.exitCode(), retiring.out());
    assertTrue(retiring.out().contains("findings (first 3):"), retiring.out());
    assertTrue(retiring.out().matches("(?s).*under a key to retire: +[1-9][0-9]*\\R.*"), retiring.out());
  }

  @Test
  void inspectAndAuditReportPackedTablesPerPack(Connection hbase, Configuration conf) throws Exception {
    setUp(conf);
    Files.writeString(schemaFile, String.join("\n",
        "table: " + table,
        "rowKey: { box: DET, type: string }",
        "layout: { type: PACKED, rowsPerPack: 4 }",
        "families:",
        "  id:",
        "    default: { box: STD, type: string }",
        ""));
    createTable(hbase);
    try (SecureConnection secure = secure(hbase); Table t = secure.getTable(TableName.valueOf(table))) {
      for (int i = 0; i < 10; i++) {
        t.put(new Put(Bytes.toBytes("p-" + i)).addColumn(Bytes.toBytes("id"), Bytes.toBytes("name"),
            Bytes.toBytes("Ana " + i)));
      }
    }
    Cli.Result row = run("inspect", "--row", "p-3");
    assertEquals(0, row.exitCode(), row.out() + row.err());
    assertTrue(row.out().contains("PACK: pack of "), row.out());
    assertTrue(row.out().contains("Ana 3"), row.out());

    Cli.Result clean = run("audit", "--json");
    assertEquals(0, clean.exitCode(), clean.out() + clean.err());
    JsonNode doc = new ObjectMapper().readTree(clean.out());
    long stored;
    try (Table raw = hbase.getTable(TableName.valueOf(table)); ResultScanner s = raw.getScanner(new Scan())) {
      List<Result> rows = new ArrayList<>();
      s.forEach(rows::add);
      stored = rows.size();
      // The server alters a pack: the audit says it does not decrypt.
      Result victim = rows.get(rows.size() - 1);
      byte[] pack = victim.getValue(Bytes.toBytes("p"), Bytes.toBytes("k"));
      pack[pack.length - 1] ^= 1;
      raw.put(new Put(victim.getRow()).addColumn(Bytes.toBytes("p"), Bytes.toBytes("k"), pack));
    }
    assertEquals(stored, doc.get("rows").asLong(), "every stored row: packs, and the first pack's records");
    Cli.Result tampered = run("audit", "--json");
    assertEquals(1, tampered.exitCode(), tampered.out() + tampered.err());
    assertEquals(1, new ObjectMapper().readTree(tampered.out()).get("findings").get("UNDECRYPTABLE").asLong(),
        tampered.out());
  }

  @Test
  void aKilledAuditResumesAfterItsCheckpointWithItsCounts(Connection hbase, Configuration conf) throws Exception {
    setUp(conf);
    createTable(hbase);
    for (int i = 0; i < 5; i++) {
      writePatient(hbase, "p-" + i, "Silva");
    }
    List<Result> stored = new ArrayList<>();
    try (Table raw = hbase.getTable(TableName.valueOf(table));
        ResultScanner scanner = raw.getScanner(new Scan().readAllVersions())) {
      scanner.forEach(stored::add);
    }
    long cellsOfTwo = stored.get(0).rawCells().length + stored.get(1).rawCells().length;
    long allCells = stored.stream().mapToLong(r -> r.rawCells().length).sum();
    // As a run killed after two rows leaves it: its position and its counts so far (one finding, here made up).
    RowWalk walk = RowWalk.named(hbase, "audit/" + table, 1);
    walk.save(new RowWalk.Checkpoint(stored.get(1).getRow(), 0, false,
        Map.of("rows", 2L, "cells", cellsOfTwo, "PLAINTEXT", 1L)));

    Cli.Result resumed = run("audit", "--json");
    assertEquals(1, resumed.exitCode(), resumed.out() + resumed.err());
    assertTrue(resumed.err().contains("resuming after 2 rows"), resumed.err());
    JsonNode doc = new ObjectMapper().readTree(resumed.out());
    assertEquals(5, doc.get("rows").asLong(), "the checkpoint's two rows and the three after them");
    assertEquals(allCells, doc.get("cells").asLong());
    assertEquals(1, doc.get("findings").get("PLAINTEXT").asLong(), "the finding counted before the crash");
    assertTrue(walk.load().isEmpty(), "a finished audit leaves no checkpoint");

    Cli.Result fresh = run("audit", "--json");
    assertEquals(0, fresh.exitCode(), fresh.out() + fresh.err());
    walk.save(new RowWalk.Checkpoint(stored.get(3).getRow(), 0, false, Map.of("rows", 4L, "PLAINTEXT", 1L)));
    Cli.Result restarted = run("audit", "--json", "--restart");
    assertEquals(0, restarted.exitCode(), restarted.out() + restarted.err());
    assertEquals(5, new ObjectMapper().readTree(restarted.out()).get("rows").asLong());
  }

  @Test
  void auditReportsCellsUnderADisabledKey(Connection hbase, Configuration conf) throws Exception {
    setUp(conf);
    createTable(hbase);
    KeysetFiles.rotate(keyset, kek());
    String second = primaryKeyId();
    writePatient(hbase, "p-1", "Silva");
    KeysetFiles.rotate(keyset, kek());
    KeysetFiles.disable(keyset, kek(), Integer.parseUnsignedInt(second, 16), false);

    Cli.Result audit = run("audit", "--json");
    assertEquals(1, audit.exitCode(), audit.out() + audit.err());
    JsonNode doc = new ObjectMapper().readTree(audit.out());
    // Every protected value of the row (SSE value and index entry, DET, OPE, ASHE, STD) is under it.
    assertEquals(6, doc.get("findings").get("DISABLED_KEY").asLong(), audit.out());
    assertEquals(0, doc.get("findings").get("UNDECRYPTABLE").asLong(), audit.out());
  }

  /**
   * {@code recount} sets the token counts an enhanced splayed column's writers share to the stored
   * ones: a deleted row of an infrequent value left its token's count one above.
   */
  @Test
  void recountSetsTheSharedTokenCountsToTheStoredOnes(Connection hbase, Configuration conf) throws Exception {
    setUp(conf);
    Files.writeString(schemaFile, String.join("\n",
        "table: " + table,
        "rowKey: { box: PLAIN }",
        "families:",
        "  e:",
        "    default: { box: STD }",
        "    columns:",
        "      salary: { box: ASHE, type: long }",
        "      region: { box: SPLASHE, values: [North, South, Antarctica, Bermuda], frequent: [North, South],"
            + " splays: [salary] }",
        ""));
    createTable(hbase);
    byte[] e = Bytes.toBytes("e");
    try (SecureConnection secure = secure(hbase); Table t = secure.getTable(TableName.valueOf(table))) {
      List<Put> puts = new ArrayList<>();
      for (String row : List.of("a-1", "a-2", "n-1", "n-2")) {
        puts.add(new Put(Bytes.toBytes(row)).addColumn(e, Bytes.toBytes("salary"), Bytes.toBytes(10L))
            .addColumn(e, Bytes.toBytes("region"), Bytes.toBytes(row.startsWith("a") ? "Antarctica" : "North")));
      }
      t.put(puts);
      t.delete(new Delete(Bytes.toBytes("a-1")));
    }
    Cli.Result recount = run("recount");
    assertEquals(0, recount.exitCode(), recount.err());
    assertTrue(recount.out().contains(table + ": shared counts moved by 1"), recount.out());
    Cli.Result again = run("recount");
    assertTrue(again.out().contains(table + ": shared counts moved by 0"), again.out());
  }

  /** {@code search-index} counts the regions' SSE entries and drops a stale one; keyless, so no keyset. */
  @Test
  void searchIndexCountsAndCompactsTheRegionsEntries(Connection hbase, Configuration conf) throws Exception {
    setUp(conf);
    createTable(hbase);
    writePatient(hbase, "p1", "Silva");
    writePatient(hbase, "p2", "Costa");
    try (SecureConnection secure = secure(hbase); Table t = secure.getTable(TableName.valueOf(table))) {
      // p1's first entry goes stale.
      t.put(new Put(Bytes.toBytes("p1")).addColumn(Bytes.toBytes("id"), Bytes.toBytes("mainId"),
          Bytes.toBytes("Rui Costa 1975")));
    }
    Cli.Result count = Cli.run(ENV, "search-index", "--zookeeper", zookeeper, "--table", table);
    assertEquals(0, count.exitCode(), count.err());
    assertTrue(count.out().contains(table + ": 1 regions, 3 index entries"), count.out());
    Cli.Result compact = Cli.run(ENV, "search-index", "--zookeeper", zookeeper, "--table", table, "--compact");
    assertEquals(0, compact.exitCode(), compact.err());
    assertTrue(compact.out().contains("3 index entries before, 2 after (1 stale dropped, 0 missing added)"),
        compact.out());
    Cli.Result noIndex = Cli.run(ENV, "search-index", "--zookeeper", zookeeper, "--table", "cryptoworker_ids");
    assertEquals(1, noIndex.exitCode());
    assertTrue(noIndex.err().contains("has no search index"), noIndex.err());
  }

  @Test
  void usageErrorsExitTwo(Configuration conf) throws Exception {
    setUp(conf);
    assertEquals(2, run("inspect").exitCode()); // no --row
    Cli.Result both = Cli.run(ENV, "audit", "--zookeeper", zookeeper, "--embedded", dir.toString(),
        "--schema", schemaFile.toString(), "--table", table, "--keyset", keyset.toString());
    assertEquals(2, both.exitCode(), both.err());
    Cli.Result otherTable = Cli.run(ENV, "audit", "--zookeeper", zookeeper, "--schema", schemaFile.toString(),
        "--table", "nosuch", "--keyset", keyset.toString());
    assertEquals(1, otherTable.exitCode());
    assertTrue(otherTable.err().contains("no --schema file describes table nosuch"), otherTable.err());
  }

  @Test
  void anHbaseSiteFileNamesTheCluster(Connection hbase, Configuration conf) throws Exception {
    setUp(conf);
    createTable(hbase);
    writePatient(hbase, "p-1", "Silva");
    Path site = Files.writeString(dir.resolve("hbase-site.xml"), String.join("\n",
        "<?xml version=\"1.0\"?>",
        "<configuration>",
        "  <property><name>hbase.zookeeper.quorum</name><value>" + conf.get("hbase.zookeeper.quorum") + "</value></property>",
        "  <property><name>hbase.zookeeper.property.clientPort</name><value>"
            + conf.get("hbase.zookeeper.property.clientPort") + "</value></property>",
        "</configuration>", ""));
    Cli.Result audit = Cli.run(ENV, "audit", "--hbase-site", site.toString(), "--schema", schemaFile.toString(),
        "--table", table, "--keyset", keyset.toString());
    assertEquals(0, audit.exitCode(), audit.out() + audit.err());
    assertTrue(audit.out().contains("1 stored rows"), audit.out());
    Cli.Result missing = Cli.run(ENV, "audit", "--hbase-site", dir.resolve("nope.xml").toString(), "--schema",
        schemaFile.toString(), "--table", table, "--keyset", keyset.toString());
    assertEquals(1, missing.exitCode());
    assertTrue(missing.err().contains("cannot read --hbase-site"), missing.err());
  }

  @Test
  @OwnClusters
  void embeddedStartsAndStopsItsOwnHBase(Configuration conf) throws Exception {
    setUp(conf);
    Cli.Result audit = Cli.run(ENV, "audit", "--embedded", dir.resolve("hbase").toString(),
        "--schema", schemaFile.toString(), "--table", table, "--keyset", keyset.toString());
    assertEquals(1, audit.exitCode(), audit.out() + audit.err());
    assertTrue(audit.err().contains("table " + table + " does not exist on this cluster"), audit.err());
    assertTrue(Files.exists(dir.resolve("hbase").resolve("hbase.log")));
  }
}
