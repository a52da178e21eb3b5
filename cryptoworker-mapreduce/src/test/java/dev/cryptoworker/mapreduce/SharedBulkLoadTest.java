package dev.cryptoworker.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.layout.shared.SharedTableRepair;
import dev.cryptoworker.layout.shared.SharedTables;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.OwnCluster;
import dev.cryptoworker.testing.OwnClusters;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
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

/**
 * Bulk loads into SHARED tables over two clusters: {@code east}, the shared cluster (also the
 * default one), and {@code west}, an HBase of this class's own. Rows read back through SecureTable,
 * each cluster holds its shares (one per cell, the same timestamp on both) and no plaintext; a
 * round that too few clusters take fails naming the table and the clusters, and what it left is
 * skipped by reads and deleted by the repair; a round that enough take is reported with the
 * cluster that missed it, and the repair completes that cluster.
 */
@ExtendWith(SharedHBaseCluster.class)
@OwnClusters
class SharedBulkLoadTest {
  private static final int ROWS = 300;
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] NOTE = Bytes.toBytes("note");
  private static final KeyProvider KEYS = MapReduceFixture.randomKeys();

  private static OwnCluster west;
  private static Connection westConnection;

  @BeforeAll
  static void startWest() throws Exception {
    west = OwnCluster.start("shared-bulk-west");
    westConnection = west.connection();
  }

  @AfterAll
  static void stopWest() throws Exception {
    if (west != null) {
      west.close();
    }
  }

  private static TableSchema schema(String scheme, int r, int z) {
    return MapReduceFixture.schema("shared_bulk", String.join("\n", "table: TABLE", "rowKey: { box: DET }",
        "layout: { type: SHARED, scheme: " + scheme + ", n: 2, r: " + r + ", z: " + z + ", clusters: [east, west] }",
        "families:", "  f:", "    default: { box: STD, type: string }", ""));
  }

  private static SecureConnection secure(Connection east, TableSchema schema) {
    return SecureConnection.wrap(Map.of("default", east, "east", east, "west", westConnection), KEYS,
        List.of(schema));
  }

  private static String note(int i) {
    return "record of patient " + i + ": allergic to penicillin";
  }

  private static List<Put> rows(String prefix) {
    List<Put> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      out.add(new Put(Bytes.toBytes(prefix + i)).addColumn(F, NOTE, Bytes.toBytes(note(i))));
    }
    return out;
  }

  private static org.apache.hadoop.fs.Path staging() throws IOException {
    return new org.apache.hadoop.fs.Path(Files.createTempDirectory("shared-bulk-staging").toUri());
  }

  private static TableName name(TableSchema schema) {
    return TableName.valueOf(schema.tableName());
  }

  /**
   * {@code rows}, dropping the table on west when the first is read: after the load has read each
   * cluster's regions, so west fails while it loads.
   */
  private static Iterator<Put> droppingWest(List<Put> rows, TableName table) {
    Iterator<Put> in = rows.iterator();
    return new Iterator<>() {
      private boolean dropped;

      @Override
      public boolean hasNext() {
        return in.hasNext();
      }

      @Override
      public Put next() {
        if (!dropped) {
          dropped = true;
          try (Admin admin = westConnection.getAdmin()) {
            admin.disableTable(table);
            admin.deleteTable(table);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return in.next();
      }
    };
  }

  /** West's table again, as east has it (its shares gone). */
  private static void recreateWest(Connection east, TableName table) throws IOException {
    try (Admin eastAdmin = east.getAdmin(); Admin admin = westConnection.getAdmin()) {
      admin.createTable(eastAdmin.getDescriptor(table));
    }
  }

  private static Map<String, String> readAll(SecureTable table) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (ResultScanner s = table.getScanner(new Scan())) {
      for (Result r : s) {
        out.put(Bytes.toString(r.getRow()), Bytes.toString(r.getValue(F, NOTE)));
      }
    }
    return out;
  }

  private static Map<String, String> expected(String prefix) {
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < ROWS; i++) {
      out.put(prefix + i, note(i));
    }
    return out;
  }

  @Test
  void bulkLoadedSharesReadBackAndNoClusterHoldsPlaintext(Connection east) throws Exception {
    TableSchema schema = schema("SHAMIR", 0, 1);
    TableName name = name(schema);
    try (SecureConnection secure = secure(east, schema)) {
      secure.createTable(schema, secure.uniformSplitKeys(name, 3));
      try (SecureTable table = secure.getSecureTable(name)) {
        // A version stamped a minute ahead (another writer's clock), read before the load: the
        // connection's write clock stamps the load's rounds after it, as it would a put.
        long ahead = System.currentTimeMillis() + 60_000;
        table.put(new Put(Bytes.toBytes("r7")).addColumn(F, NOTE, ahead, Bytes.toBytes("written ahead")));
        assertEquals("written ahead", Bytes.toString(table.get(new Get(Bytes.toBytes("r7"))).getValue(F, NOTE)));
        SecureBulkLoad.Report report = SecureBulkLoad.into(table, staging()).rowsPerRound(120).threads(2)
            .load(rows("r").iterator());
        assertEquals(ROWS, report.rows());
        assertEquals(3, report.rounds());
        assertEquals(Set.of(), report.missedClusters());
        assertEquals(2L * ROWS, report.storedCells(), "one share per cell on each of two clusters");

        assertEquals(note(7), Bytes.toString(table.get(new Get(Bytes.toBytes("r7"))).getValue(F, NOTE)));
        assertEquals(expected("r"), readAll(table));
      }
      List<String> needles = new ArrayList<>(expected("r").values());
      NavigableMap<byte[], Result> onEast = MapReduceFixture.rawRows(east, name);
      NavigableMap<byte[], Result> onWest = MapReduceFixture.rawRows(westConnection, name);
      for (Connection cluster : List.of(east, westConnection)) {
        MapReduceFixture.assertNoPlaintext(cluster, name, needles, List.of());
      }
      assertEquals(ROWS, onEast.size());
      assertEquals(onEast.keySet(), onWest.keySet());
      for (Map.Entry<byte[], Result> row : onEast.entrySet()) {
        Cell e = row.getValue().getColumnLatestCell(F, NOTE);
        Cell w = onWest.get(row.getKey()).getColumnLatestCell(F, NOTE);
        assertEquals(e.getTimestamp(), w.getTimestamp(), "both shares of a cell at one timestamp");
        assertFalse(Bytes.equals(Bytes.copy(e.getValueArray(), e.getValueOffset(), e.getValueLength()),
            Bytes.copy(w.getValueArray(), w.getValueOffset(), w.getValueLength())), "shares differ per cluster");
      }
    }
  }

  @Test
  void aRoundTooFewClustersTookFailsByNameAndTheRepairRemovesIt(Connection east) throws Exception {
    TableSchema schema = schema("SHAMIR", 0, 1); // every cluster must take a write
    TableName name = name(schema);
    try (SecureConnection secure = secure(east, schema)) {
      secure.createTable(schema);
      try (SecureTable table = secure.getSecureTable(name)) {
        IOException e = assertThrows(IOException.class,
            () -> SecureBulkLoad.into(table, staging()).load(droppingWest(rows("r"), name)));
        assertTrue(e.getMessage().startsWith("table " + name + ": a bulk-load round of " + ROWS + " rows was loaded"
            + " into 1 of 2 clusters, 2 needed. Loaded: [east]; failed: {west=TableNotFoundException: "), e.getMessage());
        assertEquals(ROWS, MapReduceFixture.rawRows(east, name).size(), "east took its shares");
        recreateWest(east, name);
        // A version one cluster lacks, where every cluster must hold it: never acknowledged, so skipped.
        assertEquals(Map.of(), readAll(table));
      }
      try (SharedTableRepair repair = SharedTables.of(secure).repair(name)) {
        SharedTableRepair.Report done = repair.run(p -> {});
        assertEquals(ROWS, done.straysDeleted());
      }
      try (SecureTable table = secure.getSecureTable(name)) {
        assertEquals(Map.of(), readAll(table));
      }
      try (Table raw = east.getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
        assertNull(s.next(), "the repair deleted east's shares");
      }
    }
  }

  @Test
  void aRoundEnoughClustersTookIsReportedAndTheRepairCompletesTheOther(Connection east) throws Exception {
    TableSchema schema = schema("AES_RS", 1, 0); // a write needs one of the two clusters
    TableName name = name(schema);
    try (SecureConnection secure = secure(east, schema)) {
      secure.createTable(schema);
      try (SecureTable table = secure.getSecureTable(name)) {
        SecureBulkLoad.Report report = SecureBulkLoad.into(table, staging()).load(droppingWest(rows("r"), name));
        assertEquals(Set.of("west"), report.missedClusters());
        recreateWest(east, name);
        assertEquals(expected("r"), readAll(table), "east's shares alone decode");
      }
      try (SharedTableRepair repair = SharedTables.of(secure).repair(name)) {
        assertEquals(ROWS, repair.run(p -> {}).sharesWritten());
      }
      NavigableMap<byte[], Result> onEast = MapReduceFixture.rawRows(east, name);
      NavigableMap<byte[], Result> onWest = MapReduceFixture.rawRows(westConnection, name);
      assertEquals(onEast.keySet(), onWest.keySet());
      for (Map.Entry<byte[], Result> row : onEast.entrySet()) {
        assertEquals(row.getValue().getColumnLatestCell(F, NOTE).getTimestamp(),
            onWest.get(row.getKey()).getColumnLatestCell(F, NOTE).getTimestamp());
      }
      MapReduceFixture.assertNoPlaintext(westConnection, name, new ArrayList<>(expected("r").values()), List.of());
    }
  }
}
