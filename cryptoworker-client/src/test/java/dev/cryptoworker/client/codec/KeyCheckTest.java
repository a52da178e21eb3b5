package dev.cryptoworker.client.codec;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.migrate.TableMigration;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table key check: a wrong key is refused when the table is opened, never an empty read; the
 * check binds the stored format, and checks written before that still verify.
 */
@ExtendWith(SharedHBaseCluster.class)
class KeyCheckTest {
  private static final String SCHEMA = String.join("\n",
      "table: TABLE",
      "rowKey: { box: DET }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "    columns:",
      "      id: { box: DET, type: string }",
      "");
  private static final byte[] F = toBytes("f");

  /** {@code schema} with its id column moved from DET to SSE: a migration that changes a column. */
  private static TableSchema withSseId(TableSchema schema) {
    return TableSchema.parse(schema.toYaml().replace("id: { box: DET, type: string }", "id: { box: SSE, type: string }"));
  }

  @Test
  void rightKeysOpenAndRotatedKeysetsStillDoWrongOnesAreRefused(Connection hbase, @TempDir Path dir) throws Exception {
    Path keyset = dir.resolve("keyset.json");
    KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(new SecureRandom().generateSeed(32));
    KeysetFiles.generate(keyset, kek);
    TableSchema schema = SecureFixture.schema("keycheck", SCHEMA);
    try (SecureConnection secure = SecureFixture.createSecure(hbase, KeyProvider.fromKeysetFile(keyset, kek), schema);
        Table t = secure.getTable(SecureFixture.name(schema))) {
      t.put(new Put(toBytes("P1")).addColumn(F, toBytes("id"), toBytes("PT-1")));
    }
    KeysetFiles.rotate(keyset, kek);
    try (SecureConnection rotated = SecureConnection.wrap(hbase, KeyProvider.fromKeysetFile(keyset, kek), List.of(schema));
        Table t = rotated.getTable(SecureFixture.name(schema))) {
      assertArrayEquals(toBytes("PT-1"), t.get(new Get(toBytes("P1"))).getValue(F, toBytes("id")));
    }
    Path otherKeyset = dir.resolve("other.json");
    KeysetFiles.generate(otherKeyset, kek);
    try (SecureConnection wrong = SecureConnection.wrap(hbase, KeyProvider.fromKeysetFile(otherKeyset, kek),
        List.of(schema))) {
      KeyMismatchException e = assertThrows(KeyMismatchException.class,
          () -> wrong.getSecureTable(SecureFixture.name(schema)));
      assertEquals(schema.tableName(), e.table());
      assertTrue(e.getMessage().contains("which this client's keys do not have"), e.getMessage());
    }
  }

  @Test
  void tablesWithoutKeyCheckStillFailLoudlyWhenDecoding(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("nocheck", SCHEMA);
    try (Admin admin = hbase.getAdmin()) {
      admin.createTable(SecureConnection.descriptorFor(schema).build()); // as an earlier version did
    }
    SecureTableOptions legacy = SecureTableOptions.builder().legacyKeyChecks(schema.tableName()).build();
    try (SecureConnection right = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema), legacy);
        Table t = right.getTable(SecureFixture.name(schema))) {
      t.put(new Put(toBytes("P1")).addColumn(F, toBytes("id"), toBytes("PT-1")));
    }
    try (SecureConnection wrong = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema), legacy);
        Table t = wrong.getTable(SecureFixture.name(schema));
        ResultScanner s = t.getScanner(new Scan())) {
      CellDecodingException e = assertThrows(CellDecodingException.class, s::next);
      assertTrue(e.reason().contains("key id"), e.reason());
    }
  }

  @Test
  void aCheckBindsItsTableAndStoredFormat() throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    KeyCheck v2 = KeyCheck.of(keys, "t", StoredFormat.V2);
    String stored = v2.encode();
    assertDoesNotThrow(() -> v2.verify(stored));
    assertNotEquals(stored, KeyCheck.of(keys, "t", StoredFormat.V1).encode());
    // A descriptor whose format attribute was changed to 1: the client builds a format-1 codec.
    KeyMismatchException altered = assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(keys, "t", StoredFormat.V1).verify(stored));
    assertTrue(altered.getMessage().contains("created in stored format 2, but its descriptor now says 1"),
        altered.getMessage());
    KeyMismatchException otherTable = assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(keys, "u", StoredFormat.V2).verify(stored));
    assertTrue(otherTable.getMessage().contains("wrong key material"), otherTable.getMessage());
    KeyMismatchException otherKeys = assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(SecureFixture.randomKeys(), "t", StoredFormat.V2).verify(stored));
    assertTrue(otherKeys.getMessage().contains("wrong master key or keyset file"), otherKeys.getMessage());
  }

  @Test
  void checksOfEarlierVersionsCoverTheTableOnlyAndStillVerify() throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    String v1 = KeyCheck.of(keys, "t", StoredFormat.V2).encodeTableOnly();
    assertTrue(v1.startsWith("01"), v1);
    for (StoredFormat format : StoredFormat.values()) {
      assertDoesNotThrow(() -> KeyCheck.of(keys, "t", format).verify(v1));
    }
    assertThrows(KeyMismatchException.class, () -> KeyCheck.of(keys, "u", StoredFormat.V2).verify(v1));
    assertThrows(KeyMismatchException.class,
        () -> KeyCheck.of(SecureFixture.randomKeys(), "t", StoredFormat.V2).verify(v1));
  }

  @Test
  void aMigrationsPrepareStepRewritesAnEarlierCheckBindingTheFormat(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema schema = SecureFixture.schema("keycheck_v1", SCHEMA);
    TableSchema target = withSseId(schema);
    SecureFixture.createSecure(hbase, keys, schema).close();
    String earlier = new TableCodec(schema, keys).keyCheck().encodeTableOnly();
    try (Admin admin = hbase.getAdmin()) {
      admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(SecureFixture.name(schema)))
          .setValue(KeyCheck.ATTRIBUTE, earlier).build());
    }
    TableMigration.builder().connection(hbase).keys(keys).from(schema).to(target).legacyKeyCheck(true).build().prepare();
    try (Admin admin = hbase.getAdmin()) {
      String now = admin.getDescriptor(SecureFixture.name(schema)).getValue(KeyCheck.ATTRIBUTE);
      assertTrue(now.startsWith("02"), now);
      assertDoesNotThrow(() -> new TableCodec(schema, keys).keyCheck().verify(now));
    }
  }

  /**
   * A server that strips both descriptor attributes, or replays a version-1 key check (which does
   * not bind the format) without the format attribute, would make a format-3 table open in format
   * 1: refused unless the caller names the table as one of an earlier version.
   */
  @Test
  void aStrippedDescriptorOrAReplayedEarlierCheckIsRefusedUnlessTheTableIsNamedAsLegacy(Connection hbase)
      throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema schema = SecureFixture.schema("keycheck_strip", SCHEMA);
    TableName name = SecureFixture.name(schema);
    try (SecureConnection secure = SecureFixture.createSecure(hbase, keys, schema);
        Table t = secure.getTable(name)) {
      t.put(new Put(toBytes("P1")).addColumn(F, toBytes("id"), toBytes("PT-1")));
    }
    String replayed = new TableCodec(schema, keys).keyCheck().encodeTableOnly();
    try (Admin admin = hbase.getAdmin()) {
      TableDescriptor created = admin.getDescriptor(name);
      Object[][] attacks = {
          {TableDescriptorBuilder.newBuilder(created).removeValue(KeyCheck.FORMAT_ATTRIBUTE)
              .removeValue(KeyCheck.ATTRIBUTE).build(), "the descriptor has no key check"},
          {TableDescriptorBuilder.newBuilder(created).removeValue(KeyCheck.FORMAT_ATTRIBUTE)
              .setValue(KeyCheck.ATTRIBUTE, replayed).build(), "is of version 1, which does not bind the stored format"}};
      for (Object[] a : attacks) {
        admin.modifyTable((TableDescriptor) a[0]);
        try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
          KeyMismatchException e = assertThrows(KeyMismatchException.class, () -> secure.getTable(name));
          assertTrue(e.getMessage().contains("table " + name.getNameAsString()) && e.getMessage().contains((String) a[1])
              && e.getMessage().contains("legacyKeyChecks"), e.getMessage());
        }
      }
      admin.modifyTable(created);
    }
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
        Table t = secure.getTable(name)) {
      assertArrayEquals(toBytes("PT-1"), t.get(new Get(toBytes("P1"))).getValue(F, toBytes("id")));
    }
  }

  /** With its own schema on both sides, a migration only gives a legacy table its check (--prepare-only). */
  @Test
  void aLegacyTableGetsItsCheckWithoutASchemaChange(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema schema = SecureFixture.schema("keycheck_same", SCHEMA);
    try (Admin admin = hbase.getAdmin()) {
      admin.createTable(SecureConnection.descriptorFor(schema).build()); // as an earlier version did
    }
    TableMigration.builder().connection(hbase).keys(keys).from(schema).to(schema).legacyKeyCheck(true).build().prepare();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
        Table t = secure.getTable(SecureFixture.name(schema))) {
      t.put(new Put(toBytes("P1")).addColumn(F, toBytes("id"), toBytes("PT-1")));
      assertArrayEquals(toBytes("PT-1"), t.get(new Get(toBytes("P1"))).getValue(F, toBytes("id")));
    }
  }

  @Test
  void aMigrationOpensATableWithoutACurrentCheckOnlyWhenToldAndGivesItOne(Connection hbase) throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    TableSchema schema = SecureFixture.schema("keycheck_none", SCHEMA);
    TableSchema target = withSseId(schema);
    try (Admin admin = hbase.getAdmin()) {
      admin.createTable(SecureConnection.descriptorFor(schema).build()); // as an earlier version did
    }
    UncheckedIOException refused = assertThrows(UncheckedIOException.class,
        () -> TableMigration.builder().connection(hbase).keys(keys).from(schema).to(target).build());
    assertTrue(refused.getCause() instanceof KeyMismatchException, String.valueOf(refused.getCause()));
    TableMigration.builder().connection(hbase).keys(keys).from(schema).to(target).legacyKeyCheck(true).build().prepare();
    try (SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys).schema(target)
        .migratingFrom(schema).build();
        Table t = secure.getTable(SecureFixture.name(schema))) { // no legacyKeyChecks needed any more
      t.put(new Put(toBytes("P1")).addColumn(F, toBytes("id"), toBytes("PT-1")));
      assertArrayEquals(toBytes("PT-1"), t.get(new Get(toBytes("P1"))).getValue(F, toBytes("id")));
    }
    try (Admin admin = hbase.getAdmin()) {
      TableDescriptor d = admin.getDescriptor(SecureFixture.name(schema));
      assertEquals("1", d.getValue(KeyCheck.FORMAT_ATTRIBUTE), "the table keeps the format it was written in");
    }
  }
}
