package dev.cryptoworker.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HConstants;
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

/**
 * Bulk loads rows with every box a bulk load writes into a table of several regions, then checks
 * them through SecureTable (reads, server-side DET equality, ASHE sums), against the same rows
 * written by SecureTable.put (same stored keys, qualifiers and DET values), and in raw storage (no
 * plaintext).
 */
@ExtendWith(SharedHBaseCluster.class)
class SecureBulkLoadTest {
  private static final int ROWS = 1_500;
  private static final byte[] ID = Bytes.toBytes("id");
  private static final byte[] VISIT = Bytes.toBytes("visit");
  private static final byte[] NOTES = Bytes.toBytes("notes");
  private static final String[] CITIES = {"Lisboa", "Porto", "Braga", "Coimbra", "Faro"};

  /** A table whose one column is SSE. */
  static final String SSE_SCHEMA = """
      table: TABLE
      rowKey: { box: DET }
      families:
        id:
          default: { box: STD }
          columns:
            city: { box: SSE, type: string }
      """;

  static final String SCHEMA = """
      table: TABLE
      rowKey: { box: DET }
      families:
        id:
          default: { box: STD, type: string }
          columns:
            city:  { box: DET, type: string }
            plain: { box: PLAIN }
        visit:
          default: { box: STD }
          columns:
            day:   { box: OPE, type: long, companion: STD }
            price: { box: ASHE, type: long }
        notes:
          default: { box: STD }
          protectQualifiers: true
      """;

  @Test
  void bulkLoadedRowsReadBackAndMatchWhatPutStores(Connection hbase) throws Exception {
    KeyProvider keys = MapReduceFixture.randomKeys();
    TableSchema loaded = MapReduceFixture.schema("bulk_loaded", SCHEMA);
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(loaded));
    secure.createTable(loaded, secure.uniformSplitKeys(name(loaded), 4));

    Map<String, Put> rows = rows(ROWS, new Random(7));
    SecureBulkLoad.Report report;
    try (SecureTable table = secure.getSecureTable(name(loaded))) {
      report = SecureBulkLoad.into(table, staging()).rowsPerRound(600).load(rows.values().iterator());
    }
    assertEquals(ROWS, report.rows());
    assertEquals(3, report.rounds());
    // Cut at region boundaries: several files per family and round.
    assertTrue(report.hfiles() > 3 * 3, "HFiles: " + report.hfiles());

    try (SecureTable table = secure.getSecureTable(name(loaded))) {
      // Every row reads back exactly, by scan (across regions) and by get.
      Map<String, Result> scanned = new TreeMap<>();
      try (ResultScanner s = table.getScanner(new Scan())) {
        for (Result r : s) {
          scanned.put(Bytes.toString(r.getRow()), r);
        }
      }
      assertEquals(rows.keySet(), scanned.keySet());
      for (Map.Entry<String, Put> e : rows.entrySet()) {
        MapReduceFixture.assertSameCells(e.getValue(), scanned.get(e.getKey()));
      }
      Put some = rows.get(MapReduceFixture.rowKey(123));
      MapReduceFixture.assertSameCells(some, table.get(new Get(some.getRow())));

      // DET equality runs on the region servers; ASHE sums in the coprocessor.
      long porto = rows.values().stream().filter(p -> city(p).equals("Porto")).count();
      Scan byCity = new Scan().setFilter(new SingleColumnValueFilter(ID, Bytes.toBytes("city"), CompareOperator.EQUAL,
          new BinaryComparator(Bytes.toBytes("Porto"))));
      int found = 0;
      try (ResultScanner s = table.getScanner(byCity)) {
        for (Result r : s) {
          assertEquals("Porto", Bytes.toString(r.getValue(ID, Bytes.toBytes("city"))));
          found++;
        }
      }
      assertEquals(porto, found);
      long sum = rows.values().stream().mapToLong(p -> Bytes.toLong(value(p, VISIT, "price"))).sum();
      AggregateResult total = table.aggregate(new Scan(), VISIT, Bytes.toBytes("price"));
      assertEquals(sum, total.sum());
      assertEquals(ROWS, total.count());
    }

    // The stored form is the one put writes: putting the same rows again through SecureTable
    // overwrites the loaded cells (same stored rows, qualifiers and DET values), adding none.
    NavigableMap<byte[], Result> loadedRaw = MapReduceFixture.rawRows(hbase, name(loaded));
    try (SecureTable table = secure.getSecureTable(name(loaded))) {
      table.put(new ArrayList<>(rows.values()));
    }
    NavigableMap<byte[], Result> writtenRaw = MapReduceFixture.rawRows(hbase, name(loaded));
    assertEquals(ROWS, loadedRaw.size());
    assertEquals(loadedRaw.keySet().stream().map(Bytes::toStringBinary).toList(),
        writtenRaw.keySet().stream().map(Bytes::toStringBinary).toList());
    for (Map.Entry<byte[], Result> e : writtenRaw.entrySet()) {
      Result l = loadedRaw.get(e.getKey());
      assertEquals(qualifiers(e.getValue()), qualifiers(l));
      assertArrayEquals(e.getValue().getValue(ID, Bytes.toBytes("city")), l.getValue(ID, Bytes.toBytes("city")));
      assertFalse(Bytes.equals(e.getValue().getValue(ID, Bytes.toBytes("name")), l.getValue(ID, Bytes.toBytes("name"))),
          "STD values are re-encrypted with fresh nonces");
    }

    // No plaintext in any stored byte of the loaded table but the PLAIN column's.
    List<String> needles = new ArrayList<>();
    for (Put p : rows.values()) {
      needles.add(Bytes.toString(p.getRow()));
      needles.add(Bytes.toString(value(p, ID, "name")));
      needles.add(city(p));
      needles.add(Bytes.toString(value(p, NOTES, "allergy-" + Bytes.toString(p.getRow()).substring(1))));
    }
    needles.add("allergy-");
    MapReduceFixture.assertNoPlaintext(hbase, name(loaded), needles, Collections.singleton("plain"));
  }

  /**
   * SSE columns load: entry numbers are taken per chunk of rows, and each region indexes the
   * entries of the files loaded into it (those of their index cells only), so searches find exactly
   * the loaded rows, across rounds and regions, and puts made afterwards continue the counters. A
   * region that did not index its loaded files would find nothing until it reopens.
   */
  @Test
  void sseColumnsLoadAndSearchesFindExactlyTheLoadedRows(Connection hbase) throws Exception {
    TableSchema schema = MapReduceFixture.schema("bulk_sse", SSE_SCHEMA);
    SecureConnection secure = SecureConnection.wrap(hbase, MapReduceFixture.randomKeys(), List.of(schema));
    secure.createTable(schema, secure.uniformSplitKeys(name(schema), 4));
    Map<String, String> cityOf = new TreeMap<>();
    List<Put> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      String key = MapReduceFixture.rowKey(i);
      String city = CITIES[i % CITIES.length] + (i % 7 == 0 ? "-" + i : ""); // repeated and unique values
      cityOf.put(key, city);
      rows.add(new Put(Bytes.toBytes(key)).addColumn(ID, Bytes.toBytes("city"), Bytes.toBytes(city)));
    }
    try (SecureTable table = secure.getSecureTable(name(schema))) {
      SecureBulkLoad.Report report = SecureBulkLoad.into(table, staging()).rowsPerRound(600).threads(3)
          .load(rows.iterator());
      assertEquals(3, report.rounds());
      // Each region's rows of each round in one file, their index cells in another: the region
      // reads back only those.
      assertEquals(3 * 4 * 2, report.hfiles(), "HFiles of 3 rounds over 4 regions");
      // A second load moves some rows to another city: their first entries go stale.
      List<Put> moved = new ArrayList<>();
      for (int i = 0; i < ROWS; i += 10) {
        String key = MapReduceFixture.rowKey(i);
        cityOf.put(key, "Faro");
        moved.add(new Put(Bytes.toBytes(key)).addColumn(ID, Bytes.toBytes("city"), Bytes.toBytes("Faro")));
      }
      SecureBulkLoad.into(table, staging()).load(moved.iterator());
      table.put(new Put(Bytes.toBytes("after")).addColumn(ID, Bytes.toBytes("city"), Bytes.toBytes("Porto")));
      cityOf.put("after", "Porto");

      for (String city : List.of("Lisboa", "Porto", "Faro", "Braga-7", "Lisboa-35")) {
        List<String> expected = cityOf.entrySet().stream().filter(e -> e.getValue().equals(city))
            .map(Map.Entry::getKey).sorted().toList();
        List<String> found = new ArrayList<>();
        SingleColumnValueFilter equal = new SingleColumnValueFilter(ID, Bytes.toBytes("city"),
            CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes(city)));
        equal.setFilterIfMissing(true);
        Scan byCity = new Scan().setFilter(equal);
        try (ResultScanner s = table.getScanner(byCity)) {
          for (Result r : s) {
            found.add(Bytes.toString(r.getRow()));
          }
        }
        Collections.sort(found);
        assertEquals(expected, found, city);
        assertTrue(table.explain(byCity).contains("SSE"), "answered from the search index: " + table.explain(byCity));
      }
    }
    List<String> needles = new ArrayList<>(List.of(CITIES));
    MapReduceFixture.assertNoPlaintext(hbase, name(schema), needles, Collections.emptySet());
  }

  @Test
  void laterPutsOfTheSameCellWinWithinALoad(Connection hbase) throws Exception {
    TableSchema schema = MapReduceFixture.schema("bulk_dupes", SCHEMA);
    SecureConnection secure = SecureConnection.wrap(hbase, MapReduceFixture.randomKeys(), List.of(schema));
    secure.createTable(schema);
    byte[] row = Bytes.toBytes("r1");
    List<Put> puts = List.of(
        new Put(row).addColumn(ID, Bytes.toBytes("name"), Bytes.toBytes("first")),
        new Put(row).addColumn(ID, Bytes.toBytes("name"), Bytes.toBytes("second")));
    try (SecureTable table = secure.getSecureTable(name(schema))) {
      SecureBulkLoad.into(table, staging()).load(puts.iterator());
      Result r = table.get(new Get(row));
      assertEquals("second", Bytes.toString(r.getValue(ID, Bytes.toBytes("name"))));
      // Encrypted by four threads in chunks of 1,000 rows: each row's later put is in a later chunk.
      int rows = 2_000;
      List<Put> twice = new ArrayList<>();
      for (String value : List.of("early", "late")) {
        for (int i = 0; i < rows; i++) {
          twice.add(new Put(Bytes.toBytes("d" + i)).addColumn(ID, Bytes.toBytes("name"), Bytes.toBytes(value + i)));
        }
      }
      SecureBulkLoad.into(table, staging()).threads(4).load(twice.iterator());
      List<Get> gets = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        gets.add(new Get(Bytes.toBytes("d" + i)));
      }
      Result[] loaded = table.get(gets);
      for (int i = 0; i < rows; i++) {
        assertEquals("late" + i, Bytes.toString(loaded[i].getValue(ID, Bytes.toBytes("name"))), "row d" + i);
      }
    }
  }

  @Test
  void aClientWithOtherKeysCannotStartALoad(Connection hbase) throws Exception {
    TableSchema schema = MapReduceFixture.schema("bulk_keys", SCHEMA);
    SecureConnection.wrap(hbase, MapReduceFixture.randomKeys(), List.of(schema)).createTable(schema);
    SecureConnection other = SecureConnection.wrap(hbase, MapReduceFixture.randomKeys(), List.of(schema));
    // The table's key check refuses the other keys when the table is opened, before any row is encrypted.
    KeyMismatchException e = assertThrows(KeyMismatchException.class, () -> other.getSecureTable(name(schema)));
    assertTrue(e.getMessage().contains(schema.tableName()), e.getMessage());
    assertTrue(MapReduceFixture.rawRows(hbase, name(schema)).isEmpty());
  }

  @Test
  void unprotectedLoadsWriteRowsAsGiven(Connection hbase) throws Exception {
    TableName name = SharedHBaseCluster.uniqueTableName("bulk_plain");
    try (org.apache.hadoop.hbase.client.Admin admin = hbase.getAdmin()) {
      admin.createTable(org.apache.hadoop.hbase.client.TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.of(ID)).build(),
          new byte[][] {Bytes.toBytes("p000500")});
    }
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      puts.add(new Put(Bytes.toBytes(MapReduceFixture.rowKey(i))).addColumn(ID, Bytes.toBytes("n"),
          Bytes.toBytes("v" + i)));
    }
    try (Table table = hbase.getTable(name)) {
      SecureBulkLoad.Report r = SecureBulkLoad.intoUnprotected(table, staging()).load(puts.iterator());
      assertEquals(2, r.hfiles(), "one HFile per region");
    }
    NavigableMap<byte[], Result> raw = MapReduceFixture.rawRows(hbase, name);
    assertEquals(1000, raw.size());
    // A family the table lacks fails the round by name, before anything of it is loaded.
    byte[] missing = Bytes.toBytes("missing");
    List<Put> strays = List.of(new Put(Bytes.toBytes("p000001")).addColumn(ID, Bytes.toBytes("n"), Bytes.toBytes("x")),
        new Put(Bytes.toBytes("p000002")).addColumn(missing, Bytes.toBytes("n"), Bytes.toBytes("y")));
    try (Table table = hbase.getTable(name)) {
      IOException e = assertThrows(IOException.class,
          () -> SecureBulkLoad.intoUnprotected(table, staging()).load(strays.iterator()));
      assertEquals("table " + name + " has no family missing: a bulk load cannot write its cells; nothing of this"
          + " round is loaded", e.getMessage());
    }
    assertEquals("v1", Bytes.toString(MapReduceFixture.rawRows(hbase, name).get(Bytes.toBytes("p000001"))
        .getValue(ID, Bytes.toBytes("n"))), "the failed round loaded nothing");
    for (Put p : puts) {
      MapReduceFixture.assertSameCells(p, raw.get(p.getRow()));
      // The caller's cells are theirs: the load stamps copies, never them.
      for (Cell cell : p.getFamilyCellMap().get(ID)) {
        assertEquals(HConstants.LATEST_TIMESTAMP, cell.getTimestamp(), "a caller's cell was stamped");
      }
      assertTrue(raw.get(p.getRow()).rawCells()[0].getTimestamp() < HConstants.LATEST_TIMESTAMP);
    }
  }

  /** Rows keyed by {@link MapReduceFixture#rowKey}, in random order. */
  static Map<String, Put> rows(int count, Random random) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    Map<String, Put> out = new TreeMap<>();
    for (int i : order) {
      String key = MapReduceFixture.rowKey(i);
      Put p = new Put(Bytes.toBytes(key))
          .addColumn(ID, Bytes.toBytes("name"), Bytes.toBytes("Name " + Long.toHexString(random.nextLong())))
          .addColumn(ID, Bytes.toBytes("city"), Bytes.toBytes(CITIES[random.nextInt(CITIES.length)]))
          .addColumn(ID, Bytes.toBytes("plain"), Bytes.toBytes("public " + i))
          .addColumn(VISIT, Bytes.toBytes("day"), Bytes.toBytes(20_000L + random.nextInt(1_000)))
          .addColumn(VISIT, Bytes.toBytes("price"), Bytes.toBytes((long) random.nextInt(500)))
          .addColumn(NOTES, Bytes.toBytes("allergy-" + key.substring(1)), Bytes.toBytes("penicillin " + i));
      out.put(key, p);
    }
    return out;
  }

  private static String city(Put p) {
    return Bytes.toString(value(p, ID, "city"));
  }

  private static byte[] value(Put p, byte[] family, String qualifier) {
    return CellUtil.cloneValue(p.get(family, Bytes.toBytes(qualifier)).get(0));
  }

  private static List<String> qualifiers(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(Bytes.toStringBinary(CellUtil.cloneFamily(c)) + ":" + Bytes.toStringBinary(CellUtil.cloneQualifier(c)));
    }
    return out;
  }

  private static TableName name(TableSchema schema) {
    return TableName.valueOf(schema.tableName());
  }

  private static Path staging() throws Exception {
    return new Path(Files.createTempDirectory("bulk-staging").toUri());
  }
}
