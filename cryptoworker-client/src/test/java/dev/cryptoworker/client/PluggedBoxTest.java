package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.plugin.FoldedSearchBoxProvider;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.client.plugin.PaddedBoxProvider;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A box kind the repository does not ship ({@link PaddedBoxProvider}) plugs in with one {@code
 * META-INF/services} line: schemas accept it, its rules refuse what it cannot protect, and the
 * client stores and reads it on a real HBase without naming it anywhere. A searchable kind ({@link
 * FoldedSearchBoxProvider}) plugs in the same way: its index, the conditions it answers and the
 * check of a search's rows are the box's, so the client searches it unchanged.
 */
@ExtendWith(SharedHBaseCluster.class)
class PluggedBoxTest {
  private static final byte[] F = toBytes("f");
  private static final byte[] NOTE = toBytes("note");

  @Test
  void aKindFromAnotherModuleStoresPaddedCiphertextsAndReadsThemBack(Connection hbase) throws Exception {
    Plugged plugged = Plugged.create(hbase, "plugged", "note", PaddedBoxProvider.PADDED);
    TableSchema schema = plugged.schema();
    SecureConnection secure = plugged.secure();
    List<String> notes = List.of("a", "seen by dr. house", "x".repeat(27), "x".repeat(28) + "!", "");
    try (SecureTable table = secure.getSecureTable(SecureFixture.name(schema))) {
      for (int i = 0; i < notes.size(); i++) {
        table.put(new Put(toBytes("row-" + i)).addColumn(F, NOTE, toBytes(notes.get(i))));
      }
      for (int i = 0; i < notes.size(); i++) {
        Result r = table.get(new Get(toBytes("row-" + i)));
        assertArrayEquals(toBytes(notes.get(i)), r.getValue(F, NOTE), "row-" + i);
      }
    }
    // Stored: no plaintext, and lengths that tell only the block count (27 bytes and 4 fit one block).
    Set<Integer> lengths = new HashSet<>();
    int cells = 0;
    try (Table raw = hbase.getTable(SecureFixture.name(schema)); var scanner = raw.getScanner(new Scan())) {
      for (Result r : scanner) {
        for (Cell c : r.rawCells()) {
          byte[] value = CellUtil.cloneValue(c);
          for (String note : notes) {
            assertFalse(note.length() > 3 && Bytes.contains(value, toBytes(note)), "plaintext stored: " + note);
          }
          lengths.add(value.length);
          cells++;
        }
      }
    }
    assertEquals(notes.size(), cells);
    assertEquals(2, lengths.size(), "one stored length per block count, got " + lengths);
  }

  /**
   * A case-insensitive searchable kind: a search for one spelling finds every row whose value
   * differs only in case, through the region servers' index (the region walk returns them; no
   * filter runs on plaintext), and the rows pass the box's own check, which SSE's byte equality
   * would fail. Raw cells hold no plaintext.
   */
  @Test
  void aSearchableKindFromAnotherModuleIsSearchedThroughItsOwnIndexAndCheck(Connection hbase) throws Exception {
    Plugged plugged = Plugged.create(hbase, "folded", "name", FoldedSearchBoxProvider.FOLDED);
    TableSchema schema = plugged.schema();
    SecureConnection secure = plugged.secure();
    List<String> names = List.of("Alice Liddell", "ALICE LIDDELL", "Bob Dylan", "alice liddell", "Alice Lidell");
    byte[] name = toBytes("name");
    try (SecureTable table = secure.getSecureTable(SecureFixture.name(schema))) {
      for (int i = 0; i < names.size(); i++) {
        table.put(new Put(toBytes("row-" + i)).addColumn(F, name, toBytes(names.get(i))));
      }
      SingleColumnValueFilter search = new SingleColumnValueFilter(F, name, CompareOperator.EQUAL,
          new BinaryComparator(toBytes("aLiCe LiDdElL")));
      search.setFilterIfMissing(true);
      Scan scan = new Scan().setFilter(search);
      assertTrue(table.plan(scan).describe().startsWith("region servers: FOLDED index search in every region"),
          table.plan(scan).describe());
      List<String> found = new ArrayList<>();
      try (ResultScanner rows = table.getScanner(scan)) {
        for (Result r : rows) {
          found.add(Bytes.toString(r.getRow()) + "=" + Bytes.toString(r.getValue(F, name)));
        }
      }
      found.sort(null); // stored order is the DET row keys' order
      assertEquals(List.of("row-0=Alice Liddell", "row-1=ALICE LIDDELL", "row-3=alice liddell"), found);
    }
    try (Table raw = hbase.getTable(SecureFixture.name(schema)); var scanner = raw.getScanner(new Scan())) {
      for (Result r : scanner) {
        for (Cell c : r.rawCells()) {
          byte[] value = CellUtil.cloneValue(c);
          for (String n : names) {
            assertFalse(Bytes.contains(value, toBytes(n)) || Bytes.contains(value, toBytes(n.toLowerCase())),
                "plaintext stored: " + n);
          }
        }
      }
    }
  }

  @Test
  void theKindsRulesComeFromItsProvider() {
    InvalidSchemaException e = assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(
        "table: t\nrowKey: { box: PADDED }\nfamilies:\n  f:\n    default: { box: STD }\n"));
    assertEquals("<schema>:2: rowKey: a row key cannot use box PADDED (allowed: PLAIN, STD, DET, OPE)",
        e.getMessage());
    InvalidSchemaException unknown = assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(
        "table: t\nrowKey: { box: PLAIN }\nfamilies:\n  f:\n    default: { box: PADED }\n"));
    assertEquals("<schema>:5: table t, families.f.default.box: unknown box 'PADED'"
        + " (installed: PLAIN, STD, DET, OPE, ASHE, SSE, SPLASHE, FOLDED, PADDED)", unknown.getMessage());
  }
  /** A table whose family {@code f} lists one string column of {@code kind}, created on the shared cluster. */
  private record Plugged(TableSchema schema, SecureConnection secure) {
    static Plugged create(Connection hbase, String prefix, String column, BoxKind kind) throws Exception {
      TableSchema schema = SecureFixture.schema(prefix, "table: TABLE\nrowKey: { box: DET }\nfamilies:\n  f:\n"
          + "    default: { box: STD }\n    columns:\n      " + column + ": { box: " + kind.name() + ", type: string }\n");
      assertEquals(kind, schema.family("f").orElseThrow().policyFor(column).box());
      SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
      SecureFixture.create(secure, schema, 1, null);
      return new Plugged(schema, secure);
    }
  }
}
