package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.StoredKeyFingerprint;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.migrate.TableMigration;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An OPE row key is a function of its plaintext that keeps its order, so its stored bytes in a log
 * show roughly where the plaintext lies. Every message of the client that names such a row names
 * it by the fingerprint of its stored key: decoding failures of values and of row keys, and the
 * failures a migration reports.
 */
@ExtendWith(SharedHBaseCluster.class)
class ProtectedRowKeysInMessagesTest {
  private static final String SCHEMA = String.join("\n",
      "table: TABLE",
      "rowKey: { box: OPE, type: string }",
      "families:",
      "  f:",
      "    default: { box: STD, type: string }",
      "");
  private static final byte[] F = toBytes("f");
  private static final byte[] V = toBytes("v");
  private static final String ROW = "patient-Okonkwo-1987";

  /** {@code message} names the table, the column and the reason, and the row only by {@code stored}'s fingerprint. */
  private static void assertNamesOnlyTheFingerprint(String message, TableSchema schema, byte[] stored, String column,
      String reason) {
    assertTrue(message.contains(schema.tableName()), message);
    assertTrue(message.contains(column), message);
    assertTrue(message.contains(reason), message);
    assertTrue(message.contains(StoredKeyFingerprint.of(stored)), message);
    assertFalse(message.contains("Okonkwo"), "the plaintext row key in: " + message);
    // No run of the stored key's bytes as HBase prints them, nor the hex of its first 6 bytes.
    String printed = Bytes.toStringBinary(stored);
    assertFalse(message.contains(printed.substring(0, Math.min(printed.length(), 16))),
        "the stored key in: " + message);
    assertFalse(message.toLowerCase().contains(Bytes.toHex(Arrays.copyOf(stored, 6))), "the stored key in: " + message);
  }

  @Test
  void anAlteredValueAndAnAlteredRowKeyAreNamedByTheirStoredKeysFingerprint(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("ope_messages", SCHEMA);
    KeyProvider keys = SecureFixture.randomKeys();
    try (SecureConnection secure = SecureFixture.createSecure(hbase, keys, schema);
        Table t = secure.getTable(SecureFixture.name(schema)); Table raw = hbase.getTable(SecureFixture.name(schema))) {
      t.put(new Put(toBytes(ROW)).addColumn(F, V, toBytes("allergic to penicillin")));
      byte[] stored = new TableCodec(schema, keys).encodeRow(toBytes(ROW));

      byte[] value = raw.get(new Get(stored)).getValue(F, V);
      value[value.length / 2] ^= 1;
      raw.put(new Put(stored).addColumn(F, V, value));
      CellDecodingException altered = assertThrows(CellDecodingException.class, () -> t.get(new Get(toBytes(ROW))));
      assertEquals(StoredKeyFingerprint.of(stored), altered.row());
      assertNamesOnlyTheFingerprint(altered.getMessage(), schema, stored, "f:v (STD)", "authentication failed");

      // A stored key cut short: it keeps the real key's prefix, which the message must not show.
      byte[] cut = Arrays.copyOf(stored, stored.length - 1);
      raw.put(new Put(cut).addColumn(F, V, value));
      CellDecodingException rowKey = assertThrows(CellDecodingException.class,
          () -> SecureFixture.scanAll(t, new Scan()));
      assertEquals("row key (OPE)", rowKey.column());
      assertNamesOnlyTheFingerprint(rowKey.getMessage(), schema, cut, "row key (OPE)", rowKey.reason());
    }
  }

  @Test
  void aMigrationNamesTheRowsItCouldNotRewriteByFingerprint(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("ope_migration_messages", SCHEMA);
    TableSchema target = TableSchema.parse(schema.toYaml().replace("default: { box: STD", "default: { box: DET"));
    KeyProvider keys = SecureFixture.randomKeys();
    byte[] stored = new TableCodec(schema, keys).encodeRow(toBytes(ROW));
    try (SecureConnection secure = SecureFixture.createSecure(hbase, keys, schema);
        Table t = secure.getTable(SecureFixture.name(schema)); Table raw = hbase.getTable(SecureFixture.name(schema))) {
      t.put(new Put(toBytes(ROW)).addColumn(F, V, toBytes("allergic to penicillin")));
      t.put(new Put(toBytes("patient-other")).addColumn(F, V, toBytes("no allergies")));
      byte[] value = raw.get(new Get(stored)).getValue(F, V);
      value[value.length / 2] ^= 1;
      raw.put(new Put(stored).addColumn(F, V, value));
    }
    TableMigration migration = TableMigration.builder().connection(hbase).keys(keys).from(schema).to(target).build();
    migration.prepare();
    TableMigration.Counts counts = migration.run(false, c -> { });
    assertEquals(1, counts.rowsFailed(), migration.failures().toString());
    List<String> failures = migration.failures();
    assertEquals(1, failures.size(), failures.toString());
    assertTrue(failures.get(0).startsWith("row " + StoredKeyFingerprint.of(stored) + ": "), failures.get(0));
    assertNamesOnlyTheFingerprint(failures.get(0), schema, stored, "f:v", "authentication failed");
  }
}
