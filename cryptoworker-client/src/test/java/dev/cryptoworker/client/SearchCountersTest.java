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
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * SSE counters shared by every writer (stored formats 1 to 5) only grow: a counter table restored
 * from an older copy would hand out entry keys again (earlier rows dropping out of searches), so a
 * client refuses a counter it sees go back. Format 6's writer lanes: {@link WriterLanesTest}.
 */
@ExtendWith(SharedHBaseCluster.class)
@Isolated // takes the observer off the counter table every SSE test of this JVM writes through
class SearchCountersTest {
  private static final byte[] SSE = toBytes("sse");
  /** Tables of the last format whose writers take entry numbers from shared counters. */
  static final String SHARED_COUNTERS = "storedFormat: 5\n";

  @Test
  void aCounterThatGoesBackIsRefusedOnWriteAndSearch(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_restore", SHARED_COUNTERS);
    ValueIndex flu = fx.codec.writeIndex(F, TAG, toBytes("flu"));
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
    assertTrue(messages(write).contains("went back (it should hold at least "), messages(write));
    Exception search = assertThrows(Exception.class, () -> fx.search(tagIs("flu")));
    assertTrue(messages(search).contains("went back (it should hold at least "), messages(search));

    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      ids.delete(new Delete(flu.counterName())); // a restore from before the value's first write
    }
    Exception vanished = assertThrows(Exception.class, () -> fx.search(tagIs("flu")));
    assertTrue(messages(vanished).contains("now no counter"), messages(vanished));
  }

  /**
   * A counter restored to one entry short, then taken by two: its count still grows past the
   * highest seen, but entry 4 would go to a second row; the take must fall short by its amount.
   */
  @Test
  void aCounterRestoredByLessThanATakeIsRefusedBeforeAnEntryNumberIsReused(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_short_restore", SHARED_COUNTERS);
    ValueIndex mumps = fx.codec.writeIndex(F, TAG, toBytes("mumps"));
    byte[] snapshot;
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      for (int i = 0; i < 4; i++) {
        fx.table.put(new Put(toBytes("r-" + i)).addColumn(F, TAG, toBytes("mumps")));
      }
      snapshot = ids.get(new Get(mumps.counterName())).getValue(HBaseIdentifierSource.FAMILY, SSE);
      fx.table.put(new Put(toBytes("r-4")).addColumn(F, TAG, toBytes("mumps")));
      ids.put(new Put(mumps.counterName()).addColumn(HBaseIdentifierSource.FAMILY, SSE, snapshot)); // the restore
    }
    Exception write = assertThrows(Exception.class, () -> fx.table.put(List.of(
        new Put(toBytes("r-5")).addColumn(F, TAG, toBytes("mumps")),
        new Put(toBytes("r-6")).addColumn(F, TAG, toBytes("mumps")))));
    assertTrue(messages(write).contains("went back (it should hold at least 7 entries, now 6 entries)"), messages(write));
    assertFalse(fx.table.exists(new Get(toBytes("r-5"))), "the refused batch wrote no row");
    assertFalse(fx.table.exists(new Get(toBytes("r-6"))), "the refused batch wrote no row");
  }

  /**
   * A counter region keeps the counters it took from in memory and forgets them when it closes. A
   * writer that never saw the value sends its mask as for a new counter; the reopened region must
   * find the stored counter and continue from it, or entry numbers 0-2 would be handed out again
   * and earlier rows would drop out of searches.
   */
  @Test
  void aReopenedCounterRegionContinuesAStoredCounterThatANewWriterTakesAsNew(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_reopened", SHARED_COUNTERS);
    for (int i = 0; i < 3; i++) {
      fx.table.put(new Put(toBytes("p-" + i)).addColumn(F, TAG, toBytes("pertussis")));
    }
    try (Admin admin = hbase.getAdmin()) {
      admin.disableTable(HBaseIdentifierSource.TABLE);
      admin.enableTable(HBaseIdentifierSource.TABLE);
    }
    try (SecureConnection second = SecureConnection.wrap(hbase, fx.keys, List.of(fx.schema))) {
      SecureTable table = second.getSecureTable(fx.table.getName());
      table.put(new Put(toBytes("p-3")).addColumn(F, TAG, toBytes("pertussis")));
      table.put(List.of(new Put(toBytes("p-4")).addColumn(F, TAG, toBytes("pertussis")),
          new Put(toBytes("q-0")).addColumn(F, TAG, toBytes("tetanus"))));
    }
    ValueIndex pertussis = fx.codec.writeIndex(F, TAG, toBytes("pertussis"));
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      long stored = Bytes.toLong(ids.get(new Get(pertussis.counterName())).getValue(HBaseIdentifierSource.FAMILY, SSE));
      assertEquals(5, pertussis.count(stored));
    }
    assertEquals(5, fx.search(tagIs("pertussis")).size());
    assertEquals(1, fx.search(tagIs("tetanus")).size());
  }

  /**
   * HBase locks a Put's row shared, so the counter region orders concurrent takes of one counter
   * itself: six writers, each with its own connection, taking from one counter at once must never
   * get the same number (a row would drop out of the search) nor leave the stored count short.
   */
  @Test
  void concurrentTakesOfOneCounterNeverShareANumber(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_contended", SHARED_COUNTERS);
    int writers = 6;
    int batches = 40;
    fx.writeConcurrently(writers, (writer, table) -> {
      for (int b = 0; b < batches; b++) {
        table.put(List.of(new Put(toBytes("c-" + writer + "-" + b + "a")).addColumn(F, TAG, toBytes("cholera")),
            new Put(toBytes("c-" + writer + "-" + b + "b")).addColumn(F, TAG, toBytes("cholera"))));
      }
    });
    ValueIndex cholera = fx.codec.writeIndex(F, TAG, toBytes("cholera"));
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      long stored = Bytes.toLong(ids.get(new Get(cholera.counterName())).getValue(HBaseIdentifierSource.FAMILY, SSE));
      assertEquals(writers * batches * 2, cholera.count(stored), "every take counted");
    }
    assertEquals(writers * batches * 2, fx.search(tagIs("cholera")).size(), "no two rows share an entry");
  }

  @Test
  void aCreatedCounterStartsFromItsMaskAndABatchTakesItsNumbersInOneCount(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_mask", SHARED_COUNTERS);
    List<Put> batch = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      batch.add(new Put(toBytes("m-" + i)).addColumn(F, TAG, toBytes("measles")));
    }
    fx.table.put(batch);
    ValueIndex measles = fx.codec.writeIndex(F, TAG, toBytes("measles"));
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      long stored = Bytes.toLong(ids.get(new Get(measles.counterName())).getValue(HBaseIdentifierSource.FAMILY, SSE));
      // The region started the counter from the mask, so the stored value does not show the count.
      assertEquals(measles.initialCounter() + 7, stored);
    }
    assertEquals(7, fx.search(tagIs("measles")).size());
  }

  @Test
  void takesFailByNameWhenTheCounterTableLacksTheObserverAndTablesOpeningAddIt(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_observer", SHARED_COUNTERS);
    fx.table.put(new Put(toBytes("o-0")).addColumn(F, TAG, toBytes("mumps")));
    try (Admin admin = hbase.getAdmin()) {
      TableDescriptor withObserver = admin.getDescriptor(HBaseIdentifierSource.TABLE);
      admin.modifyTable(TableDescriptorBuilder.newBuilder(withObserver)
          .removeCoprocessor(RegionSupport.REGION_OBSERVER).build()); // a counter table of an earlier version
      Exception refused = assertThrows(Exception.class,
          () -> fx.table.put(List.of(new Put(toBytes("o-1")).addColumn(F, TAG, toBytes("mumps")),
              new Put(toBytes("o-2")).addColumn(F, TAG, toBytes("rubella")))));
      assertTrue(messages(refused).contains("need the observer " + RegionSupport.REGION_OBSERVER), messages(refused));

      // Opening a table with SSE columns gives the counter table its observer again.
      SearchableColumnTest.Fixture reopened = new SearchableColumnTest.Fixture(hbase, "sse_observer_again", SHARED_COUNTERS);
      assertTrue(admin.getDescriptor(HBaseIdentifierSource.TABLE).hasCoprocessor(RegionSupport.REGION_OBSERVER));
      reopened.table.put(new Put(toBytes("o-3")).addColumn(F, TAG, toBytes("mumps")));
      fx.table.put(new Put(toBytes("o-4")).addColumn(F, TAG, toBytes("mumps")));
    }
    assertEquals(Set.of("o-0", "o-4"), new HashSet<>(fx.search(tagIs("mumps"))));
  }
}
