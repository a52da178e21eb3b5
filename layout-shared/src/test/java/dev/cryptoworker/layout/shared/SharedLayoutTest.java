package dev.cryptoworker.layout.shared;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.BatchContract;
import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.DeleteThenPut;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.Await;
import dev.cryptoworker.testing.FaultInjection;
import dev.cryptoworker.testing.OwnClusters;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * SHARED tables over four independent HBase instances (each an embedded HBase in its own child JVM,
 * with its own ZooKeeper): every scheme round-trips through the Table API, no cluster stores a
 * value, a corrupt share is found or corrected; with one cluster killed (under four concurrent
 * writers, whose acknowledged rows all read back) reads and writes go on, the
 * cluster restarted and repaired, another killed and every acknowledged write still reads back;
 * with two down, reads and writes fail by name. The killing test runs last. The clusters' clocks
 * run 5 s ahead of the client's, and their servers refuse cells over 1 MiB.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@OwnClusters
class SharedLayoutTest {
  private static final List<String> NAMES = List.of("east", "west", "north", "south");
  private static final byte[] F = toBytes("f");
  private static final int ROWS = 40;
  private static final byte[] COUNT = toBytes("count");
  private static final int CAS_WRITERS = 4;
  private static final int CAS_ATTEMPTS = 10;
  /** A bound on each busy writer's rows: it stops at 40 acknowledged after the kill, long before. */
  private static final int MAX_BUSY_ROWS = 5_000;
  /** Failed batches after the kill at which a busy writer gives up (and the test fails): a bound. */
  private static final int MAX_FAILED_BATCHES = 20;
  /** The servers' largest cell (hbase.server.keyvalue.maxsize): above the 64 KiB documents' shares. */
  private static final int MAX_CELL = 1 << 20;
  /** How far the clusters' clocks run ahead of the client's. */
  private static final Duration CLUSTER_CLOCK_AHEAD = Duration.ofSeconds(5);

  private static final List<EmbeddedHBase> CLUSTERS = new ArrayList<>();
  private static final List<Path> DIRS = new ArrayList<>();
  private static final Map<String, Connection> CONNECTIONS = new LinkedHashMap<>();
  private static final KeyProvider KEYS = SecureFixture.randomKeys();

  @BeforeAll
  static void startClusters() throws Exception {
    ExecutorService starter = Executors.newFixedThreadPool(NAMES.size());
    try {
      List<Future<EmbeddedHBase>> starting = new ArrayList<>();
      for (String name : NAMES) {
        Path dir = Files.createTempDirectory("shared-" + name + "-");
        DIRS.add(dir);
        starting.add(starter.submit(() -> cluster(dir)));
      }
      for (Future<EmbeddedHBase> f : starting) {
        CLUSTERS.add(f.get());
      }
    } finally {
      starter.shutdown();
    }
    for (int i = 0; i < NAMES.size(); i++) {
      CONNECTIONS.put(NAMES.get(i), connect(CLUSTERS.get(i)));
    }
  }

  /**
   * One cluster, its clock {@link #CLUSTER_CLOCK_AHEAD} ahead of this client's; its servers refuse
   * cells over {@value #MAX_CELL} bytes, as a request error.
   */
  private static EmbeddedHBase cluster(Path dir) throws IOException {
    return EmbeddedHBase.builder().dataDir(dir).maxHeap("384m").clockOffset(CLUSTER_CLOCK_AHEAD)
        .setting("hbase.server.keyvalue.maxsize", Integer.toString(MAX_CELL)).start();
  }

  private static Connection connect(EmbeddedHBase hbase) throws IOException {
    // Fail fast on a dead cluster: the layout counts it unavailable and goes on.
    Configuration conf = SecureFixture.clientConfiguration(hbase.zookeeperQuorum(), hbase.zookeeperPort(), 2, 100, 6000);
    conf.setInt("hbase.rpc.timeout", 3000);
    conf.setInt("hbase.client.scanner.timeout.period", 6000);
    conf.setInt("zookeeper.recovery.retry", 1);
    return ConnectionFactory.createConnection(conf);
  }

  @AfterAll
  static void stopClusters() throws IOException {
    for (String name : NAMES) {
      Connection c = CONNECTIONS.get(name);
      if (c != null) {
        c.close();
      }
    }
    for (EmbeddedHBase hbase : CLUSTERS) {
      hbase.close();
    }
  }

  private static TableSchema schema(String scheme, String rowKey) {
    return TableSchema.parse(String.join("\n",
        "table: shared_" + scheme.toLowerCase() + "_" + SharedHBaseCluster.uniqueTableName("t").getNameAsString(),
        "rowKey: { box: " + rowKey + " }",
        "layout: { type: SHARED, scheme: " + scheme + ", n: 4, r: 1, z: 1, clusters: [east, west, north, south] }",
        "families:",
        "  f:",
        "    default: { box: STD }",
        ""), scheme);
  }

  private static SecureConnection secure(TableSchema... schemas) {
    return SecureConnection.builder().keys(KEYS).schemas(List.of(schemas))
        .options(SecureTableOptions.builder().clusterTimeout(Duration.ofSeconds(8)).build())
        .cluster(SecureConnection.DEFAULT_CLUSTER, CONNECTIONS.get("east"))
        .cluster("east", CONNECTIONS.get("east")).cluster("west", CONNECTIONS.get("west"))
        .cluster("north", CONNECTIONS.get("north")).cluster("south", CONNECTIONS.get("south")).build();
  }

  /**
   * A connection to the four clusters whose connection to {@code missing} is closed: a client for
   * which that cluster is down, while others reach it.
   */
  private static SecureConnection secureWithout(TableSchema schema, String missing) throws IOException {
    Connection closed = ConnectionFactory.createConnection(CONNECTIONS.get(missing).getConfiguration());
    closed.close();
    SecureConnection.Builder b = SecureConnection.builder().keys(KEYS).schema(schema)
        .options(SecureTableOptions.builder().clusterTimeout(Duration.ofSeconds(8)).build())
        .cluster(SecureConnection.DEFAULT_CLUSTER, CONNECTIONS.get(missing.equals("west") ? "east" : "west"));
    for (String name : NAMES) {
      b.cluster(name, name.equals(missing) ? closed : CONNECTIONS.get(name));
    }
    return b.build();
  }

  /** Alters one byte of the first stored row's note share on {@code cluster}, keeping its timestamp. */
  private static void alterFirstNote(String cluster, TableName name) throws IOException {
    try (Table raw = CONNECTIONS.get(cluster).getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
      Result stored = s.next();
      Cell share = stored.getColumnLatestCell(F, toBytes("note"));
      byte[] altered = CellUtil.cloneValue(share);
      altered[altered.length - 1] ^= 1;
      raw.put(new Put(stored.getRow()).addColumn(F, toBytes("note"), share.getTimestamp(), altered));
    }
  }

  private static String note(long i) {
    return "record of patient " + i + ": allergic to penicillin";
  }

  private static void write(Table t, long from, long to) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (long i = from; i < to; i++) {
      puts.add(new Put(toBytes(i)).addColumn(F, toBytes("note"), toBytes(note(i)))
          .addColumn(F, toBytes("id"), toBytes("PT-" + i)));
    }
    t.put(puts);
  }

  private static List<Long> scanRows(Table t, Scan scan) throws IOException {
    List<Long> rows = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        long row = Bytes.toLong(r.getRow());
        assertEquals(note(row), Bytes.toString(r.getValue(F, toBytes("note"))));
        rows.add(row);
      }
    }
    return rows;
  }

  /** Every cluster's raw cells: no value in the clear, every row key stored alike. */
  private static void assertNoPlaintextOnAnyCluster(TableSchema schema) throws IOException {
    for (String name : NAMES) {
      try (Table raw = CONNECTIONS.get(name).getTable(TableName.valueOf(schema.tableName()));
          ResultScanner s = raw.getScanner(new Scan())) {
        int cells = 0;
        for (Result r : s) {
          for (Cell c : r.rawCells()) {
            String stored = Bytes.toStringBinary(CellUtil.cloneValue(c));
            assertFalse(stored.contains("patient") || stored.contains("PT-"), name + " stores a value: " + stored);
            cells++;
          }
        }
        assertTrue(cells > 0, name + " holds no shares");
      }
    }
  }

  @Test
  @Order(1)
  void everySchemeRoundTripsThroughTheTableApi() throws Exception {
    for (String scheme : List.of("SHAMIR", "PACKED_SHAMIR", "SECURE_RAID", "AONT_RS", "AES_RS")) {
      // One scheme with OPE row keys, for row ranges; the others with DET row keys.
      TableSchema schema = schema(scheme, scheme.equals("SECURE_RAID") ? "OPE, type: long" : "DET");
      try (SecureConnection secure = secure(schema)) {
        secure.createTable(schema);
        try (Table t = secure.getTable(TableName.valueOf(schema.tableName()))) {
          write(t, 0, ROWS);
          Result r = t.get(new Get(toBytes(7L)));
          assertEquals(note(7), Bytes.toString(r.getValue(F, toBytes("note"))), scheme);
          assertEquals("PT-7", Bytes.toString(r.getValue(F, toBytes("id"))), scheme);
          assertTrue(t.exists(new Get(toBytes(8L))));
          assertFalse(t.exists(new Get(toBytes(ROWS + 5L))));
          List<Long> all = scanRows(t, new Scan());
          assertEquals(ROWS, all.size(), scheme);
          t.delete(new Delete(toBytes(3L)));
          t.delete(new Delete(toBytes(4L)).addColumns(F, toBytes("id")));
          assertTrue(t.get(new Get(toBytes(3L))).isEmpty(), scheme);
          Result four = t.get(new Get(toBytes(4L)));
          assertEquals(note(4), Bytes.toString(four.getValue(F, toBytes("note"))));
          assertEquals(null, four.getValue(F, toBytes("id")));
          assertEquals(ROWS - 1, scanRows(t, new Scan()).size(), scheme);
          if (scheme.equals("SECURE_RAID")) {
            // OPE row keys keep their order on every cluster: row ranges run on the servers.
            assertEquals(List.of(10L, 11L, 12L), scanRows(t, new Scan().withStartRow(toBytes(10L)).withStopRow(toBytes(13L))));
            // Filters run on the client over decoded rows, with the caller's opt-in only.
            SingleColumnValueFilter idIs12 = new SingleColumnValueFilter(F, toBytes("id"), CompareOperator.EQUAL,
                toBytes("PT-12"));
            idIs12.setFilterIfMissing(true); // row 4 has no id any more: HBase would keep it otherwise
            Scan filtered = new Scan().setFilter(idIs12);
            UnsupportedSecureOperationException refused = assertThrows(UnsupportedSecureOperationException.class,
                () -> t.getScanner(filtered));
            assertTrue(refused.getMessage().contains("SecureScans.allowClientSideEvaluation"), refused.getMessage());
            assertEquals(List.of(12L), scanRows(t, SecureScans.allowClientSideEvaluation(filtered)));
            // Reversed, merged in descending stored order on every cluster.
            assertEquals(List.of(12L, 11L, 10L), scanRows(t, new Scan().withStartRow(toBytes(12L))
                .withStopRow(toBytes(9L)).setReversed(true)));
          }
          // A put conditioned on a cell: compared on the client, then a compare-and-set on each cluster's share.
          assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(toBytes(1L)).ifEquals(F, toBytes("id"), toBytes("PT-1"))
              .build(new Put(toBytes(1L)).addColumn(F, toBytes("id"), toBytes("x")))).isSuccess(), scheme);
          assertEquals("x", Bytes.toString(t.get(new Get(toBytes(1L))).getValue(F, toBytes("id"))), scheme);
        }
        assertNoPlaintextOnAnyCluster(schema);
      }
    }
  }

  @Test
  @Order(1)
  void batchesKeepTheOneBatchContractAndToolsAskForCapabilities() throws Exception {
    TableSchema schema = schema("SECURE_RAID", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name)) {
        BatchContract.check(t, F, "contract-");
      }
      BatchContract.checkBufferedMutator(secure, name, F, "contract-");
      SecureTable st = secure.getSecureTable(name);
      assertEquals(Set.of(LayoutCapability.INSPECTION, LayoutCapability.BULK_LOAD, LayoutCapability.CHECK_AND_MUTATE),
          st.capabilities());
      UnsupportedSecureOperationException splits = assertThrows(UnsupportedSecureOperationException.class,
          () -> st.requireCapability(LayoutCapability.STORED_RANGE_SCANS, "a MapReduce input"));
      assertTrue(splits.getMessage().contains("the SHARED layout lacks capability STORED_RANGE_SCANS"),
          splits.getMessage());
    }
    IllegalArgumentException migrate = assertThrows(IllegalArgumentException.class,
        () -> SecureConnection.builder().keys(KEYS).cluster(SecureConnection.DEFAULT_CLUSTER, CONNECTIONS.get("east"))
            .cluster("east", CONNECTIONS.get("east")).cluster("west", CONNECTIONS.get("west"))
            .cluster("north", CONNECTIONS.get("north")).cluster("south", CONNECTIONS.get("south"))
            .schema(schema).migratingFrom(schema).build());
    assertTrue(migrate.getMessage().contains("the SHARED layout lacks capability MIGRATION"), migrate.getMessage());
  }

  @Test
  @Order(1)
  void inspectionReportsEveryShareAndFlagsACorruptOne() throws Exception {
    TableSchema schema = schema("SHAMIR", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name)) {
        write(t, 0, 3);
      }
      List<InspectedCell> row = secure.inspector(name).row(toBytes(1L));
      List<InspectedCell> notes = row.stream().filter(c -> "note".equals(c.qualifier().map(Bytes::toString).orElse(null)))
          .toList();
      assertEquals(NAMES, notes.stream().map(c -> c.cluster().orElseThrow()).sorted(
          java.util.Comparator.comparing(NAMES::indexOf)).toList(), "one share per cluster");
      for (InspectedCell share : notes) {
        assertEquals(InspectedCell.Kind.SHARE, share.kind());
        assertEquals(note(1), Bytes.toString(share.value().orElseThrow()), "decoded with the other clusters' shares");
        assertTrue(share.problem().isEmpty() && share.rowKeyId().isPresent() && !share.valueKeyExpected());
      }
      // A share altered on north: Shamir's spare shares decode the value and name north's as corrupt.
      alterFirstNote("north", name);
      List<InspectedCell> problems = new ArrayList<>();
      secure.inspector(name).forEachRow(cells -> cells.stream().filter(c -> c.problem().isPresent())
          .forEach(problems::add));
      assertEquals(1, problems.size(), problems.toString());
      assertEquals("north", problems.get(0).cluster().orElseThrow());
      assertTrue(problems.get(0).problem().orElseThrow().contains("corrupt share on cluster north"),
          problems.get(0).problem().orElseThrow());
    }
  }

  @Test
  @Order(2)
  void aCorruptShareIsDetectedOrCorrected() throws Exception {
    for (String scheme : List.of("SECURE_RAID", "SHAMIR")) {
      TableSchema schema = schema(scheme, "DET");
      try (SecureConnection secure = secure(schema)) {
        secure.createTable(schema);
        try (Table t = secure.getTable(TableName.valueOf(schema.tableName()))) {
          write(t, 0, 3);
          alterFirstNote("north", TableName.valueOf(schema.tableName()));
          if (scheme.equals("SHAMIR")) {
            // Any 2 of 4 decode: 2 spare shares correct one corrupt share.
            assertEquals(3, scanRows(t, new Scan()).size());
          } else {
            // Secure RAID needs 3 of 4: one spare detects, never a wrong value.
            IOException e = assertThrows(IOException.class, () -> scanRows(t, new Scan()));
            assertTrue(e.getMessage().contains("shares disagree"), e.getMessage());
          }
        }
      }
    }
  }

  /** Whether cluster {@code cluster} stores any row of table {@code name}. */
  private static boolean storesARow(String cluster, TableName name) throws IOException {
    try (Table raw = CONNECTIONS.get(cluster).getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
      return s.next() != null;
    }
  }

  @Test
  @Order(2)
  void aRefusedRequestMarksNoClusterDown() throws Exception {
    TableSchema schema = schema("SHAMIR", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name)) {
        // Shamir shares are as long as the value: every cluster refuses this cell as oversized.
        IOException oversized = assertThrows(IOException.class, () -> t.put(new Put(toBytes(1L)).addColumn(F,
            toBytes("note"), new byte[2 * MAX_CELL])));
        assertTrue(oversized.getMessage().contains("reached 0 of 4 clusters"), oversized.getMessage());
        assertTrue(oversized.getMessage().contains("DoNotRetryIOException"), oversized.getMessage());
        // The next write goes to every cluster at once (the refused one was taken back): none was
        // marked down by a refusal.
        write(t, 2, 3);
        for (String cluster : NAMES) {
          assertTrue(storesARow(cluster, name), cluster + " was skipped after refusing an oversized cell");
        }
      }
    }
  }

  @Test
  @Order(2)
  void aTableDroppedOnOneClusterLeavesItInUseForOtherTables() throws Exception {
    TableSchema dropped = schema("SHAMIR", "DET");
    TableSchema other = schema("SHAMIR", "DET");
    TableName droppedName = TableName.valueOf(dropped.tableName());
    TableName otherName = TableName.valueOf(other.tableName());
    try (SecureConnection secure = secure(dropped, other)) {
      secure.createTable(dropped);
      secure.createTable(other);
      try (org.apache.hadoop.hbase.client.Admin south = CONNECTIONS.get("south").getAdmin()) {
        south.disableTable(droppedName);
        south.deleteTable(droppedName);
      }
      try (Table t = secure.getTable(droppedName)) {
        write(t, 0, 1); // acknowledged by east, west and north; south has no such table
      }
      try (Table t = secure.getTable(otherName)) {
        write(t, 0, 1);
      }
      assertTrue(storesARow("south", otherName), "south was skipped for every table after one was dropped on it");
    }
  }

  @Test
  @Order(2)
  void aNewerVersionOnOneClusterDoesNotMakeACellUnreadable() throws Exception {
    TableSchema schema = schema("SECURE_RAID", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name)) {
        write(t, 0, 3);
        // West holds a newer version of the first stored row's first cell: forged, or left by a client
        // that crashed after writing one share. The three others lack it, more than r = 1.
        Cell share = storedCell("west", name);
        byte[] forged = CellUtil.cloneValue(share);
        forged[forged.length - 1] ^= 1;
        try (Table raw = CONNECTIONS.get("west").getTable(name)) {
          raw.put(new Put(CellUtil.cloneRow(share)).addColumn(F, CellUtil.cloneQualifier(share),
              share.getTimestamp() + 60_000, forged));
        }
        assertEquals(3, scanRows(t, new Scan()).size(), "every row, each note as written");
        for (long i = 0; i < 3; i++) {
          Result r = t.get(new Get(toBytes(i)));
          assertEquals(note(i), Bytes.toString(r.getValue(F, toBytes("note"))));
          assertEquals("PT-" + i, Bytes.toString(r.getValue(F, toBytes("id"))));
        }
      }
      try (SharedTableRepair repair = SharedTables.of(secure).repair(name)) {
        SharedTableRepair.Report report = repair.run(r -> { });
        assertEquals(1, report.straysDeleted(), "west's newer version");
        assertEquals(1, report.sharesWritten(), "west's share of the version the others hold, written back");
      }
      try (Table t = secure.getTable(name)) {
        assertEquals(storedCell("east", name).getTimestamp(), storedCell("west", name).getTimestamp(),
            "west is back in line");
        assertEquals(3, scanRows(t, new Scan()).size());
      }
    }
  }

  private static boolean compareAndSet(Table t, Long expected, long value) throws IOException {
    CheckAndMutate.Builder condition = CheckAndMutate.newBuilder(toBytes(1L));
    condition = expected == null ? condition.ifNotExists(F, COUNT) : condition.ifEquals(F, COUNT, toBytes(expected));
    return t.checkAndMutate(condition.build(new Put(toBytes(1L)).addColumn(F, COUNT, toBytes(value)))).isSuccess();
  }

  private static long count(Table t) throws IOException {
    return Bytes.toLong(t.get(new Get(toBytes(1L))).getValue(F, COUNT));
  }

  @Test
  @Order(2)
  void conditionalPutsCheckTheDecodedValueAndLoseNoUpdateUnderConcurrentWriters() throws Exception {
    TableSchema schema = schema("SHAMIR", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name)) {
        assertTrue(compareAndSet(t, null, 0), "absent: taken");
        assertFalse(compareAndSet(t, null, 0), "present now");
        assertFalse(compareAndSet(t, 5L, 6), "not 5");
        assertEquals(0, count(t));
        UnsupportedSecureOperationException delete = assertThrows(UnsupportedSecureOperationException.class,
            () -> t.checkAndMutate(CheckAndMutate.newBuilder(toBytes(1L)).ifEquals(F, COUNT, toBytes(0L))
                .build(new Delete(toBytes(1L)))));
        assertTrue(delete.getMessage().contains("checkAndMutate with a Delete on a SHARED table"), delete.getMessage());
      }
      // Writers adding one by compare-and-set, a bounded number of attempts each: every success counts once.
      ExecutorService writers = Executors.newFixedThreadPool(CAS_WRITERS);
      try {
        List<Future<Integer>> won = new ArrayList<>();
        for (int w = 0; w < CAS_WRITERS; w++) {
          won.add(writers.submit(() -> {
            int mine = 0;
            try (Table t = secure.getTable(name)) {
              for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
                long seen;
                try {
                  seen = count(t);
                } catch (IOException e) {
                  // A read meeting another writer's conditional put half done: documented, try again.
                  assertTrue(e.getMessage().contains("clusters hold newer versions too few others have"),
                      e.getMessage());
                  continue;
                }
                mine += compareAndSet(t, seen, seen + 1) ? 1 : 0;
              }
            }
            return mine;
          }));
        }
        int total = 0;
        for (Future<Integer> f : won) {
          total += f.get();
        }
        try (SecureConnection reader = secure(schema); Table t = reader.getTable(name)) {
          assertTrue(total > 0, "some compare-and-set succeeded");
          assertEquals(total, count(t), "each successful compare-and-set added one, none overwrote another");
        }
      } finally {
        writers.shutdown();
      }
    }
  }

  @Test
  @Order(2)
  void aPutRightAfterADeleteIsKeptWithTheClustersClocksAhead() throws Exception {
    // The clusters' clocks run 5 s ahead of this client's (EmbeddedHBase.Builder.clockOffset).
    TableSchema schema = schema("SECURE_RAID", "DET");
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      try (Table t = secure.getTable(TableName.valueOf(schema.tableName()))) {
        DeleteThenPut.check(t, F, toBytes(1L));
      }
    }
  }

  @Test
  @Order(2)
  void aWriterWhoseClockRunsAheadDoesNotHideLaterWritesOfOthers() throws Exception {
    TableSchema schema = schema("SECURE_RAID", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection ahead = secure(schema); SecureConnection other = secure(schema)) {
      ahead.createTable(schema);
      try (Table t = ahead.getTable(name)) {
        // A put carries its client's clock: this client's runs an hour ahead.
        t.put(new Put(toBytes(1L)).addColumn(F, toBytes("note"), System.currentTimeMillis() + 3_600_000L,
            toBytes("written by the client an hour ahead")));
      }
      try (Table t = other.getTable(name)) {
        assertEquals("written by the client an hour ahead", Bytes.toString(t.get(new Get(toBytes(1L)))
            .getValue(F, toBytes("note"))));
        t.put(new Put(toBytes(1L)).addColumn(F, toBytes("note"), toBytes("written after it was read")));
        assertEquals("written after it was read", Bytes.toString(t.get(new Get(toBytes(1L))).getValue(F,
            toBytes("note"))), "the later write, read back by its writer");
      }
      try (Table t = ahead.getTable(name)) {
        assertEquals("written after it was read", Bytes.toString(t.get(new Get(toBytes(1L))).getValue(F,
            toBytes("note"))), "the later write, read back by the first writer");
      }
    }
  }

  @Test
  @Order(2)
  void sharesOfTwoWritersAtOneTimestampAreRefusedNeverDecoded() throws Exception {
    TableSchema schema = schema("SECURE_RAID", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    long ts = System.currentTimeMillis();
    byte[] q = toBytes("note");
    byte[] a = toBytes("value of the first writer");
    byte[] b = toBytes("value of writer number 2!");
    assertEquals(a.length, b.length, "same length: shares of the two differ in nothing but their split");
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      // Two writers in one millisecond (equal timestamps given, not raced): the second does not reach
      // east, so east keeps the first's share and the others hold the second's.
      try (Table t = secure.getTable(name)) {
        t.put(new Put(toBytes(1L)).addColumn(F, q, ts, a));
      }
      try (SecureConnection second = secureWithout(schema, "east"); Table t = second.getTable(name)) {
        t.put(new Put(toBytes(1L)).addColumn(F, q, ts, b));
      }
      // Exactly the threshold (3 of 4) answer: east's share of the first and two of the second.
      try (SecureConnection reader = secureWithout(schema, "south"); Table t = reader.getTable(name)) {
        IOException refused = assertThrows(IOException.class, () -> {
          byte[] read = t.get(new Get(toBytes(1L))).getValue(F, q);
          throw new AssertionError("shares of two writes decoded into "
              + (Arrays.equals(read, a) ? "the first value" : Arrays.equals(read, b) ? "the second value"
                  : "a wrong value"));
        });
        assertTrue(refused.getMessage().contains("belongs to another split"), refused.getMessage());
      }
      // All four: three shares of the second write decode; east's is another split's, left out.
      try (Table t = secure.getTable(name)) {
        assertArrayEquals(b, t.get(new Get(toBytes(1L))).getValue(F, q));
      }
    }
  }

  /** A 64 KiB document of 512 numbered 128-byte fields, {@code tag} in each. */
  private static byte[] document(String tag) {
    StringBuilder doc = new StringBuilder();
    for (int f = 0; f < 512; f++) {
      String field = String.format("field %03d of %s: diagnosis code %d;", f, tag, f * 7919 % 1000);
      doc.append(field).append(" ".repeat(127 - field.length())).append('\n');
    }
    return toBytes(doc.toString());
  }

  /** Row i's amount: negative, large and small values, none zero, whose total fits a long. */
  private static long amount(long i) {
    if (i % 3 == 0) {
      return -i * 1_000_000_000_000_000L - 1;
    }
    return i % 5 == 0 ? Long.MAX_VALUE / 64 + i : i * 7 - 100;
  }

  private static long expectedSum(long from, long to) {
    long sum = 0;
    for (long i = from; i < to; i++) {
      sum = Math.addExact(sum, amount(i));
    }
    return sum;
  }

  /**
   * A SECURE_RAID table whose summed column is shared with SHAMIR_P127: its sums run on each
   * cluster's region servers (three regions each) and equal the plaintext sums, whole table and row
   * range; both schemes' cells read back; the raw cells hold no amount; a share altered on one
   * cluster makes its partial sum disagree, which the client refuses naming table, column and
   * cluster, and a repair puts right; a column of the table's GF(2^8) scheme, group-bys and filters
   * are refused by name.
   */
  @Test
  @Order(2)
  void summedColumnsAreAddedOnTheRegionServersAndALyingClusterIsCaught() throws Exception {
    TableSchema schema = TableSchema.parse(String.join("\n",
        "table: shared_sums_" + SharedHBaseCluster.uniqueTableName("t").getNameAsString(),
        "rowKey: { box: PLAIN, type: long }",
        "layout: { type: SHARED, scheme: SECURE_RAID, n: 4, r: 1, z: 1, clusters: [east, west, north, south],",
        "  summed: ['f:amount'] }",
        "families:",
        "  f:",
        "    default: { box: STD }",
        "    columns:",
        "      amount: { box: STD, type: long }",
        "      other: { box: STD, type: long }",
        ""), "sums");
    TableName name = TableName.valueOf(schema.tableName());
    byte[] amount = toBytes("amount");
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema, new byte[][] {toBytes(15L), toBytes(30L)});
      List<Put> puts = new ArrayList<>();
      for (long i = 1; i <= ROWS; i++) {
        puts.add(new Put(toBytes(i)).addColumn(F, amount, toBytes(amount(i))).addColumn(F, toBytes("note"),
            toBytes(note(i))));
      }
      puts.add(new Put(toBytes(ROWS + 1L)).addColumn(F, toBytes("other"), toBytes(5L))); // no amount: not counted
      SecureTable t = secure.getSecureTable(name);
      t.put(puts);
      Result seven = t.get(new Get(toBytes(7L)));
      assertEquals(amount(7), Bytes.toLong(seven.getValue(F, amount)));
      assertEquals(note(7), Bytes.toString(seven.getValue(F, toBytes("note"))));
      AggregateResult whole = new AggregateResult(expectedSum(1, ROWS + 1), ROWS);
      assertEquals(whole, t.aggregate(new Scan(), F, amount));
      assertEquals(new AggregateResult(expectedSum(10, 25), 15),
          t.aggregate(new Scan().withStartRow(toBytes(10L)).withStopRow(toBytes(25L)), F, amount));
      assertTrue(t.plan(new Scan(), AggregateQuery.of(F, amount)).describe().contains("SHAMIR_P127 shares of"));
      for (String cluster : NAMES) {
        try (Table raw = CONNECTIONS.get(cluster).getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
          int shares = 0;
          for (Result r : s) {
            Cell c = r.getColumnLatestCell(F, amount);
            if (c != null) {
              byte[] stored = CellUtil.cloneValue(c);
              assertEquals(31, stored.length, "a 15-byte header and a 16-byte field element");
              byte[] plain = toBytes(amount(Bytes.toLong(r.getRow())));
              for (int at = 0; at + 8 <= stored.length; at++) {
                assertFalse(Bytes.equals(stored, at, 8, plain, 0, 8), cluster + " stores an amount in the clear");
              }
              shares++;
            }
          }
          assertEquals(ROWS, shares, cluster);
        }
      }
      // North (share 2) answers a wrong partial sum: one of its shares altered, its timestamp kept.
      Cell share;
      try (Table raw = CONNECTIONS.get("north").getTable(name)) {
        share = raw.get(new Get(toBytes(20L)).addColumn(F, amount)).getColumnLatestCell(F, amount);
      }
      byte[] altered = CellUtil.cloneValue(share);
      altered[altered.length - 1] ^= 2;
      replaceShare("north", name, toBytes(20L), share, altered);
      CellDecodingException lie = assertThrows(CellDecodingException.class, () -> t.aggregate(new Scan(), F, amount));
      assertTrue(lie.getMessage().contains(name.getNameAsString()) && lie.getMessage().contains("f:amount")
          && lie.getMessage().contains("store 2 disagrees") && lie.getMessage().contains("[east, west, north, south]"),
          lie.getMessage());
      assertEquals(new AggregateResult(expectedSum(1, 15), 14),
          t.aggregate(new Scan().withStopRow(toBytes(15L)), F, amount), "rows the altered share is not in still sum");
      assertEquals(amount(20), Bytes.toLong(t.get(new Get(toBytes(20L))).getValue(F, amount)),
          "a read corrects the share with two spares");
      try (SharedTableRepair repair = SharedTables.of(secure).repair(name)) {
        assertTrue(repair.run(p -> { }).sharesWritten() >= 1);
      }
      assertEquals(whole, t.aggregate(new Scan(), F, amount), "repaired");

      UnsupportedSecureOperationException gf = assertThrows(UnsupportedSecureOperationException.class,
          () -> t.aggregate(new Scan(), F, toBytes("other")));
      assertTrue(gf.getMessage().contains(name.getNameAsString()) && gf.getMessage().contains("f:other")
          && gf.getMessage().contains("shared with SECURE_RAID, over GF(2^8), where adding shares XORs the values"),
          gf.getMessage());
      UnsupportedSecureOperationException grouped = assertThrows(UnsupportedSecureOperationException.class,
          () -> t.aggregateBy(new Scan(), F, amount, F, toBytes("other")));
      assertTrue(grouped.getMessage().contains("cannot group"), grouped.getMessage());
      Scan filtered = new Scan().setFilter(new SingleColumnValueFilter(F, amount, CompareOperator.EQUAL, toBytes(1L)));
      UnsupportedSecureOperationException filter = assertThrows(UnsupportedSecureOperationException.class,
          () -> t.aggregate(filtered, F, amount));
      assertTrue(filter.getMessage().contains("row range only"), filter.getMessage());
    }
  }

  private static void replaceShare(String cluster, TableName name, byte[] storedRow, Cell share, byte[] value)
      throws IOException {
    try (Table raw = CONNECTIONS.get(cluster).getTable(name)) {
      raw.put(new Put(storedRow).addColumn(F, CellUtil.cloneQualifier(share), share.getTimestamp(), value));
    }
  }

  private static Cell storedCell(String cluster, TableName name) throws IOException {
    try (Table raw = CONNECTIONS.get(cluster).getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
      return s.next().rawCells()[0];
    }
  }

  @Test
  @Order(3)
  void secureRaidReadsOneFieldFromTheSharesHoldingItAndNeverAStaleOne() throws Exception {
    TableSchema schema = schema("SECURE_RAID", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    byte[] doc = document("v1");
    byte[] q = toBytes("doc");
    try (SecureConnection secure = secure(schema)) {
      secure.createTable(schema);
      try (SecureTable t = secure.getSecureTable(name)) {
        t.put(new Put(toBytes(1L)).addColumn(F, q, doc));
        // n = 4, r = z = 1: k = 2 chunks of 32 KiB; east holds the key share, west chunk 0, north chunk 1.
        int[][] ranges = {{0, 128}, {128 * 300, 128}, {32_700, 200}, {65_500, 100}, {70_000, 10}, {5, 0}};
        for (int[] range : ranges) {
          byte[] expected = java.util.Arrays.copyOfRange(doc, Math.min(range[0], doc.length),
              Math.min(doc.length, range[0] + range[1]));
          assertArrayEquals(expected, t.getValueRange(toBytes(1L), F, q, range[0], range[1]), range[0] + "+" + range[1]);
        }
        assertEquals(null, t.getValueRange(toBytes(2L), F, q, 0, 10), "an absent cell");
        assertThrows(IllegalArgumentException.class, () -> t.getValueRange(toBytes(1L), F, q, -1, 10));

        // Corrupt the shares on north and south: a get (3 of 4 needed) finds them disagreeing, while
        // a field of chunk 0 still reads right, so it was read from east and west alone.
        Cell north = storedCell("north", name);
        Cell south = storedCell("south", name);
        byte[] storedRow = CellUtil.cloneRow(north);
        for (Cell share : List.of(north, south)) {
          byte[] altered = CellUtil.cloneValue(share);
          altered[altered.length - 1] ^= 1;
          replaceShare(share == north ? "north" : "south", name, storedRow, share, altered);
        }
        IOException disagree = assertThrows(IOException.class, () -> t.get(new Get(toBytes(1L))));
        assertTrue(disagree.getMessage().contains("shares disagree"), disagree.getMessage());
        assertArrayEquals(java.util.Arrays.copyOfRange(doc, 256, 384), t.getValueRange(toBytes(1L), F, q, 256, 128));
        replaceShare("north", name, storedRow, north, CellUtil.cloneValue(north));
        replaceShare("south", name, storedRow, south, CellUtil.cloneValue(south));
        assertArrayEquals(doc, t.get(new Get(toBytes(1L))).getValue(F, q));
      }
      // East (the key share) misses a write: a client whose east connection is closed writes v2 to the others.
      byte[] v2 = document("v2");
      try (SecureConnection withoutEast = secureWithout(schema, "east"); Table t = withoutEast.getTable(name)) {
        t.put(new Put(toBytes(1L)).addColumn(F, q, v2));
      }
      try (SecureTable t = secure.getSecureTable(name)) {
        // East's key share is of v1 and the others of v2: the partial read sees the newer timestamp
        // elsewhere and reads v2 from three shares, never v1 (nor a mix).
        assertArrayEquals(java.util.Arrays.copyOfRange(v2, 0, 128), t.getValueRange(toBytes(1L), F, q, 0, 128));
      }
    }
  }

  @Test
  @Order(4)
  @FaultInjection
  void rSurvivesOutagesAndRepairBringsABackClusterInLine() throws Exception {
    TableSchema schema = schema("SECURE_RAID", "DET");
    TableName name = TableName.valueOf(schema.tableName());
    // A second table takes four concurrent writers while south is killed under them.
    TableSchema busy = schema("SECURE_RAID", "DET");
    TableName busyName = TableName.valueOf(busy.tableName());
    Set<Long> acked = ConcurrentHashMap.newKeySet();
    try (SecureConnection secure = secure(schema); SecureConnection busySecure = secure(busy)) {
      secure.createTable(schema);
      busySecure.createTable(busy);
      try (Table t = secure.getTable(name)) {
        write(t, 0, ROWS);
        // South is killed once 100 rows are acknowledged; each writer goes on until it has 40 rows
        // acknowledged from batches begun after the kill.
        AtomicBoolean killed = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<String> lastFailure = new java.util.concurrent.atomic.AtomicReference<>();
        ExecutorService writers = Executors.newFixedThreadPool(4);
        List<Future<Integer>> afterKill = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
          long base = 10_000L * w;
          afterKill.add(writers.submit(() -> {
            int acknowledgedAfterKill = 0;
            int failed = 0;
            try (Table bt = busySecure.getTable(busyName)) {
              // Bounded by rows and by failed batches (each may wait a cluster timeout), not by time.
              for (long from = base; acknowledgedAfterKill < 40 && failed < MAX_FAILED_BATCHES
                  && from < base + MAX_BUSY_ROWS; from += 5) {
                boolean begunAfterKill = killed.get();
                try {
                  write(bt, from, from + 5);
                  for (long i = from; i < from + 5; i++) {
                    acked.add(i);
                  }
                  acknowledgedAfterKill += begunAfterKill ? 5 : 0;
                } catch (IOException notAcknowledged) {
                  // A write the layout did not acknowledge: nothing is promised of it. (Before the
                  // kill, a table just created may refuse a few while its regions open.)
                  failed += begunAfterKill ? 1 : 0;
                  lastFailure.set(notAcknowledged.toString());
                }
              }
            }
            return acknowledgedAfterKill;
          }));
        }
        try {
          Await.until(() -> acked.size() >= 100, afterKill, 6_000,
              () -> "writers at " + acked.size() + " rows before the kill; last failure: " + lastFailure.get());
          kill(3); // south, under the writers
          killed.set(true);
          for (Future<Integer> writer : afterKill) {
            assertEquals(40, writer.get(5, java.util.concurrent.TimeUnit.MINUTES),
                "rows acknowledged after south was killed, by one writer");
          }
        } finally {
          writers.shutdownNow();
        }
        assertAcknowledgedRowsReadBack(busySecure, busyName, acked);
        assertEquals(ROWS, scanRows(t, new Scan()).size());
        assertEquals(note(9), Bytes.toString(t.get(new Get(toBytes(9L))).getValue(F, toBytes("note"))));
        write(t, ROWS, ROWS + 5); // acknowledged by east, west and north
        t.delete(new Delete(toBytes(5L)));
        assertEquals(note(ROWS + 2), Bytes.toString(t.get(new Get(toBytes(ROWS + 2L))).getValue(F, toBytes("note"))));
        assertEquals(ROWS + 4, scanRows(t, new Scan()).size());
      }
    }
    // South comes back with what it had: it missed five rows and a delete.
    restart(3);
    try (SecureConnection secure = secure(schema)) {
      try (Table t = secure.getTable(name)) {
        assertEquals(ROWS + 4, scanRows(t, new Scan()).size(), "all four answer; the delete south missed holds");
      }
      List<SharedTableRepair.Report> progress = new ArrayList<>();
      SharedTableRepair.Report report;
      try (SharedTableRepair repair = SharedTables.of(secure).repair(name)) {
        report = repair.run(progress::add);
      }
      assertEquals(ROWS + 5, report.rows(), "every stored row examined (row 5 is still stored on south)");
      assertEquals(5 * 2, report.sharesWritten(), "two cells of each of the five rows south missed");
      assertEquals(2, report.straysDeleted(), "row 5's two cells on south");
      assertEquals(0, report.unrepairable());
      assertFalse(progress.isEmpty());
      try (SharedTableRepair again = SharedTables.of(secure).repair(name)) {
        SharedTableRepair.Report second = again.run(r -> { });
        assertEquals(0, second.sharesWritten() + second.straysDeleted(), "a repaired table needs nothing");
      }
    }
    try (SecureConnection busySecure = secure(busy)) {
      try (SharedTableRepair repair = SharedTables.of(busySecure).repair(busyName)) {
        assertTrue(repair.run(r -> { }).sharesWritten() > 0, "south missed the writes made after it was killed");
      }
      try (SharedTableRepair again = SharedTables.of(busySecure).repair(busyName)) {
        SharedTableRepair.Report second = again.run(r -> { });
        assertEquals(0, second.sharesWritten() + second.straysDeleted(), "a repaired table needs nothing");
      }
    }
    // Now a different cluster goes down: every acknowledged write still reads back.
    kill(2); // north
    try (SecureConnection busySecure = secure(busy)) {
      assertAcknowledgedRowsReadBack(busySecure, busyName, acked);
    }
    try (SecureConnection secure = secure(schema); Table t = secure.getTable(name)) {
      List<Long> rows = scanRows(t, new Scan());
      assertEquals(ROWS + 4, rows.size());
      assertFalse(rows.contains(5L));
      for (long i = ROWS; i < ROWS + 5; i++) {
        assertEquals(note(i), Bytes.toString(t.get(new Get(toBytes(i))).getValue(F, toBytes("note"))));
      }
      kill(0); // east as well: more than r = 1 down
      IOException read = assertThrows(IOException.class, () -> t.get(new Get(toBytes(9L))));
      assertTrue(read.getMessage().contains("2 of 4 clusters answered, 3 needed"), read.getMessage());
      assertTrue(read.getMessage().contains("not answering: [east, north]"), read.getMessage());
      IOException write = assertThrows(IOException.class, () -> write(t, 100, 101));
      assertTrue(write.getMessage().contains("reached 2 of 4 clusters, 3 needed"), write.getMessage());
    }
    // A client opening the table now reads its descriptor from the first cluster that answers (west).
    try (SecureConnection fresh = secure(schema); Table t = fresh.getTable(name)) {
      IOException read = assertThrows(IOException.class, () -> t.get(new Get(toBytes(9L))));
      assertTrue(read.getMessage().contains("2 of 4 clusters answered, 3 needed"), read.getMessage());
    }
  }

  /** Every acknowledged row of the busy table reads back exactly, by get and by a scan. */
  private static void assertAcknowledgedRowsReadBack(SecureConnection secure, TableName name, Set<Long> acked)
      throws IOException {
    try (Table t = secure.getTable(name)) {
      // One batch of gets (one multi-get per cluster), then a scan: both paths must find every row.
      List<Long> rows = new ArrayList<>(acked);
      List<Get> gets = new ArrayList<>();
      for (long i : rows) {
        gets.add(new Get(toBytes(i)));
      }
      Result[] got = t.get(gets);
      for (int k = 0; k < rows.size(); k++) {
        assertEquals(note(rows.get(k)), Bytes.toString(got[k].getValue(F, toBytes("note"))), "row " + rows.get(k));
      }
      assertTrue(scanRows(t, new Scan()).containsAll(acked));
    }
  }

  private static void kill(int cluster) throws Exception {
    ProcessHandle.of(CLUSTERS.get(cluster).pid()).ifPresent(ProcessHandle::destroyForcibly);
    ProcessHandle.of(CLUSTERS.get(cluster).pid()).ifPresent(p -> p.onExit().join());
  }

  /** Starts cluster {@code index} again on its data directory (new ports: a new connection). */
  private static void restart(int index) throws Exception {
    CLUSTERS.get(index).close();
    CLUSTERS.set(index, cluster(DIRS.get(index)));
    CONNECTIONS.get(NAMES.get(index)).close();
    CONNECTIONS.put(NAMES.get(index), connect(CLUSTERS.get(index)));
  }
}
