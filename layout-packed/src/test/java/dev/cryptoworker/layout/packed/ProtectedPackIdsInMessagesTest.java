package dev.cryptoworker.layout.packed;

import static dev.cryptoworker.layout.packed.PackedLayoutTest.key;
import static dev.cryptoworker.layout.packed.PackedLayoutTest.scanKeys;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.codec.StoredKeyFingerprint;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Pack ids and entry rows are stored row keys; under OPE they show roughly where their plaintext
 * lies. The PACKED layout's messages name them by their fingerprint: a pack or an entry that does
 * not open, read or inspected.
 */
@ExtendWith(SharedHBaseCluster.class)
class ProtectedPackIdsInMessagesTest {
  private static final int ROWS = 20;

  private static TableSchema schema(String prefix, String mode) {
    return SecureFixture.schema(prefix, PackedLayoutTest.SCHEMA.replace("ROWBOX", "OPE")
        .replace("mode: GENERIC", "mode: " + mode));
  }

  /** {@code message} names the table and the reason, and the stored key {@code stored} only by its fingerprint. */
  private static void assertNamesOnlyTheFingerprint(String message, TableName table, byte[] stored, String reason) {
    assertTrue(message.contains("table " + table.getNameAsString()), message);
    assertTrue(message.contains(reason), message);
    assertTrue(message.contains(StoredKeyFingerprint.of(stored)), message);
    String printed = Bytes.toStringBinary(stored);
    assertFalse(message.contains(printed.substring(0, Math.min(printed.length(), 16))), "the stored key in: " + message);
    for (int i = 0; i < ROWS; i++) {
      assertFalse(message.contains(key(i)), "a plaintext row key in: " + message);
    }
  }

  private static void load(Table t) throws Exception {
    for (int i = 0; i < ROWS; i++) {
      t.put(new Put(toBytes(key(i))).addColumn(toBytes("f"), toBytes("q"), toBytes("secret " + i)));
    }
  }

  @Test
  void aPackThatDoesNotOpenIsNamedByItsIdsFingerprint(Connection hbase) throws Exception {
    TableSchema schema = schema("ope_pack_messages", "GENERIC");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema))) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name); Table raw = hbase.getTable(name)) {
        load(t);
        List<Result> packs = new ArrayList<>();
        try (ResultScanner s = raw.getScanner(new Scan().addColumn(PackedLayout.FAMILY, PackedLayout.PACK))) {
          s.forEach(packs::add);
        }
        assertTrue(packs.size() >= 3, ROWS + " rows in packs of at most 6: " + packs.size());
        byte[] second = packs.get(1).getRow();
        // The third pack's bytes under the second's id: bound to its own id, it does not open there.
        raw.put(new Put(second).addColumn(PackedLayout.FAMILY, PackedLayout.PACK, packs.get(2).value()));

        CellDecodingException read = assertThrows(CellDecodingException.class,
            () -> scanKeys(t, new Scan(), new TreeMap<>()));
        assertEquals(StoredKeyFingerprint.of(second), read.row());
        assertNamesOnlyTheFingerprint(read.getMessage(), name, second, "moved from another pack id or table");

        List<InspectedCell> broken = new ArrayList<>();
        secure.inspector(name).forEachRow(unit -> unit.stream().filter(c -> c.problem().isPresent())
            .forEach(broken::add));
        assertEquals(1, broken.size(), "the one pack that does not open");
        assertNamesOnlyTheFingerprint(broken.get(0).problem().orElseThrow(), name, second,
            "moved from another pack id or table");
      }
    }
  }

  @Test
  void anEntryThatDoesNotOpenIsNamedByItsRowsFingerprint(Connection hbase) throws Exception {
    TableSchema schema = schema("ope_entry_messages", "APPEND");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema),
        SecureTableOptions.builder().backgroundMerges(false).build())) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name); Table raw = hbase.getTable(name)) {
        load(t);
        List<Cell> entries = new ArrayList<>();
        try (ResultScanner s = raw.getScanner(new Scan().addFamily(AppendEntries.FAMILY))) {
          s.forEach(r -> entries.addAll(List.of(r.rawCells())));
        }
        assertEquals(ROWS, entries.size(), "one entry per put, not merged yet");
        Cell first = entries.get(0);
        byte[] second = CellUtil.cloneRow(entries.get(1));
        // The first entry's bytes under the second's row: bound to its row, it does not open there.
        raw.put(new Put(second).addColumn(AppendEntries.FAMILY, CellUtil.cloneQualifier(first),
            CellUtil.cloneValue(first)));

        CellDecodingException read = assertThrows(CellDecodingException.class,
            () -> scanKeys(t, new Scan(), new TreeMap<>()));
        assertEquals(StoredKeyFingerprint.of(second), read.row());
        assertTrue(read.column().startsWith("entry "), read.column());
        assertNamesOnlyTheFingerprint(read.getMessage(), name, second, "moved from another row");
      }
    }
  }
}
