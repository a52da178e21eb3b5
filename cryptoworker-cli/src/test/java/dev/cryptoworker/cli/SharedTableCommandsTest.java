package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.embedded.EmbeddedHBase;
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
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code inspect}, {@code audit}, {@code migrate} and {@code copy} on a SHARED table over two
 * clusters, named as its schema names them: {@code east}, the shared cluster (also the default one,
 * given by its quorum), and {@code west}, an HBase of this class's own (given by an hbase-site.xml).
 */
@ExtendWith(SharedHBaseCluster.class)
@OwnClusters
class SharedTableCommandsTest {
  private static final String KEK = KeyEncryptionKey.generateBase64();
  private static final Map<String, String> ENV = Map.of("CRYPTOWORKER_KEK", KEK);
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 3;

  private static EmbeddedHBase west;
  private static Connection westConnection;
  private static Path westSite;

  @TempDir Path dir;

  private String table;
  private Path schemaFile;
  private Path keyset;
  private String zookeeper;

  @BeforeAll
  static void startWest(@TempDir Path westDir) throws Exception {
    west = EmbeddedHBase.builder().dataDir(westDir.resolve("hbase")).maxHeap("384m").start();
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", west.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", west.zookeeperPort());
    westConnection = ConnectionFactory.createConnection(conf);
    westSite = Files.writeString(westDir.resolve("west-site.xml"), String.join("\n",
        "<configuration>",
        "  <property><name>hbase.zookeeper.quorum</name><value>" + west.zookeeperQuorum() + "</value></property>",
        "  <property><name>hbase.zookeeper.property.clientPort</name><value>" + west.zookeeperPort()
            + "</value></property>",
        "</configuration>", ""));
  }

  @AfterAll
  static void stopWest() throws Exception {
    if (westConnection != null) {
      westConnection.close();
    }
    if (west != null) {
      west.close();
    }
  }

  private static KeyEncryptionKey kek() {
    return KeyEncryptionKey.fromEnvironment("CRYPTOWORKER_KEK", ENV);
  }

  private static String schema(String table, String layout) {
    return String.join("\n", "table: " + table, "rowKey: { box: DET, type: string }", layout, "families:", "  f:",
        "    default: { box: STD, type: string }", "");
  }

  private SecureConnection secure(Connection east, TableSchema... schemas) throws Exception {
    return SecureConnection.wrap(Map.of("default", east, "east", east, "west", westConnection),
        KeyProvider.fromKeysetFile(keyset, kek()), List.of(schemas));
  }

  /** A SHARED table over east and west (Shamir, n = 2) holding rows r0..r2, value v-i. */
  private void sharedTable(Connection east, Configuration conf) throws Exception {
    table(east, conf, "shared_cli", "layout: { type: SHARED, scheme: SHAMIR, n: 2, r: 0, z: 1, clusters: [east, west] }");
  }

  /** A table of {@code layout} holding rows r0..r2, value v-i, and a new keyset. */
  private void table(Connection east, Configuration conf, String prefix, String layout) throws Exception {
    table = SharedHBaseCluster.uniqueTableName(prefix).getNameAsString();
    schemaFile = Files.writeString(dir.resolve(prefix + ".yaml"), schema(table, layout));
    keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek());
    zookeeper = conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort");
    TableSchema schema = TableSchema.load(schemaFile);
    try (SecureConnection secure = secure(east, schema)) {
      secure.createTable(schema);
      try (Table t = secure.getTable(TableName.valueOf(table))) {
        for (int i = 0; i < ROWS; i++) {
          t.put(new Put(Bytes.toBytes("r" + i)).addColumn(F, Q, Bytes.toBytes("v-" + i)));
        }
      }
    }
  }

  /** {@code command} against the default cluster, with east and west named as the schema names them. */
  private Cli.Result run(String command, String... args) {
    List<String> full = new ArrayList<>(List.of(command, "--zookeeper", zookeeper, "--cluster-zookeeper",
        "east=" + zookeeper, "--cluster-hbase-site", "west=" + westSite, "--keyset", keyset.toString()));
    full.addAll(Arrays.asList(args));
    return Cli.run(ENV, full.toArray(new String[0]));
  }

  @Test
  void inspectAndAuditReadTheSharesOnEveryCluster(Connection east, Configuration conf) throws Exception {
    sharedTable(east, conf);
    Cli.Result inspect = run("inspect", "--schema", schemaFile.toString(), "--table", table, "--row", "r1");
    assertEquals(0, inspect.exitCode(), inspect.err());
    assertTrue(inspect.out().contains("share 1 of 2, decodes to \"v-1\" (cluster east)")
        && inspect.out().contains("share 2 of 2, decodes to \"v-1\" (cluster west)"), inspect.out());

    Cli.Result clean = run("audit", "--schema", schemaFile.toString(), "--table", table);
    assertEquals(0, clean.exitCode(), clean.out() + clean.err());
    assertTrue(clean.out().contains(ROWS + " stored rows, " + 2 * ROWS + " stored cells"), clean.out());

    // One row's share gone from west: too few shares to decode it, which only a read of west shows.
    try (Table raw = westConnection.getTable(TableName.valueOf(table));
        ResultScanner rows = raw.getScanner(new Scan())) {
      raw.delete(new Delete(rows.next().getRow()));
    }
    Cli.Result damaged = run("audit", "--schema", schemaFile.toString(), "--table", table, "--restart");
    assertEquals(1, damaged.exitCode(), damaged.out() + damaged.err());
    assertTrue(damaged.out().contains("FAILED: 1 finding(s)") && damaged.out().contains("UNDECRYPTABLE f:q"),
        damaged.out());

    Cli.Result unnamed = Cli.run(ENV, "inspect", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--schema",
        schemaFile.toString(), "--table", table, "--row", "r1");
    assertEquals(1, unnamed.exitCode());
    assertTrue(unnamed.err().contains("inspect of table " + table + ": its schema stores it on clusters [east, west],"
        + " which were not given; name each with --cluster-zookeeper"), unnamed.err());
  }

  @Test
  void migrateIsRefusedByNameAndCopyMovesTheLatestVersions(Connection east, Configuration conf) throws Exception {
    sharedTable(east, conf);
    Cli.Result migrate = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--table",
        table, "--from", schemaFile.toString(), "--rekey");
    assertEquals(1, migrate.exitCode());
    assertTrue(migrate.err().contains("table " + table + ", cryptoworker migrate: the SHARED layout lacks capability"
        + " MIGRATION") && migrate.err().contains("cryptoworker copy"), migrate.err());

    String copyName = table + "_cell";
    Path cellFile = Files.writeString(dir.resolve("cell.yaml"), schema(copyName, "layout: { type: CELL }"));
    Cli.Result everyVersion = run("copy", "--from", schemaFile.toString(), "--to", cellFile.toString());
    assertEquals(1, everyVersion.exitCode());
    assertTrue(everyVersion.err().contains("table " + table + ", cryptoworker copy of every version: the SHARED"
        + " layout lacks capability VERSIONS") && everyVersion.err().contains("--latest-only"), everyVersion.err());

    Cli.Result copy = run("copy", "--from", schemaFile.toString(), "--to", cellFile.toString(), "--latest-only");
    assertEquals(0, copy.exitCode(), copy.err());
    assertTrue(copy.out().contains("copied " + ROWS + " rows"), copy.out());
    try (SecureConnection secure = secure(east, TableSchema.load(cellFile));
        Table t = secure.getTable(TableName.valueOf(copyName))) {
      for (int i = 0; i < ROWS; i++) {
        Result row = t.get(new Get(Bytes.toBytes("r" + i)));
        assertEquals("v-" + i, Bytes.toString(row.getValue(F, Q)));
      }
    }
  }
  /**
   * A CELL table stored on the named cluster west: migrate re-keys it there, with its checkpoint in
   * the default cluster's counter table, and refuses without west's address.
   */
  @Test
  void migrateRekeysACellTableOnANamedCluster(Connection east, Configuration conf) throws Exception {
    table(east, conf, "cell_west", "layout: { type: CELL, cluster: west }");
    TableSchema schema = TableSchema.load(schemaFile);
    try (Admin admin = east.getAdmin()) {
      assertFalse(admin.tableExists(TableName.valueOf(table)), "the table lives on west only");
    }
    KeysetKey oldKey = KeysetFiles.describe(keyset, kek()).get(0);
    KeysetFiles.rotate(keyset, kek());

    Cli.Result unnamed = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--keyset", keyset.toString(), "--table",
        table, "--from", schemaFile.toString(), "--rekey", "--no-progress");
    assertEquals(1, unnamed.exitCode());
    assertTrue(unnamed.err().contains("migrate of table " + table + ": its schema stores it on clusters [west], which"
        + " were not given"), unnamed.err());

    Cli.Result migrate = Cli.run(ENV, "migrate", "--zookeeper", zookeeper, "--cluster-hbase-site", "west=" + westSite,
        "--keyset", keyset.toString(), "--table", table, "--from", schemaFile.toString(), "--rekey", "--no-progress",
        "--cleanup-delay", "0");
    assertEquals(0, migrate.exitCode(), migrate.err());
    // The oldest key: disabling it needs --force, since other tables' row keys could be under it.
    KeysetFiles.disable(keyset, kek(), oldKey.id(), true);
    Cli.Result audit = Cli.run(ENV, "audit", "--zookeeper", zookeeper, "--cluster-hbase-site", "west=" + westSite,
        "--keyset", keyset.toString(), "--schema", schemaFile.toString(), "--table", table, "--retiring",
        oldKey.hexId());
    assertEquals(0, audit.exitCode(), "nothing left under the old key: " + audit.out() + audit.err());
    try (SecureConnection secure = secure(east, schema); Table t = secure.getTable(TableName.valueOf(table))) {
      for (int i = 0; i < ROWS; i++) {
        assertEquals("v-" + i, Bytes.toString(t.get(new Get(Bytes.toBytes("r" + i))).getValue(F, Q)),
            "row r" + i + " reads under the new key alone");
      }
    }
  }
}
