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
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.region.CountLogCells;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stored formats 6 and 7: every writer numbers a value's SSE entries in a lane of its own and writes
 * the lane's count as a plain cell (format 6) or a record of its batch's count log (format 7), so
 * writers never share a number and never read a count back.
 */
@ExtendWith(SharedHBaseCluster.class)
@Isolated // restores the counter table every SSE test of this JVM writes through from a snapshot
class WriterLanesTest {
  private static final byte[] SSE = toBytes("sse");
  private static final HexFormat HEX = HexFormat.of();

  /**
   * Six writers, each with its own connection, write one value at once in batches and single puts:
   * each writes one lane, whose cell holds its masked count (stamped with the clock), and the search
   * finds every row (two rows sharing an entry key would show as one).
   */
  @Test
  void concurrentWritersOfOneValueEachCountInALaneOfTheirOwnAndEveryRowIsFound(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_lanes", "storedFormat: 6\n");
    int writers = 6;
    int batches = 20;
    long started = System.currentTimeMillis();
    writeCholera(fx, writers, batches);
    ValueIndex cholera = fx.codec.writeIndex(F, TAG, toBytes("cholera"));
    long total = 0;
    Set<String> lanes = new HashSet<>();
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE);
        ResultScanner counters = ids.getScanner(new Scan().setStartStopRowForPrefixScan(cholera.counterName()))) {
      for (Result r : counters) {
        ValueIndex lane = cholera.laneOfCounter(r.getRow()).orElseThrow(
            () -> new AssertionError("a counter row under the value's name that is no lane: " + HEX.formatHex(r.getRow())));
        Cell cell = r.getColumnLatestCell(HBaseIdentifierSource.FAMILY, SSE);
        long count = lane.count(Bytes.toLong(CellUtil.cloneValue(cell)));
        assertTrue(cell.getTimestamp() >= started && cell.getTimestamp() <= System.currentTimeMillis() + count,
            "a lane's cell is stamped with the writer's clock, not with its count: " + cell.getTimestamp());
        assertEquals(batches * 3, count, "each writer's lane counts its own rows");
        assertFalse(Bytes.toString(r.getRow()).contains("cholera"));
        lanes.add(HEX.formatHex(r.getRow()));
        total += count;
      }
    }
    assertEquals(writers, lanes.size(), "one lane per writer");
    assertEquals(writers * batches * 3, total);
    assertEquals(writers * batches * 3, fx.search(tagIs("cholera")).size(), "no two rows share an entry");
    assertFalse(new String(ids(hbase), StandardCharsets.ISO_8859_1).contains("cholera"));
  }

  /** Each of {@code writers} writes {@code batches} times a batch of two rows of cholera and a single put of one. */
  private static void writeCholera(SearchableColumnTest.Fixture fx, int writers, int batches) throws Exception {
    fx.writeConcurrently(writers, (writer, table) -> {
      for (int b = 0; b < batches; b++) {
        table.put(List.of(new Put(toBytes("c-" + writer + "-" + b + "a")).addColumn(F, TAG, toBytes("cholera")),
            new Put(toBytes("c-" + writer + "-" + b + "b")).addColumn(F, TAG, toBytes("cholera"))));
        table.put(new Put(toBytes("c-" + writer + "-" + b + "c")).addColumn(F, TAG, toBytes("cholera")));
      }
    });
  }

  /**
   * Format 7: the same writers leave no counter row per lane, but one count-log cell per batch and
   * per single put, each with one record for the value; a lane's records grow with their stamps,
   * the last says the writer's count, and the search finds every row.
   */
  @Test
  void inFormatSevenEachBatchLogsItsLaneCountsInOneCellAndEveryRowIsFound(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_logs", "storedFormat: 7\n");
    int writers = 6;
    int batches = 20;
    writeCholera(fx, writers, batches);
    ValueIndex cholera = fx.codec.writeIndex(F, TAG, toBytes("cholera"));
    byte[] name = cholera.counterName();
    Map<String, List<CountLogCells.LaneCount>> byLane = new HashMap<>();
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE); ResultScanner all = ids.getScanner(new Scan())) {
      for (Result r : all) {
        assertFalse(Bytes.startsWith(r.getRow(), name), "a counter row under the value's name in format 7");
        byte[] log = r.getValue(HBaseIdentifierSource.FAMILY, CountLogCells.QUALIFIER);
        List<CountLogCells.LaneCount> ofCholera = log == null ? List.of()
            : CountLogCells.decode(log).stream().filter(c -> Arrays.equals(c.name(), name)).toList();
        assertTrue(ofCholera.size() <= 1, "one record per value in a batch's log");
        ofCholera.forEach(c -> byLane.computeIfAbsent(HEX.formatHex(c.lane()), k -> new ArrayList<>()).add(c));
      }
    }
    assertEquals(writers, byLane.size(), "one lane per writer");
    for (List<CountLogCells.LaneCount> records : byLane.values()) {
      assertEquals(batches * 2, records.size(), "one log cell per batch and per single put");
      ValueIndex lane = cholera.lane(records.get(0).lane());
      records.sort(Comparator.comparingLong(CountLogCells.LaneCount::stamp));
      for (int i = 1; i < records.size(); i++) {
        assertTrue(lane.count(records.get(i).maskedCount()) > lane.count(records.get(i - 1).maskedCount()),
            "a lane's count grows with its stamp");
      }
      assertEquals(batches * 3, lane.count(records.get(records.size() - 1).maskedCount()));
    }
    assertEquals(writers * batches * 3, fx.search(tagIs("cholera")).size(), "no two rows share an entry");
    assertFalse(new String(ids(hbase), StandardCharsets.ISO_8859_1).contains("cholera"));
  }

  /**
   * The counter table restored from a snapshot taken two rows earlier: a search that had seen the
   * lane's count refuses the lower one by name, and a lane the snapshot lacks as gone (rows would
   * drop out of searches silently), the writer goes on numbering from its own count
   * (never handing out entries 2 and 3 again, as a writer reading the restored count would), and
   * its next count cell makes every row found again.
   */
  @ParameterizedTest
  @ValueSource(ints = {6, 7})
  void aRestoredCounterTableNeverMakesAWriterReuseAnEntryKey(int format, Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_lanes_restore" + format,
        "storedFormat: " + format + "\n");
    String snapshot = "sse_lanes_restore_ids" + format;
    try (Admin admin = hbase.getAdmin()) {
      for (int i = 0; i < 2; i++) {
        fx.table.put(new Put(toBytes("r-" + i)).addColumn(F, TAG, toBytes("flu")));
      }
      admin.snapshot(snapshot, HBaseIdentifierSource.TABLE);
      for (int i = 2; i < 4; i++) {
        fx.table.put(new Put(toBytes("r-" + i)).addColumn(F, TAG, toBytes("flu")));
      }
      fx.table.put(new Put(toBytes("m-0")).addColumn(F, TAG, toBytes("measles"))); // a lane the snapshot lacks
      assertEquals(4, fx.search(tagIs("flu")).size());
      assertEquals(1, fx.search(tagIs("measles")).size());
      admin.disableTable(HBaseIdentifierSource.TABLE);
      try {
        admin.restoreSnapshot(snapshot);
      } finally {
        admin.enableTable(HBaseIdentifierSource.TABLE);
        admin.deleteSnapshot(snapshot);
      }
    }
    Exception search = assertThrows(Exception.class, () -> fx.search(tagIs("flu")));
    assertTrue(messages(search).contains("went back (it should hold at least 4 entries, now 2 entries)"), messages(search));
    Exception vanished = assertThrows(Exception.class, () -> fx.search(tagIs("measles")));
    assertTrue(messages(vanished).contains("went back (it should hold at least 1 writer lanes, now 0 writer lanes)"),
        messages(vanished));

    fx.table.put(new Put(toBytes("r-4")).addColumn(F, TAG, toBytes("flu")));
    assertEquals(5, fx.search(tagIs("flu")).size());
    Set<String> entryKeys = new HashSet<>();
    try (Table raw = hbase.getTable(fx.table.getName());
        ResultScanner rows = raw.getScanner(new Scan().addFamily(F))) {
      for (Result r : rows) {
        for (Cell c : r.rawCells()) {
          if (SearchIndexCells.isIndexQualifier(CellUtil.cloneQualifier(c))) {
            entryKeys.add(HEX.formatHex(CellUtil.cloneValue(c)));
          }
        }
      }
    }
    assertEquals(6, entryKeys.size(), "six rows (five of flu, one of measles), six entry keys");
  }

  /**
   * With the counter table unavailable, a batch's count cells fail, and so does the batch, naming
   * why, before any of its rows is sent (rows no search could find); so does a single put.
   */
  @Test
  void countCellsThatCannotBeWrittenFailTheBatchBeforeItsRowsAreSent(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_lanes_down");
    fx.table.put(new Put(toBytes("r-0")).addColumn(F, TAG, toBytes("typhus")));
    Exception batch;
    Exception single;
    // A writer that gives up after two tries, rather than HBase's default of retrying for minutes.
    Configuration impatient = new Configuration(hbase.getConfiguration());
    impatient.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 2);
    impatient.setLong(HConstants.HBASE_CLIENT_PAUSE, 20);
    try (Connection own = ConnectionFactory.createConnection(impatient);
        SecureConnection writer = SecureConnection.wrap(own, fx.keys, List.of(fx.schema));
        Admin admin = hbase.getAdmin()) {
      SecureTable table = writer.getSecureTable(fx.table.getName());
      admin.disableTable(HBaseIdentifierSource.TABLE);
      try {
        batch = assertThrows(Exception.class, () -> table.put(List.of(
            new Put(toBytes("r-1")).addColumn(F, TAG, toBytes("typhus")),
            new Put(toBytes("r-2")).addColumn(F, TAG, toBytes("typhoid")))));
        single = assertThrows(Exception.class,
            () -> table.put(new Put(toBytes("r-3")).addColumn(F, TAG, toBytes("typhus"))));
      } finally {
        admin.enableTable(HBaseIdentifierSource.TABLE);
      }
    }
    assertTrue(messages(batch).contains("search-index entry counts were not written to cryptoworker_ids"),
        messages(batch));
    assertTrue(messages(single).contains("search-index entry counts were not written to cryptoworker_ids"),
        messages(single));
    assertFalse(fx.table.exists(new Get(toBytes("r-1"))), "the failed batch sent no row");
    assertFalse(fx.table.exists(new Get(toBytes("r-2"))), "the failed batch sent no row");
    assertFalse(fx.table.exists(new Get(toBytes("r-3"))), "the failed single put sent no row");
    fx.table.put(new Put(toBytes("r-3")).addColumn(F, TAG, toBytes("typhus"))); // written again
    assertEquals(Set.of("r-0", "r-3"), new HashSet<>(fx.search(tagIs("typhus"))));
  }

  /** Every byte of the counter table's rows and values. */
  private static byte[] ids(Connection hbase) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (Table ids = hbase.getTable(HBaseIdentifierSource.TABLE); ResultScanner all = ids.getScanner(new Scan())) {
      for (Result r : all) {
        for (Cell c : r.rawCells()) {
          out.write(CellUtil.cloneRow(c));
          out.write(CellUtil.cloneValue(c));
        }
      }
    }
    return out.toByteArray();
  }
}
