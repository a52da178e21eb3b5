package com.example.first;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The getting-started steps of docs/getting-started.md, as a new user's application runs them. */
class FirstApplicationTest {
  private static final byte[] ID = Bytes.toBytes("id");
  private static Path work;
  private static EmbeddedHBase hbase;
  private static Configuration conf;

  @BeforeAll
  static void startLocalHBase() throws IOException {
    work = Files.createTempDirectory(Paths.get("target"), "first-app-");
    hbase = EmbeddedHBase.builder().dataDir(work.resolve("hbase")).start();
    conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", hbase.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", hbase.zookeeperPort());
  }

  @AfterAll
  static void stop() {
    hbase.close();
  }

  /** Step 2 of the guide: a keyset file under a key-encryption key (the guide reads it from CRYPTOWORKER_KEK). */
  private static KeyProvider keys(Path keyset, KeyEncryptionKey kek) throws Exception {
    if (!Files.exists(keyset)) {
      KeysetFiles.generate(keyset, kek);
    }
    return KeyProvider.fromKeysetFile(keyset, kek);
  }

  private static TableSchema schema() throws IOException {
    try (var in = FirstApplicationTest.class.getResourceAsStream("/patients.yaml")) {
      return TableSchema.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "patients.yaml");
    }
  }

  @Test
  void writesEncryptedReadsBackAndRefusesAWrongKey() throws Exception {
    KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(Base64.getDecoder().decode(KeyEncryptionKey.generateBase64()));
    Path keyset = work.resolve("keyset.json");
    TableSchema schema = schema();
    TableName name = TableName.valueOf(schema.tableName());
    try (Connection connection = ConnectionFactory.createConnection(conf);
        SecureConnection secure = SecureConnection.builder().connection(connection).keys(keys(keyset, kek))
            .schema(schema).build()) {
      secure.createTable(schema);
      try (Table patients = secure.getTable(name)) {
        patients.put(new Put(Bytes.toBytes("P0000042")).addColumn(ID, Bytes.toBytes("mainId"), Bytes.toBytes("PT-42"))
            .addColumn(ID, Bytes.toBytes("name"), Bytes.toBytes("Ana")));
        Result r = patients.get(new Get(Bytes.toBytes("P0000042")));
        assertArrayEquals(Bytes.toBytes("Ana"), r.getValue(ID, Bytes.toBytes("name")));
      }
      try (Table raw = connection.getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
        Result stored = s.next();
        String all = new String(stored.getRow(), StandardCharsets.ISO_8859_1)
            + new String(stored.getValue(ID, Bytes.toBytes("name")), StandardCharsets.ISO_8859_1)
            + new String(stored.getValue(ID, Bytes.toBytes("mainId")), StandardCharsets.ISO_8859_1);
        assertFalse(all.contains("P0000042") || all.contains("Ana") || all.contains("PT-42"),
            "plaintext reached HBase");
      }
    }
    // Another keyset (a wrong file, or a wrong master key) is refused by name, not answered with nothing.
    Path otherKeyset = work.resolve("other-keyset.json");
    try (Connection connection = ConnectionFactory.createConnection(conf);
        SecureConnection wrong = SecureConnection.wrap(connection, keys(otherKeyset, kek), List.of(schema))) {
      KeyMismatchException e = assertThrows(KeyMismatchException.class, () -> wrong.getTable(name));
      assertTrue(e.getMessage().contains(schema.tableName()), e.getMessage());
    }
  }

  /** The one dependency brings the layouts too: a PACKED table (rows compressed and encrypted together). */
  @Test
  void packedTablesNeedNoOtherDependency() throws Exception {
    TableSchema schema = TableSchema.parse(String.join("\n", "table: first_packed", "rowKey: { box: OPE, type: string }",
        "layout: { type: PACKED, rowsPerPack: 10 }", "families:", "  id:", "    default: { box: STD }", ""),
        "packed.yaml");
    TableName name = TableName.valueOf(schema.tableName());
    byte[] master = Base64.getDecoder().decode(KeyEncryptionKey.generateBase64());
    try (Connection connection = ConnectionFactory.createConnection(conf);
        SecureConnection secure = SecureConnection.wrap(connection, KeyProvider.fromMasterKey(master), List.of(schema))) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name)) {
        for (int i = 0; i < 25; i++) {
          t.put(new Put(Bytes.toBytes("row" + (100 + i))).addColumn(ID, ID, Bytes.toBytes("value " + i)));
        }
        assertArrayEquals(Bytes.toBytes("value 7"), t.get(new Get(Bytes.toBytes("row107"))).getValue(ID, ID));
      }
    }
  }

  /** A server-side error reaches the application as an IOException (HBase's client logs it first). */
  @Test
  void serverSideErrorsArriveAsExceptions() throws Exception {
    TableSchema schema = TableSchema.parse(String.join("\n", "table: first_errors", "rowKey: { box: DET }",
        "families:", "  a:", "    default: { box: STD }", "  b:", "    default: { box: STD }", ""), "errors.yaml");
    TableName name = TableName.valueOf(schema.tableName());
    byte[] master = Base64.getDecoder().decode(KeyEncryptionKey.generateBase64());
    try (Connection connection = ConnectionFactory.createConnection(conf);
        // Created below by hand, without CryptoWorker's key check: named as such, or it is refused.
        SecureConnection secure = SecureConnection.wrap(connection, KeyProvider.fromMasterKey(master), List.of(schema),
            SecureTableOptions.builder().legacyKeyChecks(schema.tableName()).build())) {
      try (Admin admin = connection.getAdmin()) { // a table missing family b, as after a bad migration
        admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of("a"))
            .build());
      }
      try (Table t = secure.getTable(name)) {
        IOException e = assertThrows(IOException.class,
            () -> t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("b"), Bytes.toBytes("q"), Bytes.toBytes("v"))));
        // The region server's own reason, naming the family the table lacks.
        assertTrue(String.valueOf(e.getMessage()).contains("Column family b does not exist"),
            String.valueOf(e.getMessage()));
        // The error is the request's alone: the same table takes and returns a put to a family it has.
        t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("a"), Bytes.toBytes("q"), Bytes.toBytes("kept")));
        assertArrayEquals(Bytes.toBytes("kept"), t.get(new Get(Bytes.toBytes("r"))).getValue(Bytes.toBytes("a"),
            Bytes.toBytes("q")));
      }
    }
  }
}
