package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A schema that protects one column and lists only its family (docs/adopting.md): families it does
 * not list are refused, naming the option, unless it says {@code unlistedFamilies: PLAIN}.
 */
@ExtendWith(SharedHBaseCluster.class)
class UnlistedFamiliesTest {
  private static final String ONE_COLUMN = String.join("\n",
      "table: TABLE",
      "rowKey: { box: PLAIN }",
      "UNLISTED",
      "families:",
      "  patient:",
      "    default: { box: PLAIN }",
      "    columns:",
      "      ssn: { box: STD, type: string }",
      "");
  private static final byte[] PATIENT = toBytes("patient");
  private static final byte[] BILLING = toBytes("billing");
  private static final byte[] SSN = toBytes("ssn");
  private static final String SSN_VALUE = "123-45-6789";

  /** The table of {@code schema} with one more family, {@code billing}, than the schema lists. */
  private static SecureConnection createWithBilling(Connection hbase, TableSchema schema) throws IOException {
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    secure.createTable(SecureConnection.descriptorFor(schema).setColumnFamily(ColumnFamilyDescriptorBuilder.of(BILLING)),
        null);
    return secure;
  }

  private static Put row(String key) {
    return new Put(toBytes(key)).addColumn(PATIENT, SSN, toBytes(SSN_VALUE))
        .addColumn(PATIENT, toBytes("name"), toBytes("Ana"))
        .addColumn(BILLING, toBytes("amount"), toBytes("42.50"));
  }

  @Test
  void unlistedFamiliesArePlainWhenTheSchemaSaysSoAndTheListedColumnStaysProtected(Connection hbase)
      throws IOException {
    TableSchema schema = SecureFixture.schema("unlisted_plain", ONE_COLUMN.replace("UNLISTED", "unlistedFamilies: PLAIN"));
    try (SecureConnection secure = createWithBilling(hbase, schema);
        Table table = secure.getTable(SecureFixture.name(schema))) {
      for (int i = 0; i < 3; i++) {
        table.put(row("p" + i));
      }
      Result got = table.get(new Get(toBytes("p1")));
      assertEquals(SSN_VALUE, Bytes.toString(got.getValue(PATIENT, SSN)));
      assertEquals("42.50", Bytes.toString(got.getValue(BILLING, toBytes("amount"))));
      // A row range (PLAIN row key) over one unlisted family, as the application ran it before.
      List<Result> range = SecureFixture.scanAll(table,
          new Scan().withStartRow(toBytes("p1")).withStopRow(toBytes("p3")).addFamily(BILLING));
      assertEquals(List.of("p1", "p2"), range.stream().map(r -> Bytes.toString(r.getRow())).toList());
      assertArrayEquals(toBytes("42.50"), range.get(0).getValue(BILLING, toBytes("amount")));
    }
    // What HBase stores: the protected column holds no plaintext; the rest is as the application wrote it.
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      Result stored = raw.get(new Get(toBytes("p1")));
      byte[] ssn = stored.getValue(PATIENT, SSN);
      assertTrue(ssn != null && ssn.length > SSN_VALUE.length(), "an encrypted ssn cell");
      assertFalse(new String(ssn, StandardCharsets.ISO_8859_1).contains(SSN_VALUE), "plaintext ssn reached HBase");
      assertEquals("42.50", Bytes.toString(stored.getValue(BILLING, toBytes("amount"))));
      assertEquals("Ana", Bytes.toString(stored.getValue(PATIENT, toBytes("name"))));
    }
  }

  @Test
  void unlistedFamiliesAreRefusedByDefaultNamingTheOption(Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.schema("unlisted_refused", ONE_COLUMN.replace("UNLISTED\n", ""));
    IllegalArgumentException extraFamily = assertThrows(IllegalArgumentException.class,
        () -> createWithBilling(hbase, schema));
    assertTrue(extraFamily.getMessage().contains("differ from the schema's [patient]"), extraFamily.getMessage());
    try (SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
        Table table = secure.getTable(SecureFixture.name(schema))) {
      UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
          () -> table.put(row("p1")));
      assertTrue(e.getMessage().contains("family billing") && e.getMessage().contains("not in the table's schema")
          && e.getMessage().contains("'unlistedFamilies: PLAIN'"), e.getMessage());
    }
  }

  /** A table made by hand with a family the schema lacks: still refused by a schema asking for PLAIN. */
  @Test
  void theSchemasOwnFamiliesMustExistUnderPlainToo(Connection hbase) {
    TableSchema schema = SecureFixture.schema("unlisted_lacking", ONE_COLUMN.replace("UNLISTED", "unlistedFamilies: PLAIN"));
    try (SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> secure.createTable(
          TableDescriptorBuilder.newBuilder(SecureFixture.name(schema))
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(BILLING)), null));
      assertTrue(e.getMessage().contains("lack some of the schema's [patient]"), e.getMessage());
    }
  }

  /**
   * A schema whose protected column's family is misspelt: under PLAIN the family the table has
   * would be stored unprotected, so the table is refused when opened, naming the family.
   */
  @Test
  void aMisspeltListedFamilyIsRefusedWhenTheTableOpens(Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.schema("unlisted_misspelt",
        ONE_COLUMN.replace("UNLISTED", "unlistedFamilies: PLAIN").replace("  patient:", "  patinet:"));
    TableName name = SecureFixture.name(schema);
    try (Admin admin = hbase.getAdmin()) { // the application's table, made before CryptoWorker
      admin.createTable(TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of(PATIENT))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(BILLING)).build());
    }
    try (SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema),
        SecureTableOptions.builder().legacyKeyChecks(schema.tableName()).build())) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> secure.getTable(name));
      assertTrue(e.getMessage().contains("has no family patinet, which its schema"), e.getMessage());
    }
    try (Table raw = hbase.getTable(name)) {
      assertTrue(raw.get(new Get(toBytes("p1"))).isEmpty(), "nothing written");
    }
  }
}
