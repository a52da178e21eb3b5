package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Stored formats: new tables are written in format 6 (format 2's one-byte key headers and 8-byte
 * DET row keys in one block, format 3's wide SSE counter tree, STD under XAES-256-GCM, format 5's
 * SSE index from one MAC and SSE values under XAES, format 6's writer lanes), tables keep
 * the format they were created with, and tables of earlier versions (no recorded format) read as
 * format 1.
 */
@ExtendWith(SharedHBaseCluster.class)
class StoredFormatTest {
  private static final String SCHEMA = String.join("\n",
      "table: TABLE",
      "rowKey: { box: DET }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "    columns:",
      "      id: { box: DET, type: string }",
      "      age: { box: OPE, type: long }",
      "      total: { box: ASHE, type: long }",
      "");
  private static final byte[] F = toBytes("f");
  private static final int ROWS = 40;

  private static TableSchema schema(String prefix, String formatLine) {
    return SecureFixture.schema(prefix, SCHEMA.replace("families:", formatLine + "families:"));
  }

  private static void write(Table t, int from, int to) throws Exception {
    List<Put> puts = new ArrayList<>();
    for (long i = from; i < to; i++) {
      puts.add(new Put(toBytes(i)).addColumn(F, toBytes("id"), toBytes("PT-" + i))
          .addColumn(F, toBytes("age"), toBytes(20 + i)).addColumn(F, toBytes("total"), toBytes(i))
          .addColumn(F, toBytes("note"), toBytes("note of patient " + i)));
    }
    t.put(puts);
  }

  /** Every stored cell, checked: row key of {@code rowKeyLength} bytes, no plaintext anywhere. */
  private static List<Cell> rawCells(Connection hbase, TableSchema schema, int rowKeyLength) throws Exception {
    List<Cell> cells = new ArrayList<>();
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      for (Result r : SecureFixture.scanAll(raw, new Scan())) {
        assertEquals(rowKeyLength, r.getRow().length, "stored row key length");
        for (Cell c : r.rawCells()) {
          String value = Bytes.toStringBinary(CellUtil.cloneValue(c));
          assertTrue(!value.contains("PT-") && !value.contains("note of"), "plaintext stored: " + value);
          cells.add(c);
        }
      }
    }
    return cells;
  }

  private static String recordedFormat(Connection hbase, TableSchema schema) throws Exception {
    try (Admin admin = hbase.getAdmin()) {
      return admin.getDescriptor(SecureFixture.name(schema)).getValue(SecureConnection.STORED_FORMAT_ATTRIBUTE);
    }
  }

  @Test
  void newTablesAreStoredInFormatSixAndWorkAsBefore(Connection hbase) throws Exception {
    TableSchema schema = schema("format4", "");
    KeyProvider keys = SecureFixture.randomKeys();
    try (SecureConnection secure = SecureFixture.createSecure(hbase, keys, schema);
        Table t = secure.getTable(SecureFixture.name(schema))) {
      write(t, 0, ROWS);
      assertEquals("6", recordedFormat(hbase, schema));
      // 8-byte DET row key: 1-byte header + one block, against 5 + 16 + 8 in format 1.
      List<Cell> cells = rawCells(hbase, schema, 1 + 16);
      int noteKeyId = keys.keyRing(KeyScope.column(schema.tableName(), "f", "note", BoxKind.STD), 32).primary().keyId();
      for (Cell c : cells) {
        String column = Bytes.toString(CellUtil.cloneQualifier(c));
        int length = c.getValueLength();
        switch (column) {
          case "id" -> assertTrue(length == 1 + 16, "short DET value in one block: " + length);
          case "age" -> assertEquals(1 + 16, length, "OPE long: header + one block");
          case "total" -> {
            assertEquals(AsheCell.LEASED_LENGTH, length, "ASHE keeps format 1's header: region servers parse it");
            assertEquals(1, CellUtil.cloneValue(c)[0]);
          }
          case "note" -> {
            // "note of patient n" is 17 or 18 bytes; format 3's AES-GCM would store 29 more, not 41.
            assertTrue(length == 1 + 24 + 17 + 16 || length == 1 + 24 + 18 + 16,
                "STD: 1-byte header + 24-byte nonce + tag: " + length);
            assertEquals((byte) noteKeyId, CellUtil.cloneValue(c)[0], "the note key's header");
          }
          default -> throw new AssertionError("unexpected stored column " + column);
        }
      }
      // Reads, server-side equality and ranges, aggregation: as in format 1.
      Result r = t.get(new Get(toBytes(7L)));
      assertEquals("PT-7", Bytes.toString(r.getValue(F, toBytes("id"))));
      assertEquals("note of patient 7", Bytes.toString(r.getValue(F, toBytes("note"))));
      Scan equal = new Scan().setFilter(new SingleColumnValueFilter(F, toBytes("id"), CompareOperator.EQUAL,
          toBytes("PT-12")));
      assertEquals(List.of(12L), rows(t, equal));
      Scan range = new Scan().setFilter(new SingleColumnValueFilter(F, toBytes("age"), CompareOperator.GREATER_OR_EQUAL,
          toBytes(20L + ROWS - 3)));
      assertEquals(List.of((long) ROWS - 3, (long) ROWS - 2, (long) ROWS - 1), rows(t, range));
      // Operators' tools resolve the one-byte headers to whole key ids.
      int oldest = keys.keyRing(KeyScope.rowKey(schema.tableName(), BoxKind.DET), 64).keys().get(0).keyId();
      List<InspectedCell> inspected = secure.inspector(SecureFixture.name(schema)).row(toBytes(3L));
      assertEquals(4, inspected.size());
      for (InspectedCell cell : inspected) {
        assertEquals(oldest, cell.rowKeyId().getAsInt());
        assertTrue(cell.valueKeyId().isPresent(), "value key id of " + Bytes.toString(cell.qualifier().orElseThrow()));
      }
    }
  }

  /** A check on a table. */
  @FunctionalInterface
  private interface TableCheck {
    void check(Table t) throws Exception;
  }

  /**
   * Creates {@code schema}'s table and writes half the rows, checks that the table recorded the
   * schema's format, then writes the rest through a second connection whose schema does not say
   * (it follows the table) and runs {@code check} there; returns the keys.
   */
  private static KeyProvider writeThroughTwoConnections(Connection hbase, TableSchema schema, TableCheck check)
      throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    try (SecureConnection secure = SecureFixture.createSecure(hbase, keys, schema);
        Table t = secure.getTable(SecureFixture.name(schema))) {
      write(t, 0, ROWS / 2);
    }
    assertEquals(Integer.toString(schema.storedFormat().orElseThrow().number()), recordedFormat(hbase, schema));
    TableSchema silent = schema.toBuilder().storedFormat(null).build();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(silent));
        Table t = secure.getTable(SecureFixture.name(silent))) {
      write(t, ROWS / 2, ROWS);
      check.check(t);
    }
    return keys;
  }

  private static List<Long> rows(Table t, Scan scan) throws Exception {
    List<Long> out = new ArrayList<>();
    for (Result r : SecureFixture.scanAll(t, scan)) {
      out.add(Bytes.toLong(r.getRow()));
    }
    out.sort(null);
    return out;
  }

  /**
   * A format-3 table keeps format 3's STD form (AES-GCM, 12-byte IVs) for every write, and its
   * cells open, however many connections later: formats 4 and 5 change new tables only.
   */
  @Test
  void formatThreeTablesKeepAesGcmStdCellsAndTheyStillOpen(Connection hbase) throws Exception {
    TableSchema formatThree = schema("format3", "storedFormat: 3\n");
    writeThroughTwoConnections(hbase, formatThree, t -> {
      for (long i = 0; i < ROWS; i++) {
        assertEquals("note of patient " + i, Bytes.toString(t.get(new Get(toBytes(i))).getValue(F, toBytes("note"))));
      }
    });
    int notes = 0;
    for (Cell c : rawCells(hbase, formatThree, 1 + 16)) {
      if (Bytes.toString(CellUtil.cloneQualifier(c)).equals("note")) {
        int length = c.getValueLength();
        assertTrue(length == 1 + 12 + 17 + 16 || length == 1 + 12 + 18 + 16,
            "STD in format 3: 1-byte header + 12-byte IV + tag: " + length);
        notes++;
      }
    }
    assertEquals(ROWS, notes);
  }

  @Test
  void tablesKeepTheFormatTheyWereCreatedWith(Connection hbase) throws Exception {
    TableSchema formatOne = schema("format1", "storedFormat: 1\n");
    KeyProvider keys = writeThroughTwoConnections(hbase, formatOne, t -> {
      assertEquals(ROWS, SecureFixture.scanAll(t, new Scan()).size());
      assertArrayEquals(toBytes("PT-3"), t.get(new Get(toBytes(3L))).getValue(F, toBytes("id")));
    });
    rawCells(hbase, formatOne, 5 + 16 + 8);
    // A schema that says otherwise is refused, naming both formats.
    TableSchema other = formatOne.toBuilder().storedFormat(dev.cryptoworker.cryptobox.StoredFormat.V2).build();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(other))) {
      TableName name = SecureFixture.name(other);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> secure.getTable(name));
      assertTrue(e.getMessage().contains("table " + name + " is stored in format 1")
          && e.getMessage().contains("storedFormat: 2"), e.getMessage());
    }
  }

  @Test
  void tablesOfEarlierVersionsReadAsFormatOne(Connection hbase) throws Exception {
    TableSchema schema = schema("format_none", "");
    try (Admin admin = hbase.getAdmin()) {
      admin.createTable(SecureConnection.descriptorFor(schema).build()); // as versions before format 2 did
      RegionSupport.createCounterTable(admin); // ASHE's identifier leases
    }
    SecureTableOptions legacy = SecureTableOptions.builder().legacyKeyChecks(schema.tableName()).build();
    try (SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema), legacy);
        Table t = secure.getTable(SecureFixture.name(schema))) {
      write(t, 0, 5);
      assertEquals("note of patient 4", Bytes.toString(t.get(new Get(toBytes(4L))).getValue(F, toBytes("note"))));
    }
    rawCells(hbase, schema, 5 + 16 + 8);
  }

  /** The descriptor's format attribute is bound by the key check: altered or removed, the table is refused. */
  @Test
  void alteredDescriptorMetadataIsRefusedBeforeAnyRead(Connection hbase) throws Exception {
    TableSchema schema = schema("descriptor", "");
    KeyProvider keys = SecureFixture.randomKeys();
    try (SecureConnection secure = SecureFixture.createSecure(hbase, keys, schema);
        Table t = secure.getTable(SecureFixture.name(schema))) {
      write(t, 0, 5);
    }
    TableName name = SecureFixture.name(schema);
    try (Admin admin = hbase.getAdmin()) {
      TableDescriptor created = admin.getDescriptor(name);
      String[][] alterations = {
          {SecureConnection.STORED_FORMAT_ATTRIBUTE, "3", "created in stored format 6, but its descriptor now says 3"},
          {SecureConnection.STORED_FORMAT_ATTRIBUTE, "2", "created in stored format 6, but its descriptor now says 2"},
          {SecureConnection.STORED_FORMAT_ATTRIBUTE, "1", "created in stored format 6, but its descriptor now says 1"},
          {SecureConnection.STORED_FORMAT_ATTRIBUTE, null, "created in stored format 6, but its descriptor now says 1"},
          {"cryptoworker.keycheck", null, "records a stored format (cryptoworker.storedformat) but no key check"}};
      for (String[] a : alterations) {
        TableDescriptorBuilder altered = TableDescriptorBuilder.newBuilder(created);
        admin.modifyTable((a[1] == null ? altered.removeValue(a[0]) : altered.setValue(a[0], a[1])).build());
        try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
          KeyMismatchException e = assertThrows(KeyMismatchException.class, () -> secure.getTable(name));
          assertTrue(e.getMessage().contains("table " + name.getNameAsString()) && e.getMessage().contains(a[2]),
              e.getMessage());
        }
      }
      admin.modifyTable(created);
    }
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
        Table t = secure.getTable(name)) {
      assertEquals("note of patient 1", Bytes.toString(t.get(new Get(toBytes(1L))).getValue(F, toBytes("note"))));
    }
  }

  /** Keysets rotated before format 2 may hold two keys ending in the same byte: new tables then get format 1. */
  @Test
  void keysetsFormatTwoCannotTellApartKeepNewTablesInFormatOne(Connection hbase) throws Exception {
    KeyProvider base = SecureFixture.randomKeys();
    KeyProvider clashing = (scope, length) -> {
      dev.cryptoworker.cryptobox.VersionedKey k = base.keyRing(scope, length).primary();
      dev.cryptoworker.cryptobox.VersionedKey older = new dev.cryptoworker.cryptobox.VersionedKey(0x010000aa, k.key());
      dev.cryptoworker.cryptobox.VersionedKey newer = new dev.cryptoworker.cryptobox.VersionedKey(0x020000aa, k.key());
      return new dev.cryptoworker.cryptobox.KeyRing(newer, List.of(older, newer));
    };
    TableSchema schema = schema("format_clash", "");
    try (SecureConnection secure = SecureFixture.createSecure(hbase, clashing, schema);
        Table t = secure.getTable(SecureFixture.name(schema))) {
      write(t, 0, 3);
      assertEquals("1", recordedFormat(hbase, schema));
      assertEquals("PT-2", Bytes.toString(t.get(new Get(toBytes(2L))).getValue(F, toBytes("id"))));
    }
    rawCells(hbase, schema, 5 + 16 + 8);
    TableSchema asksForTwo = schema.toBuilder().storedFormat(dev.cryptoworker.cryptobox.StoredFormat.V2).build();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> SecureConnection.wrap(hbase, clashing, List.of(asksForTwo)));
    assertTrue(String.valueOf(e.getCause()).contains("end in the same byte"), String.valueOf(e.getCause()));
  }
}
