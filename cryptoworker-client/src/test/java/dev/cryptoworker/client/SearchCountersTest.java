package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static dev.cryptoworker.client.SearchableColumnTest.tagIs;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.testing.SharedHBaseCluster;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SSE counters only grow: a counter table restored from an older copy would hand out entry keys
 * again (earlier rows dropping out of searches), so a client refuses a counter it sees go back.
 */
@ExtendWith(SharedHBaseCluster.class)
class SearchCountersTest {
  private static final byte[] SSE = toBytes("sse");

  @Test
  void aCounterThatGoesBackIsRefusedOnWriteAndSearch(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_restore");
    ValueIndex flu = fx.codec.valueIndexes(F, TAG, toBytes("flu")).get(0);
    byte[] snapshot;
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      fx.table.put(new Put(toBytes("r-0")).addColumn(F, TAG, toBytes("flu")));
      snapshot = ids.get(new Get(flu.counterName())).getValue(HBaseIdentifierSource.FAMILY, SSE);
      for (int i = 1; i < 4; i++) {
        fx.table.put(new Put(toBytes("r-" + i)).addColumn(F, TAG, toBytes("flu")));
      }
      assertEquals(4, fx.search(tagIs("flu")).size());
      ids.put(new Put(flu.counterName()).addColumn(HBaseIdentifierSource.FAMILY, SSE, snapshot)); // the restore
    }
    Exception write = assertThrows(Exception.class,
        () -> fx.table.put(new Put(toBytes("r-4")).addColumn(F, TAG, toBytes("flu"))));
    assertTrue(messages(write).contains("went back (it held "), messages(write));
    Exception search = assertThrows(Exception.class, () -> fx.search(tagIs("flu")));
    assertTrue(messages(search).contains("went back (it held "), messages(search));

    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      ids.delete(new Delete(flu.counterName())); // a restore from before the value's first write
    }
    Exception vanished = assertThrows(Exception.class, () -> fx.search(tagIs("flu")));
    assertTrue(messages(vanished).contains("now no counter"), messages(vanished));
  }

  /** The messages of {@code e} and its causes. */
  private static String messages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t.getMessage()).append(" / ");
    }
    return out.toString();
  }
}
