package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Forward privacy across a failed batch: SSE entry numbers a batch took ahead and never used are
 * dropped with the batch, so no later write lands on an entry a search token issued since the
 * numbers were taken already covers. Shared counters (formats 1 to 5); a writer lane (formats 6 and 7)
 * never numbers an entry twice, whatever its batches do.
 */
@ExtendWith(SharedHBaseCluster.class)
class SearchEntriesAheadTest {
  private static Put tagged(String row, String tag) {
    return new Put(toBytes(row)).addColumn(F, TAG, toBytes(tag));
  }

  @Test
  void entryNumbersTakenByAFailedBatchAreNeverUsedLater(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "ahead", SearchCountersTest.SHARED_COUNTERS);
    // The counter of a "damaged" value exists and holds 3 bytes, so its region's takes fail; the
    // counter of "fresh" lives in another counter region (they split on the first 4 bits), whose
    // take succeeds, so the failed batch took entry 0 of "fresh".
    ValueIndex fresh = fx.codec.writeIndex(F, TAG, toBytes("fresh"));
    int d = 0;
    while ((fx.codec.writeIndex(F, TAG, toBytes("damaged-" + d)).counterName()[0] & 0xf0)
        == (fresh.counterName()[0] & 0xf0)) {
      d++;
    }
    String damagedTag = "damaged-" + d;
    fx.table.put(tagged("b-0", damagedTag));
    ValueIndex damaged = fx.codec.writeIndex(F, TAG, toBytes(damagedTag));
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      ids.put(new Put(damaged.counterName()).addColumn(HBaseIdentifierSource.FAMILY, toBytes("sse"), new byte[3]));
    }
    assertThrows(IOException.class, () -> fx.table.put(List.of(tagged("c-0", "fresh"), tagged("b-1", damagedTag))));
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      byte[] counter = ids.get(new Get(fresh.counterName())).getValue(HBaseIdentifierSource.FAMILY, toBytes("sse"));
      assertEquals(1, fresh.count(Bytes.toLong(counter)), "the failed batch took entry 0 of fresh");
    }

    fx.table.put(tagged("c-1", "fresh"));
    byte[] stored;
    try (Table raw = hbase.getTable(SecureFixture.name(fx.schema))) {
      stored = raw.get(new Get(fx.codec.encodeRow(toBytes("c-1")))).getValue(F, SearchIndexCells.qualifier(TAG));
    }
    byte[] entryKey = Arrays.copyOfRange(stored, stored.length - 16, stored.length);
    // Entry 0 went to the failed batch (a gap no search trips on); a search after it covers entry 0.
    assertArrayEquals(fresh.entryKey(1), entryKey, "c-1 must take entry 1, not the failed batch's entry 0");
  }
}
