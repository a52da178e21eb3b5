package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cryptoworker.client.codec.CounterRows;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * ASHE's identifiers stay unique per key whatever happens to the counter table, and cells written
 * before lease nonces existed keep decrypting and summing beside new ones.
 */
@ExtendWith(SharedHBaseCluster.class)
class AsheIdentifierTest {
  private static final String SCHEMA = String.join("\n",
      "table: TABLE",
      "rowKey: { box: PLAIN }",
      "families:",
      "  e:",
      "    default: { box: STD }",
      "    columns:",
      "      salary: { box: ASHE, type: long }",
      "      gender: { box: SPLASHE, values: [F, M], splays: [salary] }",
      "");
  private static final byte[] E = toBytes("e");
  private static final byte[] SALARY = toBytes("salary");
  private static final byte[] GENDER = toBytes("gender");
  private static final byte[] NEXT = toBytes("next");

  /** Sums per gender, and in total under {@code ""}. */
  private final Map<String, long[]> oracle = new TreeMap<>();

  @Test
  void noTwoCellsShareTheirPrfInputAfterTheCounterTableIsRolledBackOrLost(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("ashe_rollback", SCHEMA);
    KeyProvider keys = SecureFixture.randomKeys();
    SecureFixture.createSecure(hbase, keys, schema).close();
    List<byte[]> counters = List.of(
        CounterRows.name(keys, KeyScope.column(schema.tableName(), "e", "salary", BoxKind.ASHE)),
        CounterRows.name(keys, KeyScope.column(schema.tableName(), "e", "gender", BoxKind.SPLASHE)));
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      write(hbase, keys, schema, "a"); // each batch by a client of its own, as by separate processes
      List<byte[]> afterA = new ArrayList<>();
      for (byte[] counter : counters) {
        afterA.add(ids.get(new Get(counter)).getValue(HBaseIdentifierSource.FAMILY, NEXT));
        assertNotNull(afterA.get(afterA.size() - 1), "the test's counter rows are the columns' counters");
      }
      write(hbase, keys, schema, "b");
      restore(ids, counters, afterA); // from a backup taken after batch a
      write(hbase, keys, schema, "c");
      for (byte[] counter : counters) { // lost, and recreated empty by the next lease
        ids.delete(new Delete(counter));
      }
      write(hbase, keys, schema, "d");
      // A long-running client sees the counter go back between two leases of its own.
      try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
          Table t = secure.getTable(SecureFixture.name(schema))) {
        put(t, "e", 0, 10);
        restore(ids, counters, afterA);
        put(t, "e", 10, 400); // 1,200 salary identifiers: a second lease, which repeats the first
      }
    }

    // Per key (one per column: SPLASHE's indicators and splays share the dimension's or measure's).
    Map<String, String> prfInputs = new HashMap<>();
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      for (Result r : SecureFixture.scanAll(raw, new Scan().addFamily(E))) {
        for (Cell c : r.rawCells()) {
          String qualifier = Bytes.toStringBinary(CellUtil.cloneQualifier(c));
          String column = qualifier.split("\\\\x00")[0];
          AsheCell cell = AsheCell.parse(CellUtil.cloneValue(c));
          String where = Bytes.toString(r.getRow()) + " " + qualifier;
          String other = prfInputs.put(column + " " + cell.nonce() + " " + cell.id(), where);
          assertNull(other, "cells " + other + " and " + where + " share lease nonce and identifier");
        }
      }
    }
    assertEquals((4 * 10 + 400) * 5, prfInputs.size());
    assertSums(hbase, keys, schema);
  }

  @Test
  void versionOneCellsStillDecryptAndSumWithNewOnes(Connection hbase) throws Exception {
    TableSchema schema = TableSchema.parse(SCHEMA.replace("TABLE", "ashe_legacy_v1"), "legacy");
    TableName name = SecureFixture.name(schema);
    byte[] master = new byte[32];
    for (int i = 0; i < master.length; i++) {
      master[i] = (byte) i;
    }
    KeyProvider keys = KeyProvider.fromMasterKey(master); // the keys legacy-ashe-cells.txt was written under
    try (Admin admin = hbase.getAdmin()) {
      if (admin.tableExists(name)) { // a second run on the same cluster
        admin.disableTable(name);
        admin.deleteTable(name);
      }
    }
    SecureFixture.createSecure(hbase, keys, schema).close();
    try (Table raw = hbase.getTable(name);
        BufferedReader cells = new BufferedReader(new InputStreamReader(
            AsheIdentifierTest.class.getResourceAsStream("legacy-ashe-cells.txt"), StandardCharsets.US_ASCII))) {
      for (String line = cells.readLine(); line != null; line = cells.readLine()) {
        if (!line.startsWith("#")) {
          String[] f = line.split(" ");
          byte[] value = HexFormat.of().parseHex(f[2]);
          assertEquals(AsheCell.LEGACY_LENGTH, value.length, "a cell written before lease nonces");
          raw.put(new Put(Bytes.toBytesBinary(f[0])).addColumn(E, Bytes.toBytesBinary(f[1]), value));
        }
      }
    }
    for (int i = 0; i < 12; i++) {
      add(1000L * i - 3_000, i % 3 == 0 ? "M" : "F");
    }
    write(hbase, keys, schema, "new");

    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
        Table t = secure.getTable(name);
        Table raw = hbase.getTable(name)) {
      assertEquals(1000L * 7 - 3_000, Bytes.toLong(t.get(new Get(toBytes("legacy-07"))).getValue(E, SALARY)));
      assertEquals("F", Bytes.toString(t.get(new Get(toBytes("legacy-07"))).getValue(E, GENDER)));
      assertEquals(AsheCell.LEASED_LENGTH, raw.get(new Get(toBytes("new-3"))).getValue(E, SALARY).length);
    }
    assertSums(hbase, keys, schema);
  }

  /** Ten rows written by a client of their own, closed afterwards. */
  private void write(Connection hbase, KeyProvider keys, TableSchema schema, String batch) throws Exception {
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
        Table t = secure.getTable(SecureFixture.name(schema))) {
      put(t, batch, 0, 10);
    }
  }

  /** Rows {@code batch-from} to {@code batch-(to - 1)}, in one batch. */
  private void put(Table t, String batch, int from, int to) throws Exception {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      long salary = 20_000L * i - 70_000;
      String gender = i % 4 == 1 ? "M" : "F";
      puts.add(new Put(toBytes(batch + "-" + i)).addColumn(E, SALARY, toBytes(salary)).addColumn(E, GENDER,
          toBytes(gender)));
      add(salary, gender);
    }
    t.put(puts);
  }

  /** Puts the counters back to {@code values} with a plain client, as a restore from a backup would. */
  private static void restore(Table ids, List<byte[]> counters, List<byte[]> values) throws Exception {
    for (int i = 0; i < counters.size(); i++) {
      ids.put(new Put(counters.get(i)).addColumn(HBaseIdentifierSource.FAMILY, NEXT, values.get(i)));
    }
  }

  private void add(long salary, String gender) {
    for (String key : new String[] {"", gender}) {
      long[] acc = oracle.computeIfAbsent(key, k -> new long[2]);
      acc[0] += salary;
      acc[1]++;
    }
  }

  private void assertSums(Connection hbase, KeyProvider keys, TableSchema schema) throws Exception {
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
      SecureTable t = secure.getSecureTable(SecureFixture.name(schema));
      assertEquals(new AggregateResult(oracle.get("")[0], oracle.get("")[1]), t.aggregate(new Scan(), E, SALARY));
      NavigableMap<byte[], AggregateResult> byGender = t.aggregateBy(new Scan(), E, SALARY, E, GENDER);
      Map<String, AggregateResult> got = new TreeMap<>();
      byGender.forEach((g, r) -> got.put(Bytes.toString(g), r));
      Map<String, AggregateResult> expected = new TreeMap<>();
      oracle.forEach((g, acc) -> {
        if (!g.isEmpty()) {
          expected.put(g, new AggregateResult(acc[0], acc[1]));
        }
      });
      assertEquals(expected, got);
    }
  }
}
