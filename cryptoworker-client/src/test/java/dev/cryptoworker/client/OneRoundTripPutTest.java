package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static dev.cryptoworker.client.SearchableColumnTest.tagIs;
import static dev.cryptoworker.testing.CauseChain.messages;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.region.CountCellsFirst;
import dev.cryptoworker.region.CountLogCells;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.testing.OwnClusters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.ConnectionImplementation;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.MetricsConnection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A single put on a table with a search index (stored formats 6 and 7) sends one request when its
 * counter regions are on the row's server: its count cells travel in the put and its region writes
 * them before the row ({@code CountCellsFirst}), so a stored row is always one a search finds. On a
 * cluster of its own with one region server, where every counter region is on the row's server
 * (the shared cluster has two, and a value's counter region is on either).
 */
@OwnClusters
class OneRoundTripPutTest {
  private static EmbeddedHBase cluster;
  private static Connection connection;

  @BeforeAll
  static void start(@TempDir Path dir) throws IOException {
    cluster = EmbeddedHBase.builder().dataDir(dir).start();
    connection = ConnectionFactory.createConnection(conf());
  }

  @AfterAll
  static void stop() throws IOException {
    if (connection != null) {
      connection.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Configuration conf() {
    return SecureFixture.clientConfiguration(cluster.zookeeperQuorum(), cluster.zookeeperPort(), 15, 100, 60_000);
  }

  @ParameterizedTest
  @ValueSource(ints = {6, 7})
  void aSinglePutSendsOneRequestAndASearchRightAfterFindsItsRow(int format) throws Exception {
    Configuration metered = conf();
    metered.setBoolean(MetricsConnection.CLIENT_SIDE_METRICS_ENABLED_KEY, true);
    try (Connection hbase = ConnectionFactory.createConnection(metered)) {
      SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "one_trip_" + format,
          "storedFormat: " + format + "\n");
      fx.table.put(new Put(toBytes("warm")).addColumn(F, TAG, toBytes("warm")));
      // every region's location cached, the counter table's too: the puts below look none up
      for (TableName t : List.of(fx.table.getName(), HBaseIdentifierSource.TABLE)) {
        try (RegionLocator locator = hbase.getRegionLocator(t)) {
          locator.getAllRegionLocations();
        }
      }
      for (int i = 0; i < 5; i++) {
        long before = rpcs(hbase);
        fx.table.put(new Put(toBytes("r-" + i)).addColumn(F, TAG, toBytes("measles-" + i)));
        assertEquals(1, rpcs(hbase) - before, "requests sent by put " + i);
        assertEquals(List.of("r-" + i), fx.search(tagIs("measles-" + i)), "a search right after put " + i);
      }
      assertEquals(List.of("r-0"), fx.search(tagIs("measles-0")), "the first row, after the others");
    }
  }

  /** Requests this connection has sent, every kind. */
  private static long rpcs(Connection hbase) {
    return ((ConnectionImplementation) hbase).getConnectionMetrics().getRpcCounters().values().stream()
        .mapToLong(c -> c.getCount()).sum();
  }

  @Test
  void aPutCarryingCountCellsForATableThatIsNoCounterTableForCompactedLanesOrMalformedOnesStoresNoRow() throws Exception {
    Connection hbase = connection;
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "one_trip_refused", "storedFormat: 7\n");
    byte[] cells = CountCellsFirst.encode(
        List.of(new CountCellsFirst.CounterCell(toBytes("x"), F, toBytes("q"), 1L, toBytes(7L))));
    byte[] dataTable = fx.table.getName().getName();
    try (Table raw = hbase.getTable(fx.table.getName())) {
      IOException notCounter = assertThrows(IOException.class, () -> raw.put(
          new Put(toBytes("a")).addColumn(F, toBytes("v"), toBytes("v")).addColumn(CountCellsFirst.FAMILY, dataTable, cells)));
      assertTrue(messages(notCounter).contains("which is no counter table"), messages(notCounter));
      IOException malformed = assertThrows(IOException.class, () -> raw.put(new Put(toBytes("b"))
          .addColumn(F, toBytes("v"), toBytes("v"))
          .addColumn(CountCellsFirst.FAMILY, HBaseIdentifierSource.TABLE.getName(), new byte[] {1, 0, 0})));
      assertTrue(messages(malformed).contains("count cells carried in the put are malformed"), messages(malformed));
      byte[] lane = CountCellsFirst.encode(List.of(
          new CountCellsFirst.CounterCell(toBytes("x"), CountLogCells.LANE_FAMILY, toBytes("q"), 1L, toBytes(7L))));
      IOException compactedLane = assertThrows(IOException.class, () -> raw.put(new Put(toBytes("c"))
          .addColumn(F, toBytes("v"), toBytes("v"))
          .addColumn(CountCellsFirst.FAMILY, HBaseIdentifierSource.TABLE.getName(), lane)));
      assertTrue(messages(compactedLane).contains("which only its regions write"), messages(compactedLane));
      for (String row : List.of("a", "b", "c")) {
        assertTrue(raw.get(new Get(toBytes(row))).isEmpty(), "row " + row + " stored without its count cells");
      }
    }
  }

  @Test
  void regionsWithoutTheObserverRefuseTheSinglePutNamingWhyAndStoreNothing() throws Exception {
    Connection hbase = connection;
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "one_trip_old", "storedFormat: 7\n");
    TableName name = fx.table.getName();
    try (Admin admin = hbase.getAdmin()) {
      admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .removeCoprocessor(RegionSupport.REGION_OBSERVER).build());
    }
    UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
        () -> fx.table.put(new Put(toBytes("r")).addColumn(F, TAG, toBytes("mumps"))));
    assertTrue(e.getMessage().contains("older than this client") && e.getMessage().contains(name.getNameAsString()),
        e.getMessage());
    try (Table raw = hbase.getTable(name); ResultScanner all = raw.getScanner(new Scan())) {
      assertEquals(null, all.next(), "nothing stored");
    }
  }
}
