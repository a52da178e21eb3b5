package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static dev.cryptoworker.client.SearchableColumnTest.tagIs;
import static dev.cryptoworker.testing.CauseChain.messages;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.testing.OwnClusters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stored format 7's counter regions hold every lane in memory, up to a share of the region
 * server's heap: past it, a batch is refused before its rows are sent, naming the share, and what
 * was written before stays found.
 */
@OwnClusters
class CountLogBudgetTest {
  @Test
  void writesPastTheRegionServersHeapShareForCountLogsFailBeforeTheirRowsAreSent(@TempDir Path dir) throws Exception {
    // 384 MB of heap at 160 bytes per lane: a share of 2e-6 holds about 4 lanes.
    try (EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(dir).maxHeap("384m")
            .setting("cryptoworker.count-logs.heap-share", "0.000002").start();
        Connection connection = ConnectionFactory.createConnection(
            SecureFixture.clientConfiguration(hbase.zookeeperQuorum(), hbase.zookeeperPort(), 3, 100, 30_000))) {
      SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(connection, "sse_budget", "storedFormat: 7\n");
      fx.table.put(new Put(toBytes("r-0")).addColumn(F, TAG, toBytes("mumps")));
      fx.table.put(new Put(toBytes("r-1")).addColumn(F, TAG, toBytes("mumps"))); // the same lane: nothing more held
      List<Put> batch = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        batch.add(new Put(toBytes("b-" + i)).addColumn(F, TAG, toBytes("value-" + i)));
      }
      Exception refused = assertThrows(Exception.class, () -> fx.table.put(batch));
      assertTrue(messages(refused).contains("search-index entry counts were not written to cryptoworker_ids"),
          messages(refused));
      assertTrue(messages(refused).contains("past the most its heap share allows (cryptoworker.count-logs.heap-share=2.0E-6"),
          messages(refused));
      for (int i = 0; i < 10; i++) {
        assertFalse(fx.table.exists(new Get(toBytes("b-" + i))), "the refused batch sent no row");
      }
      assertEquals(Set.of("r-0", "r-1"), new HashSet<>(fx.search(tagIs("mumps"))));
    }
  }
}
