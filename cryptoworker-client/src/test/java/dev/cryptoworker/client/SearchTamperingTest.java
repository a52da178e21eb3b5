package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.KIND;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static dev.cryptoworker.client.SearchableColumnTest.tagIs;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.embedded.HostileScans;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server that moves index cells cannot make a search return a wrong row: SSE index cells are not
 * bound to their rows, so the client checks each returned row's decrypted value (docs/boxes.md: what a
 * malicious server can do to searches).
 */
@ExtendWith(SharedHBaseCluster.class)
class SearchTamperingTest {
  @Test
  void anIndexCellCopiedToAnotherRowDoesNotReturnThatRow(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_moved");
    for (int i = 0; i < 6; i++) {
      fx.table.put(new Put(toBytes("a-" + i)).addColumn(F, TAG, toBytes("flu")).addColumn(F, KIND, toBytes("a")));
      fx.table.put(new Put(toBytes("b-" + i)).addColumn(F, TAG, toBytes("cold")).addColumn(F, KIND, toBytes("b")));
    }
    byte[] indexQualifier = SearchIndexCells.qualifier(TAG);
    try (Table raw = hbase.getTable(SecureFixture.name(fx.schema))) {
      // The server's move: a-0's index cell (its "flu" entry) into b-0, which holds "cold".
      byte[] moved = raw.get(new Get(fx.codec.encodeRow(toBytes("a-0")))).getValue(F, indexQualifier);
      raw.put(new Put(fx.codec.encodeRow(toBytes("b-0"))).addColumn(F, indexQualifier, moved));
    }
    List<String> flu = fx.search(tagIs("flu"));
    assertEquals(List.of(), flu.stream().filter(r -> r.startsWith("b-")).toList(), "rows without flu: " + flu);
    // a-0 is left out: its entry now points at b-0 (a hidden row is not detected; docs/boxes.md).
    assertEquals(5, flu.size(), flu.toString());

    // The same when the caller's columns leave the searched one out: the client reads it to check.
    List<String> kindsOnly = new ArrayList<>();
    for (Result r : SecureFixture.scanAll(fx.table, new Scan().addColumn(F, KIND).setFilter(tagIs("flu")))) {
      assertEquals("a", Bytes.toString(r.getValue(F, KIND)));
      assertEquals(null, r.getValue(F, TAG), "a column the caller did not ask for is not returned");
      kindsOnly.add(Bytes.toString(r.getRow()));
    }
    assertEquals(flu, kindsOnly);
  }

  /**
   * Hits are the server's word: a server that widens the row range, or returns a row twice, cannot
   * make a search return a row outside the range or a row again. PLAIN row keys, so a range runs.
   */
  @Test
  void aSearchReturnsNoRowOutsideItsRangeAndNoRowTwiceWhateverTheServerSends(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.withRowKey(SecureFixture.schema("sse_hostile", SearchableColumnTest.SCHEMA), "PLAIN");
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    secure.createTable(SecureConnection.descriptorFor(schema).setCoprocessor(
        CoprocessorDescriptorBuilder.newBuilder(HostileScans.OBSERVER).setPriority(HostileScans.PRIORITY).build()),
        null);
    Table table = secure.getTable(SecureFixture.name(schema));
    List<String> all = new ArrayList<>();
    for (char c = 'a'; c <= 'h'; c++) {
      table.put(new Put(toBytes(c + "-row")).addColumn(F, TAG, toBytes("flu")));
      all.add(c + "-row");
    }
    Scan range = new Scan().withStartRow(toBytes("c")).withStopRow(toBytes("f")).setFilter(tagIs("flu"));
    List<String> expected = List.of("c-row", "d-row", "e-row");
    assertEquals(expected, rows(table, range), "an honest server");
    assertEquals(all, rows(table, new Scan(range).withStartRow(new byte[0]).withStopRow(new byte[0])
        .setAttribute(HostileScans.ATTRIBUTE, toBytes(HostileScans.REPEAT_ROWS))), "every row sent twice");
    assertEquals(expected, rows(table, new Scan(range)
        .setAttribute(HostileScans.ATTRIBUTE, toBytes(HostileScans.WIDEN_RANGE))), "the range dropped on the server");
  }

  /** The client's range check of search hits compares stored keys: OPE long keys order negatives first. */
  @Test
  void aSearchOverAnOpeLongRangeAcrossZeroKeepsEveryRowTheRangeHolds(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("sse_ope_range", SearchableColumnTest.SCHEMA).toBuilder()
        .rowKey(ColumnPolicy.of(BoxKind.OPE, ValueType.LONG)).build();
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    Table table = secure.getTable(SecureFixture.name(schema));
    for (long k = -5; k <= 5; k++) {
      table.put(new Put(toBytes(k)).addColumn(F, TAG, toBytes("flu")));
    }
    List<Long> found = new ArrayList<>();
    for (Result r : SecureFixture.scanAll(table, new Scan().withStartRow(toBytes(-3L)).withStopRow(toBytes(3L))
        .setFilter(tagIs("flu")))) {
      found.add(Bytes.toLong(r.getRow()));
    }
    assertEquals(List.of(-3L, -2L, -1L, 0L, 1L, 2L), found);
  }

  private static List<String> rows(Table table, Scan scan) throws Exception {
    List<String> out = new ArrayList<>();
    for (Result r : SecureFixture.scanAll(table, scan)) {
      out.add(Bytes.toString(r.getRow()));
    }
    return out;
  }
}
