package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.CounterRows;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Building and closing a SecureConnection, and the identifier-counter rows it leases from. */
@ExtendWith(SharedHBaseCluster.class)
class SecureConnectionTest {
  private static final String SCHEMA = String.join("\n",
      "table: TABLE",
      "rowKey: { box: DET }",
      "families:",
      "  secretfamily:",
      "    default: { box: STD }",
      "    protectQualifiers: true",
      "    columns:",
      "      hiddenmeasure: { box: ASHE, type: long }",
      "");
  private static final byte[] F = toBytes("secretfamily");
  private static final byte[] MEASURE = toBytes("hiddenmeasure");

  @Test
  void builderRefusesWhatCannotWork(Connection hbase) {
    TableSchema schema = SecureFixture.schema("conn", SCHEMA);
    KeyProvider keys = SecureFixture.randomKeys();
    assertThrows(NullPointerException.class, () -> SecureConnection.builder().connection(hbase).schema(schema).build());
    IllegalArgumentException noConnection = assertThrows(IllegalArgumentException.class,
        () -> SecureConnection.builder().keys(keys).schema(schema).build());
    assertTrue(noConnection.getMessage().contains("no connection"), noConnection.getMessage());
    IllegalArgumentException noDefault = assertThrows(IllegalArgumentException.class,
        () -> SecureConnection.builder().cluster("east", hbase).keys(keys).schema(schema).build());
    assertTrue(noDefault.getMessage().contains("east"), noDefault.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> SecureConnection.builder().connection(hbase).keys(keys).schema(schema).schema(schema).build());
    assertTrue(twice.getMessage().contains("two schemas"), twice.getMessage());
  }

  @Test
  void aTableWithoutSchemaIsRefusedUnlessUnprotectedTablesAreAllowed(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("conn", SCHEMA);
    TableName typo = TableName.valueOf(schema.tableName() + "_typo");
    try (SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> secure.getTable(typo));
      assertTrue(e.getMessage().contains(typo.getNameAsString()) && e.getMessage().contains("unprotectedTables"),
          e.getMessage());
    }
    try (SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema),
        SecureTableOptions.builder().unprotectedTables(true).build());
        Table plain = secure.getTable(typo)) {
      assertFalse(plain instanceof SecureTable);
      assertEquals(typo, plain.getName());
    }
  }

  @Test
  void closeStopsHandingOutTablesButLeavesTheHBaseConnectionOpen(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("conn", SCHEMA);
    SecureConnection secure = SecureConnection.builder().connection(hbase).keys(SecureFixture.randomKeys())
        .schema(schema).build();
    secure.createTable(schema);
    try (Table t = secure.getTable(SecureFixture.name(schema))) {
      t.put(new Put(toBytes("r1")).addColumn(F, MEASURE, toBytes(5L)));
    }
    secure.close();
    secure.close(); // idempotent
    assertThrows(IllegalStateException.class, () -> secure.getSecureTable(SecureFixture.name(schema)));
    assertFalse(hbase.isClosed());
  }

  @Test
  void counterRowsRevealNoNames(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("counters", SCHEMA);
    KeyProvider keys = SecureFixture.randomKeys();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
      secure.createTable(schema);
      try (Table t = secure.getTable(SecureFixture.name(schema))) {
        for (int i = 0; i < 3; i++) {
          t.put(new Put(toBytes("r" + i)).addColumn(F, MEASURE, toBytes(10L + i)));
        }
        assertEquals(33, secure.getSecureTable(SecureFixture.name(schema)).aggregate(new Scan(), F, MEASURE).sum());
        assertEquals(11L, Bytes.toLong(t.get(new Get(toBytes("r1"))).getValue(F, MEASURE)));
      }
      byte[] counter = CounterRows.name(keys, KeyScope.column(schema.tableName(), "secretfamily", "hiddenmeasure",
          BoxKind.ASHE));
      try (Table counters = hbase.getTable(HBaseIdentifierSource.TABLE)) {
        assertEquals(1024L, Bytes.toLong(counters.get(new Get(counter)).getValue(HBaseIdentifierSource.FAMILY,
            toBytes("next"))), "the column leased one block from its keyed row");
        // The counter table names no table, family or column.
        for (Result r : SecureFixture.scanAll(counters, new Scan())) {
          String row = new String(r.getRow(), StandardCharsets.ISO_8859_1);
          assertFalse(row.contains("hiddenmeasure") || row.contains("secretfamily") || row.contains("counters"),
              "counter row names the column: " + Bytes.toStringBinary(r.getRow()));
        }
      }
    }
  }
}
