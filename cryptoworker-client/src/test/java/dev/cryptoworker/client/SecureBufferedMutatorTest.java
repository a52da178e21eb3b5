package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.Await;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link SecureConnection#getBufferedMutator}: rows of every box written through a small write
 * buffer read back exactly (gets, ASHE sums, SSE searches) and store no plaintext; a buffer is
 * written only when full, flushed, closed or old; a refused mutation reaches the exception listener
 * named while the others land.
 */
@ExtendWith(SharedHBaseCluster.class)
class SecureBufferedMutatorTest {
  private static final String SCHEMA = SecureFixture.EVERY_BOX;
  private static final byte[] F = toBytes("f");
  private static final int ROWS = 1_500;

  private static Put row(int i) {
    String row = "patient-" + i;
    return new Put(toBytes(row)).addColumn(F, toBytes("id"), toBytes("PT-" + (100_000 + i)))
        .addColumn(F, toBytes("v"), toBytes("diagnosis of " + row)).addColumn(F, toBytes("when"), toBytes((long) i))
        .addColumn(F, toBytes("total"), toBytes((long) i * 7)).addColumn(F, toBytes("tag"), toBytes("ward-" + i % 10));
  }

  @Test
  void everyBoxRoundTripsThroughASmallWriteBuffer(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("mutator", SCHEMA);
    TableName name = SecureFixture.name(schema);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    try (Table table = secure.getTable(name)) {
      try (BufferedMutator mutator = secure.getBufferedMutator(new BufferedMutatorParams(name).writeBufferSize(16_384))) {
        assertInstanceOf(SecureBufferedMutator.class, mutator);
        for (int i = 0; i < ROWS; i++) {
          mutator.mutate(row(i));
        }
        mutator.mutate(new Delete(toBytes("patient-3")));
        // The buffer filled many times: every buffer before the one being written has landed.
        assertEquals("diagnosis of patient-0", Bytes.toString(table.get(new Get(toBytes("patient-0"))).getValue(F,
            toBytes("v"))));
        mutator.flush(); // an empty buffer: the small put below cannot fill it
        mutator.mutate(new Put(toBytes("late")).addColumn(F, toBytes("v"), toBytes("buffered")));
        assertTrue(table.get(new Get(toBytes("late"))).isEmpty(), "a buffered put is not written before a flush");
        mutator.flush();
        assertEquals("buffered", Bytes.toString(table.get(new Get(toBytes("late"))).getValue(F, toBytes("v"))));
      }
      List<Get> gets = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        gets.add(new Get(toBytes("patient-" + i)));
      }
      Result[] results = table.get(gets);
      long total = 0;
      for (int i = 0; i < ROWS; i++) {
        if (i == 3) {
          assertTrue(results[i].isEmpty(), "the delete, buffered after the put, won");
          continue;
        }
        Put expected = row(i);
        for (Cell c : expected.getFamilyCellMap().get(F)) {
          assertArrayEquals(CellUtil.cloneValue(c), results[i].getValue(F, CellUtil.cloneQualifier(c)),
              "patient-" + i + " " + Bytes.toString(CellUtil.cloneQualifier(c)));
        }
        total += i * 7L;
      }
      assertEquals(new AggregateResult(total, ROWS - 1), ((SecureTable) table).aggregate(new Scan(), F,
          toBytes("total")));
      SingleColumnValueFilter ward = new SingleColumnValueFilter(F, toBytes("tag"), CompareOperator.EQUAL,
          toBytes("ward-7"));
      ward.setFilterIfMissing(true);
      assertEquals(ROWS / 10, SecureFixture.scanAll(table, new Scan().setFilter(ward)).size());
    }
    // No plaintext in what HBase stores.
    try (Table raw = hbase.getTable(name)) {
      for (Result r : SecureFixture.scanAll(raw, new Scan())) {
        for (Cell c : r.rawCells()) {
          String stored = new String(CellUtil.cloneRow(c), StandardCharsets.ISO_8859_1)
              + new String(CellUtil.cloneValue(c), StandardCharsets.ISO_8859_1);
          assertFalse(stored.contains("patient-") || stored.contains("PT-1") || stored.contains("diagnosis")
              || stored.contains("ward-"), "plaintext stored: " + stored);
        }
      }
    }
  }

  @Test
  void aBufferPreparedAheadNeverOvertakesTheOneBeforeIt(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("mutator_order", SCHEMA);
    TableName name = SecureFixture.name(schema);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    int versions = 300;
    // One mutation per buffer: each is encoded while the one before it is written.
    try (BufferedMutator mutator = secure.getBufferedMutator(new BufferedMutatorParams(name).setMaxMutations(1))) {
      for (int i = 0; i < versions; i++) {
        mutator.mutate(new Put(toBytes("one-row")).addColumn(F, toBytes("v"), toBytes("version " + i))
            .addColumn(F, toBytes("tag"), toBytes("ward-" + i)));
        if (i == versions / 2) {
          mutator.mutate(new Delete(toBytes("gone")));
        } else if (i == versions / 2 - 1) {
          mutator.mutate(new Put(toBytes("gone")).addColumn(F, toBytes("v"), toBytes("deleted one buffer later")));
        }
      }
    }
    try (Table table = secure.getTable(name)) {
      Result r = table.get(new Get(toBytes("one-row")));
      assertEquals("version " + (versions - 1), Bytes.toString(r.getValue(F, toBytes("v"))));
      assertTrue(table.get(new Get(toBytes("gone"))).isEmpty(), "the delete of the next buffer won");
      for (int i : new int[] {0, versions / 2, versions - 1}) {
        SingleColumnValueFilter ward = new SingleColumnValueFilter(F, toBytes("tag"), CompareOperator.EQUAL,
            toBytes("ward-" + i));
        ward.setFilterIfMissing(true);
        assertEquals(i == versions - 1 ? 1 : 0, SecureFixture.scanAll(table, new Scan().setFilter(ward)).size(),
            "SSE search for ward-" + i + " (only the last version's entry is current)");
      }
    }
  }

  @Test
  void aRefusedMutationReachesTheListenerNamedAndTheOthersLand(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("mutator_fail", SCHEMA);
    TableName name = SecureFixture.name(schema);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    List<RetriesExhaustedWithDetailsException> heard = new CopyOnWriteArrayList<>();
    BufferedMutatorParams params = new BufferedMutatorParams(name).listener((e, m) -> heard.add(e));
    try (BufferedMutator mutator = secure.getBufferedMutator(params)) {
      mutator.mutate(row(1));
      mutator.mutate(new Increment(toBytes("patient-2")).addColumn(F, toBytes("total"), 5)); // ASHE: refused
      mutator.mutate(row(3));
      mutator.flush();
    }
    assertEquals(1, heard.size(), "one report for the one flush");
    RetriesExhaustedWithDetailsException e = heard.get(0);
    assertEquals(1, e.getNumExceptions());
    assertInstanceOf(Increment.class, e.getRow(0));
    assertTrue(e.getCause(0).getMessage().contains("total"), e.getCause(0).getMessage());
    try (Table table = secure.getTable(name)) {
      assertFalse(table.get(new Get(toBytes("patient-1"))).isEmpty());
      assertFalse(table.get(new Get(toBytes("patient-3"))).isEmpty());
    }
    // HBase's default listener: the flush throws.
    try (BufferedMutator mutator = secure.getBufferedMutator(name)) {
      mutator.mutate(new Increment(toBytes("patient-2")).addColumn(F, toBytes("total"), 5));
      RetriesExhaustedWithDetailsException thrown = assertThrows(RetriesExhaustedWithDetailsException.class,
          mutator::flush);
      assertEquals(1, thrown.getNumExceptions());
    }
    assertThrows(IllegalArgumentException.class, () -> secure.getBufferedMutator(TableName.valueOf("unknown_table")));
    BatchContract.checkBufferedMutator(secure, name, F, "contract-"); // as the PACKED and SHARED layouts' tests do
  }

  @Test
  void anOldBufferIsWrittenByThePeriodicFlush(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("mutator_timer", SCHEMA);
    TableName name = SecureFixture.name(schema);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    BufferedMutatorParams params = new BufferedMutatorParams(name).setWriteBufferPeriodicFlushTimeoutMs(50)
        .setWriteBufferPeriodicFlushTimerTickMs(100);
    try (BufferedMutator mutator = secure.getBufferedMutator(params); Table table = secure.getTable(name)) {
      assertEquals(50, mutator.getWriteBufferPeriodicFlushTimeoutMs());
      mutator.mutate(row(1));
      // No flush, no full buffer: only the timer writes it (a bound on a stuck timer, not a timing assertion).
      Await.until(() -> !table.get(new Get(toBytes("patient-1"))).isEmpty(), List.of(), 1_500,
          () -> "the periodic flush never wrote the buffer");
      mutator.disableWriteBufferPeriodicFlush();
      assertEquals(0, mutator.getWriteBufferPeriodicFlushTimeoutMs());
    }
  }
}
