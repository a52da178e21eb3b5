package dev.cryptoworker.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.OwnCluster;
import dev.cryptoworker.testing.OwnClusters;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark appends into a SHARED table over two clusters, with puts ({@code write=put}, the default)
 * and with bulk loads ({@code write=bulk}): {@code east}, the shared cluster (also the default one),
 * and {@code west}, an HBase of this class's own, each named by option {@code cluster.NAME}. The
 * rows read back through the data source equal those written, and neither cluster's raw cells hold
 * their plaintext.
 */
@ExtendWith(SharedHBaseCluster.class)
@OwnClusters
class SharedAppendTest {
  private static final String SCHEMA = """
      table: TABLE
      rowKey: { box: DET, type: string }
      layout: { type: SHARED, scheme: SHAMIR, n: 2, r: 0, z: 1, clusters: [east, west] }
      families:
        f:
          default: { box: STD, type: string }
          columns:
            note: { box: STD, type: string }
            visits: { box: STD, type: long }
      """;
  private static final int ROWS = 40;

  @TempDir
  static Path dir;
  private static OwnCluster west;

  @BeforeAll
  static void startWest() throws Exception {
    west = OwnCluster.start("spark-shared-west");
  }

  @AfterAll
  static void stopWest() throws Exception {
    if (west != null) {
      west.close();
    }
  }

  /** A new SHARED table over east and west, the rows to append to it and the source's options for it. */
  private record Appending(String name, Dataset<Row> rows, List<String> needles, Map<String, String> options) {
    static Appending create(Connection east, Configuration conf, String prefix) throws Exception {
      String name = SharedHBaseCluster.uniqueTableName(prefix).getNameAsString();
      Path schemaFile = dir.resolve(name + ".yaml");
      Files.writeString(schemaFile, SCHEMA.replace("table: TABLE", "table: " + name));
      TableSchema schema = TableSchema.load(schemaFile);
      Path kek = dir.resolve(name + "-kek.txt");
      Files.writeString(kek, KeyEncryptionKey.generateBase64());
      Path keyset = dir.resolve(name + "-keys.json");
      KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(kek));
      KeyProvider keys = KeyProvider.fromKeysetFile(keyset, KeyEncryptionKey.fromFile(kek));
      try (SecureConnection secure = SecureConnection.wrap(Map.of("default", east, "east", east, "west",
          west.connection()), keys, List.of(schema))) {
        secure.createTable(schema, secure.uniformSplitKeys(TableName.valueOf(name), 2));
      }
      List<Row> plain = new ArrayList<>();
      List<String> needles = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        String note = "record of patient " + i + ": allergic to penicillin";
        plain.add(RowFactory.create(String.format("p%04d", i), note, (long) (1000 + i)));
        needles.add(note);
      }
      StructType columns = new StructType().add("rowkey", DataTypes.StringType).add("note", DataTypes.StringType)
          .add("visits", DataTypes.LongType);
      Dataset<Row> rows = LocalSpark.session().createDataFrame(plain, columns).repartition(2);
      Map<String, String> options = Map.of("schema", schemaFile.toString(), "keyset", keyset.toString(),
          "kek", "file:" + kek, "quorum", conf.get("hbase.zookeeper.quorum"),
          "hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"),
          "cluster.east", conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort"),
          "cluster.west", west.zookeeper());
      return new Appending(name, rows, needles, options);
    }

    /** Appends the rows with {@code extra} options beside the table's. */
    void append(Map<String, String> extra) {
      Map<String, String> all = new HashMap<>(options);
      all.putAll(extra);
      rows.write().format("cryptoworker").options(all).mode("append").save();
    }

    /**
     * The rows read back through the source equal those appended, and each cluster holds one share
     * per cell and no plaintext; returns each cluster's store files.
     */
    List<Integer> checkReadBackAndShares(Connection east) throws Exception {
      DataFrameReader reader = LocalSpark.session().read().format("cryptoworker").options(options);
      assertEquals(sorted(rows), sorted(reader.load()));
      List<Integer> files = new ArrayList<>();
      for (Connection cluster : List.of(east, west.connection())) {
        assertEquals(ROWS * 2, rawCellsWithout(cluster, TableName.valueOf(name), needles),
            "each row's two cells hold one share on every cluster");
        files.add(storeFiles(cluster, TableName.valueOf(name)));
      }
      return files;
    }
  }

  @Test
  void bulkAppendToASharedTableReadsBackAndNoClusterHoldsPlaintext(Connection east, Configuration conf)
      throws Exception {
    Appending table = Appending.create(east, conf, "spark_shared_bulk");
    Path staging = dir.resolve("staging");
    table.append(Map.of("write", "bulk", "staging", staging.toUri().toString()));
    for (int files : table.checkReadBackAndShares(east)) {
      assertTrue(files > 0, "no bulk-loaded file in a cluster's regions");
    }
    try (java.util.stream.Stream<Path> left = Files.list(staging)) {
      assertEquals(List.of(), left.toList(), "left in the staging directory");
    }
  }

  @Test
  void putAppendToASharedTableReadsBackAndNoClusterHoldsPlaintext(Connection east, Configuration conf)
      throws Exception {
    Appending table = Appending.create(east, conf, "spark_shared_put");
    table.append(Map.of()); // write=put, the default
    assertEquals(List.of(0, 0), table.checkReadBackAndShares(east),
        "store files after puts, which nothing flushed: the append took the bulk path");
  }

  @Test
  void aClusterTheSchemaNamesButNoOptionGivesFailsOnTheDriverByName(Configuration conf) throws Exception {
    String name = SharedHBaseCluster.uniqueTableName("spark_shared_unnamed").getNameAsString();
    Path schemaFile = dir.resolve(name + ".yaml");
    Files.writeString(schemaFile, SCHEMA.replace("table: TABLE", "table: " + name));
    Files.writeString(dir.resolve("unnamed-kek.txt"), KeyEncryptionKey.generateBase64());
    Path keyset = dir.resolve("unnamed-keys.json");
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(dir.resolve("unnamed-kek.txt")));
    Map<String, String> options = Map.of("schema", schemaFile.toString(), "keyset", keyset.toString(),
        "kek", "file:" + dir.resolve("unnamed-kek.txt"), "quorum", conf.get("hbase.zookeeper.quorum"),
        "hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"),
        "cluster.east", conf.get("hbase.zookeeper.quorum") + ":" + conf.get("hbase.zookeeper.property.clientPort"),
        "write", "bulk", "staging", dir.resolve("unnamed-staging").toUri().toString());
    Dataset<Row> one = LocalSpark.session().createDataFrame(List.of(RowFactory.create("p0", "a note", 1L)),
        new StructType().add("rowkey", DataTypes.StringType).add("note", DataTypes.StringType)
            .add("visits", DataTypes.LongType));
    Exception e = assertThrows(Exception.class,
        () -> one.write().format("cryptoworker").options(options).mode("append").save());
    assertTrue(String.valueOf(e.getMessage()).contains("table " + name + " is stored on clusters [east, west]"
        + " (its schema's layout); option cluster.west must give the ZooKeeper quorum (HOST:PORT) of west"),
        String.valueOf(e.getMessage()));
  }

  /** The stored cells of {@code table} on {@code cluster}, after checking none holds a needle. */
  private static int rawCellsWithout(Connection cluster, TableName table, List<String> needles) throws Exception {
    int cells = 0;
    try (Table raw = cluster.getTable(table); ResultScanner s = raw.getScanner(new Scan())) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          cells++;
          String stored = new String(CellUtil.cloneValue(c), StandardCharsets.ISO_8859_1)
              + new String(CellUtil.cloneQualifier(c), StandardCharsets.ISO_8859_1)
              + new String(CellUtil.cloneRow(c), StandardCharsets.ISO_8859_1);
          for (String needle : needles) {
            assertFalse(stored.contains(needle), "plaintext '" + needle + "' stored");
          }
        }
      }
    }
    return cells;
  }

  /** The store files of {@code table}'s regions: bulk-loaded ones, as nothing flushes them. */
  private static int storeFiles(Connection cluster, TableName table) throws Exception {
    int files = 0;
    try (Admin admin = cluster.getAdmin()) {
      for (ServerName server : admin.getRegionServers()) {
        for (RegionMetrics region : admin.getRegionMetrics(server, table)) {
          files += region.getStoreFileCount();
        }
      }
    }
    return files;
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }
}
