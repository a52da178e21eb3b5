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

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.region.CountLogCells;
import dev.cryptoworker.testing.OwnClusters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stored format 7's counter regions hold lanes in memory, up to a share of the region server's
 * heap, and compact them into lane rows: a log cell larger than the whole share is refused before
 * its batch's rows are sent, naming the share; many more lanes than the share holds are written,
 * compacted and found, by searches running meanwhile and after the counter regions reopen.
 */
@OwnClusters
class CountLogBudgetTest {
  /**
   * 3,000 lanes through a share that holds about 1,000 (each region compacting at 100): without
   * compaction the writes past the share would be refused. A searcher runs while they are written,
   * each search required to find exactly the rows acknowledged before it began; afterwards every
   * value finds its row, after the counter regions reopen, and after the region holding the
   * compacted lanes splits through them.
   */
  @Test
  void lanesPastTheHeapShareAreCompactedIntoLaneRowsAndSearchesFindEveryRowMeanwhile(@TempDir Path dir)
      throws Exception {
    int values = 3_000;
    int batchSize = 30;
    // about 370 MB of usable heap at 160 bytes per lane: a share of 4.2e-4 holds about 1,000 lanes
    try (EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(dir).maxHeap("384m")
            .setting("cryptoworker.count-logs.heap-share", "0.00042")
            .setting("cryptoworker.count-logs.compact-lanes", "100").start();
        Connection connection = ConnectionFactory.createConnection(
            SecureFixture.clientConfiguration(hbase.zookeeperQuorum(), hbase.zookeeperPort(), 15, 100, 60_000))) {
      SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(connection, "sse_compacted", "storedFormat: 7\n");
      AtomicInteger acknowledged = new AtomicInteger();
      AtomicBoolean written = new AtomicBoolean();
      ExecutorService searcher = Executors.newSingleThreadExecutor();
      Future<Integer> searches = searcher.submit(() -> {
        Random random = new Random(5);
        while (acknowledged.get() == 0 && !written.get()) {
          Thread.sleep(5);
        }
        int done = 0;
        for (; done < 200 && !written.get(); done++) {
          int upTo = acknowledged.get();
          int v = random.nextInt(upTo);
          assertEquals(List.of("r-" + v), fx.search(tagIs("value-" + v)), "value-" + v + " after " + upTo + " rows");
        }
        return done;
      });
      try {
        for (int from = 0; from < values; from += batchSize) {
          List<Put> batch = new ArrayList<>();
          for (int i = from; i < from + batchSize; i++) {
            batch.add(new Put(toBytes("r-" + i)).addColumn(F, TAG, toBytes("value-" + i)));
          }
          fx.table.put(batch);
          acknowledged.set(from + batchSize);
        }
      } finally {
        written.set(true);
        searcher.shutdown();
      }
      assertTrue(searches.get() > 0, "the searcher ran while the rows were written");

      CounterCells cells = counterCells(connection);
      assertTrue(cells.lanes >= values - 1_000, "compacted lanes hold most lanes: " + cells.lanes);
      assertTrue(cells.logs < values / batchSize, "compaction deleted log cells: " + cells.logs + " of " + values / batchSize);
      assertEveryValueFindsItsRow(fx, values);
      try (Admin admin = connection.getAdmin()) {
        admin.disableTable(HBaseIdentifierSource.TABLE);
        admin.enableTable(HBaseIdentifierSource.TABLE);
        assertEveryValueFindsItsRow(fx, values);
        // Split the compacted lanes between two regions: the upper one finds them under an anchor
        // that is not its own.
        byte[] splitPoint = Bytes.add(cells.firstAnchor, new byte[] {(byte) 0x80});
        try (RegionLocator locator = connection.getRegionLocator(HBaseIdentifierSource.TABLE)) {
          admin.splitRegionAsync(locator.getRegionLocation(splitPoint).getRegion().getRegionName(), splitPoint).get();
        }
      }
      assertEveryValueFindsItsRow(fx, values);
    }
  }

  /** Searches every value, a hundred at a time (an OR of equalities), and requires exactly its row. */
  private static void assertEveryValueFindsItsRow(SearchableColumnTest.Fixture fx, int values) throws IOException {
    for (int from = 0; from < values; from += 100) {
      List<Filter> anyOf = new ArrayList<>();
      Set<String> expected = new HashSet<>();
      for (int v = from; v < from + 100; v++) {
        anyOf.add(tagIs("value-" + v));
        expected.add("r-" + v);
      }
      assertEquals(expected, new HashSet<>(fx.search(new FilterList(FilterList.Operator.MUST_PASS_ONE, anyOf))),
          "values " + from + " to " + (from + 99));
    }
  }

  /** The counter table's log cells and compacted lanes, and the anchor of its first compacted lane. */
  private record CounterCells(long logs, long lanes, byte[] firstAnchor) {}

  private static CounterCells counterCells(Connection connection) throws IOException {
    long logs = 0;
    long lanes = 0;
    byte[] firstAnchor = null;
    try (Table ids = connection.getTable(HBaseIdentifierSource.TABLE);
        ResultScanner all = ids.getScanner(new Scan())) {
      for (Result r : all) {
        for (Cell c : r.rawCells()) {
          if (CellUtil.matchingQualifier(c, CountLogCells.QUALIFIER)) {
            logs++;
          } else if (CellUtil.matchingFamily(c, CountLogCells.LANE_FAMILY)) {
            lanes++;
            if (firstAnchor == null) {
              firstAnchor = Arrays.copyOf(CellUtil.cloneRow(c), CountLogCells.ANCHOR_BYTES);
            }
          }
        }
      }
    }
    return new CounterCells(logs, lanes, firstAnchor);
  }

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
