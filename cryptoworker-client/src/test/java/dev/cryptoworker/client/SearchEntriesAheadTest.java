package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Forward privacy across a failed batch: SSE entry numbers a batch took ahead and never used are
 * dropped with the batch, so no later write lands on an entry a search token issued since the
 * numbers were taken already covers.
 */
@ExtendWith(SharedHBaseCluster.class)
class SearchEntriesAheadTest {
  private static Put tagged(String row, String tag) {
    return new Put(toBytes(row)).addColumn(F, TAG, toBytes(tag));
  }

  @Test
  void entryNumbersTakenByAFailedBatchAreNeverUsedLater(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "ahead");
    // Counter of "damaged" exists and holds 3 bytes, so the batch's increment fails after the
    // counter of "fresh" was created with the batch's numbers.
    fx.table.put(tagged("b-0", "damaged"));
    ValueIndex damaged = fx.codec.valueIndexes(F, TAG, toBytes("damaged")).get(0);
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      ids.put(new Put(damaged.counterName()).addColumn(HBaseIdentifierSource.FAMILY, toBytes("sse"), new byte[3]));
    }
    assertThrows(IOException.class, () -> fx.table.put(List.of(tagged("c-0", "fresh"), tagged("b-1", "damaged"))));

    fx.table.put(tagged("c-1", "fresh"));
    ValueIndex fresh = fx.codec.valueIndexes(F, TAG, toBytes("fresh")).get(0);
    byte[] stored;
    try (Table raw = hbase.getTable(SecureFixture.name(fx.schema))) {
      stored = raw.get(new Get(fx.codec.encodeRow(toBytes("c-1")))).getValue(F, SearchIndexCells.qualifier(TAG));
    }
    byte[] entryKey = Arrays.copyOfRange(stored, stored.length - 16, stored.length);
    // Entry 0 went to the failed batch (a gap no search trips on); a search after it covers entry 0.
    assertArrayEquals(fresh.entryKey(1), entryKey, "c-1 must take entry 1, not the failed batch's entry 0");
  }
}
