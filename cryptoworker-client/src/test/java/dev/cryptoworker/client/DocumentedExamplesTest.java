package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.migrate.TableMigration;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java examples of README.md and docs/adopting.md, compiled and run as the pages give them
 * ({@link DocumentedExample}), with the files and environment the pages' steps make: so that
 * they cannot drift from the API.
 */
@ExtendWith(SharedHBaseCluster.class)
class DocumentedExamplesTest {
  private static final String ADOPTING = "docs/adopting.md";
  private static final byte[] PROFILE = toBytes("profile");
  private static final byte[] SSN = toBytes("ssn");
  private static final List<String> OLD_SSNS = List.of("900-00-0001", "900-00-0002", "900-00-0003");

  @TempDir Path dir;

  /** A keyset file in {@code dir} under a fresh KEK, as `cryptoworker keys generate` makes it; returns the KEK. */
  private String keyset() throws Exception {
    String kek = KeyEncryptionKey.generateBase64();
    KeysetFiles.generate(dir.resolve("keyset.json"), kek(kek));
    return kek;
  }

  private static KeyEncryptionKey kek(String base64) {
    return KeyEncryptionKey.fromBytes(Base64.getDecoder().decode(base64));
  }

  private KeyProvider keys(String kek) throws Exception {
    return KeyProvider.fromKeysetFile(dir.resolve("keyset.json"), kek(kek));
  }

  @Test
  void theReadmeExampleRuns(Connection hbase, Configuration conf) throws Exception {
    Files.createDirectories(dir.resolve("schemas"));
    Files.copy(DocumentedExample.ROOT.resolve("schemas/patients.yaml"), dir.resolve("schemas/patients.yaml"));
    String kek = keyset();
    String output = DocumentedExample.block("README.md", "## In code", "java")
        .run("ReadmeExample", dir, conf, Map.of(KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE, kek));
    // The server-side equality filter on mainId found the row, and its name decrypted.
    assertTrue(output.lines().anyMatch("Ana"::equals), output);
    assertNoPlaintext(hbase, TableName.valueOf("patients"), "P0000042", "ANA SILVA", "Ana");
  }

  /** docs/operations.md, Keys: a keyset file under the KEK of CRYPTOWORKER_KEK, then rotated. */
  @Test
  void theKeysetExampleRuns(Configuration conf) throws Exception {
    String kek = KeyEncryptionKey.generateBase64();
    DocumentedExample.block("docs/operations.md", "## Keys", "java")
        .run("KeysetExample", dir, conf, Map.of(KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE, kek));
    assertEquals(2, KeysetFiles.describe(dir.resolve("keyset.json"), kek(kek)).size(), "generated, then rotated");
  }

  /** docs/adopting.md, an existing table: the key check, the code change while migrating, the migration. */
  @Test
  void theAdoptingExampleRunsOnATableHoldingPlaintext(Connection hbase, Configuration conf) throws Exception {
    TableName customers = TableName.valueOf("customers");
    createPlainTable(hbase, customers);
    try (Table plain = hbase.getTable(customers)) {
      for (int i = 0; i < OLD_SSNS.size(); i++) {
        plain.put(new Put(toBytes("c-00000" + (i + 1))).addColumn(PROFILE, SSN, toBytes(OLD_SSNS.get(i)))
            .addColumn(PROFILE, toBytes("name"), toBytes("Client " + i))
            .addColumn(toBytes("activity"), toBytes("last"), toBytes("2026-01-0" + (i + 1))));
      }
    }
    TableSchema after = schemaFile("customers.yaml");
    TableSchema before = schemaFile("before.yaml");
    String kek = keyset();
    // cryptoworker migrate ... --prepare-only --legacy-key-check
    migration(hbase, kek, before, after).legacyKeyCheck(true).build().prepare();

    String output = DocumentedExample.block(ADOPTING, "## 4. The code change", "java")
        .run("AdoptingExample", dir, conf, Map.of(KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE, kek));
    // The row range read the rows not migrated yet (plaintext ssn) and the one just written.
    for (int i = 0; i < OLD_SSNS.size(); i++) {
      assertTrue(output.lines().anyMatch(("c-00000" + (i + 1) + " " + OLD_SSNS.get(i))::equals), output);
    }
    assertTrue(output.lines().anyMatch("c-000042 123-45-6789"::equals), output);

    // cryptoworker migrate ... (step 5)
    TableMigration.Counts counts = migration(hbase, kek, before, after).build().run(false, c -> { });
    assertEquals(0, counts.rowsFailed(), counts.toString());
    assertEquals(OLD_SSNS.size(), counts.rowsRewritten(), counts.toString());

    List<String> ssns = new java.util.ArrayList<>(OLD_SSNS);
    ssns.add("123-45-6789");
    assertNoPlaintextIn(hbase, customers, PROFILE, SSN, ssns);
    try (Table raw = hbase.getTable(customers)) {
      Result stored = raw.get(new Get(toBytes("c-000001")));
      assertEquals("Client 0", Bytes.toString(stored.getValue(PROFILE, toBytes("name"))), "other columns as before");
      assertEquals("2026-01-01", Bytes.toString(stored.getValue(toBytes("activity"), toBytes("last"))));
    }
    // After the migration the application drops migratingFrom: every ssn reads with the new schema alone.
    try (SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys(kek)).schema(after).build();
        Table table = secure.getTable(customers)) {
      assertEquals("900-00-0001", Bytes.toString(table.get(new Get(toBytes("c-000001"))).getValue(PROFILE, SSN)));
    }
  }

  /** docs/adopting.md, a new table: created with the family the schema does not list. */
  @Test
  void theAdoptingExampleCreatesANewTable(Connection hbase, Configuration conf) throws Exception {
    TableSchema schema = schemaFile("customers.yaml").toBuilder().tableName("customers_new").build();
    Files.writeString(dir.resolve("customers.yaml"), schema.toYaml());
    String kek = keyset();
    DocumentedExample.block(ADOPTING, "## 3. A new table, or an existing one", "java")
        .within("TableSchema schema = TableSchema.load(Path.of(\"customers.yaml\"));\n"
            + "KeyProvider keys = KeyProvider.fromKeysetFile(Path.of(\"keyset.json\"), KeyEncryptionKey.fromEnvironment());\n"
            + "try (Connection hbase = ConnectionFactory.createConnection(conf);\n"
            + "     SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys).schema(schema)"
            + ".build()) {\n", "}\n")
        .run("NewTableExample", dir, conf, Map.of(KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE, kek));
    TableName name = TableName.valueOf("customers_new");
    try (SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys(kek)).schema(schema).build();
        Table table = secure.getTable(name)) {
      table.put(new Put(toBytes("c-1")).addColumn(PROFILE, SSN, toBytes("123-45-6789"))
          .addColumn(toBytes("activity"), toBytes("last"), toBytes("2026-11-27")));
      assertEquals("123-45-6789", Bytes.toString(table.get(new Get(toBytes("c-1"))).getValue(PROFILE, SSN)));
    }
    assertNoPlaintextIn(hbase, name, PROFILE, SSN, List.of("123-45-6789"));
  }

  private TableSchema schemaFile(String fileName) throws IOException {
    Path file = dir.resolve(fileName);
    Files.writeString(file, DocumentedExample.yamlFile(ADOPTING, fileName));
    return TableSchema.load(file);
  }

  private TableMigration.Builder migration(Connection hbase, String kek, TableSchema from, TableSchema to)
      throws Exception {
    return TableMigration.builder().connection(hbase).keys(keys(kek)).from(from).to(to).checkpointEvery(10);
  }

  /** The application's table as it was before CryptoWorker: made with HBase's own Admin. */
  private static void createPlainTable(Connection hbase, TableName name) throws IOException {
    try (Admin admin = hbase.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(PROFILE))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("activity")).build());
    }
  }

  /** No stored row key, qualifier or value of {@code name}, in any version, contains one of {@code secrets}. */
  private static void assertNoPlaintext(Connection hbase, TableName name, String... secrets) throws IOException {
    try (Table raw = hbase.getTable(name); ResultScanner rows = raw.getScanner(new Scan().readAllVersions())) {
      int cells = 0;
      for (Result row : rows) {
        for (Cell cell : row.rawCells()) {
          String stored = latin1(CellUtil.cloneRow(cell)) + latin1(CellUtil.cloneQualifier(cell))
              + latin1(CellUtil.cloneValue(cell));
          cells++;
          for (String secret : secrets) {
            assertFalse(stored.contains(secret), "plaintext '" + secret + "' stored in " + name);
          }
        }
      }
      assertTrue(cells > 0, "no stored cells in " + name);
    }
  }

  /** Every stored version of {@code family:qualifier} in {@code name} is encrypted: none holds one of {@code secrets}. */
  private static void assertNoPlaintextIn(Connection hbase, TableName name, byte[] family, byte[] qualifier,
      List<String> secrets) throws IOException {
    try (Table raw = hbase.getTable(name);
        ResultScanner rows = raw.getScanner(new Scan().addColumn(family, qualifier).readAllVersions())) {
      int cells = 0;
      for (Result row : rows) {
        for (Cell cell : row.rawCells()) {
          String value = latin1(CellUtil.cloneValue(cell));
          cells++;
          for (String secret : secrets) {
            assertFalse(value.contains(secret), "plaintext " + Bytes.toString(qualifier) + " stored in " + name);
          }
        }
      }
      assertEquals(secrets.size(), cells, "one stored " + Bytes.toString(qualifier) + " per row written");
    }
  }

  private static String latin1(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
