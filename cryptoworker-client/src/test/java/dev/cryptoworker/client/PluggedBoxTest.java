package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptoworker.client.plugin.PaddedBoxProvider;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A box kind the repository does not ship ({@link PaddedBoxProvider}) plugs in with one {@code
 * META-INF/services} line: schemas accept it, its rules refuse what it cannot protect, and the
 * client stores and reads it on a real HBase without naming it anywhere.
 */
@ExtendWith(SharedHBaseCluster.class)
class PluggedBoxTest {
  private static final byte[] F = toBytes("f");
  private static final byte[] NOTE = toBytes("note");

  @Test
  void aKindFromAnotherModuleStoresPaddedCiphertextsAndReadsThemBack(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("plugged", "table: TABLE\nrowKey: { box: DET }\nfamilies:\n  f:\n"
        + "    default: { box: STD }\n    columns:\n      note: { box: PADDED, type: string }\n");
    assertEquals(PaddedBoxProvider.PADDED, schema.family("f").orElseThrow().policyFor("note").box());
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    SecureFixture.create(secure, schema, 1, null);
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

  @Test
  void theKindsRulesComeFromItsProvider() {
    InvalidSchemaException e = assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(
        "table: t\nrowKey: { box: PADDED }\nfamilies:\n  f:\n    default: { box: STD }\n"));
    assertEquals("<schema>:2: rowKey: a row key cannot use box PADDED (allowed: PLAIN, STD, DET, OPE)",
        e.getMessage());
    InvalidSchemaException unknown = assertThrows(InvalidSchemaException.class, () -> TableSchema.parse(
        "table: t\nrowKey: { box: PLAIN }\nfamilies:\n  f:\n    default: { box: PADED }\n"));
    assertEquals("<schema>:5: families.f.default.box: unknown box 'PADED'"
        + " (installed: PLAIN, STD, DET, OPE, ASHE, SSE, SPLASHE, PADDED)", unknown.getMessage());
  }
}
