package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.embedded.ProcessCluster;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.Await;
import dev.cryptoworker.testing.FaultInjection;
import dev.cryptoworker.testing.OwnClusters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A region server crashes in the middle of a secure write-heavy workload (its own two-server
 * cluster): afterwards every acknowledged write is readable and decrypts to what was written, ASHE
 * sums cover them all and SSE searches find them, and a write that failed with an error is whole
 * or absent. The crash comes after {@value #WRITES_EACH_SIDE} acknowledged writes; the writers go on
 * until the master has moved every region to the other server and {@value #WRITES_EACH_SIDE} more
 * are acknowledged. Twice: a region server thread aborted inside one JVM ({@link
 * EmbeddedHBase}), and a region server process killed with SIGKILL in a cluster of separate
 * processes on HDFS ({@link ProcessCluster}, the coprocessor loaded from the region servers' own
 * classpath).
 */
@OwnClusters
@FaultInjection
@Order(1) // the longest class starts first, beside the others
class RegionServerFailureTest {
  /** A two-region-server cluster that can lose one. */
  private interface CrashableCluster extends AutoCloseable {
    String quorum();

    int port();

    void crashRegionServer(int index) throws IOException;

    @Override
    void close();
  }

  private static CrashableCluster start(String kind, Path dir) throws IOException {
    if (kind.equals("threads")) {
      EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(dir).regionServers(2).start();
      return new CrashableCluster() {
        public String quorum() {
          return hbase.zookeeperQuorum();
        }

        public int port() {
          return hbase.zookeeperPort();
        }

        public void crashRegionServer(int index) throws IOException {
          hbase.abortRegionServer(index);
        }

        public void close() {
          hbase.close();
        }
      };
    }
    boolean hdfs = kind.equals("processes-on-hdfs");
    ProcessCluster hbase = ProcessCluster.builder().dataDir(dir).regionServers(2).hdfs(hdfs).start();
    assertEquals(hdfs, hbase.onHdfs());
    assertEquals(hdfs ? 6 : 4, hbase.pids().stream().distinct().count(),
        "(NameNode, DataNode,) ZooKeeper, master, two region servers: one process each");
    return new CrashableCluster() {
      public String quorum() {
        return hbase.zookeeperQuorum();
      }

      public int port() {
        return hbase.zookeeperPort();
      }

      public void crashRegionServer(int index) {
        hbase.killRegionServer(index);
        assertEquals(1, hbase.liveRegionServers());
      }

      public void close() {
        hbase.close();
      }
    };
  }
  private static final String SCHEMA = SecureFixture.EVERY_BOX.replace("table: TABLE", "table: failover");
  private static final byte[] F = toBytes("f");
  private static final int WRITERS = 4;
  /** Writes acknowledged before the crash, and again after the regions are back. */
  private static final int WRITES_EACH_SIDE = 200;
  /** Polls before a wait gives up (4 minutes of {@link Await}'s polls): a bound on a stuck cluster. */
  private static final int MAX_POLLS = 12_000;

  @ParameterizedTest
  // A process killed on a local filesystem is left out: on HDFS it is the same kill, with the WAL
  // replayed from a DataNode, as production runs; that saves a third cluster (about 55 s).
  @ValueSource(strings = {"threads", "processes-on-hdfs"})
  void acknowledgedWritesSurviveARegionServerCrash(String kind) throws Exception {
    Path dir = Files.createTempDirectory(Paths.get(System.getProperty("java.io.tmpdir")), "failover-hbase-");
    try (CrashableCluster hbase = start(kind, dir)) {
      Configuration conf = SecureFixture.clientConfiguration(hbase.quorum(), hbase.port(), 30, 200, 180_000);
      try (Connection connection = ConnectionFactory.createConnection(conf)) {
        TableSchema schema = TableSchema.parse(SCHEMA);
        KeyProvider keys = SecureFixture.randomKeys();
        SecureConnection secure = SecureConnection.wrap(connection, keys, List.of(schema));
        // DET row keys start with the 5-byte key-id prefix: split on the byte after it.
        byte[] prefix = Arrays.copyOf(new TableCodec(schema, keys).encodeRow(toBytes("x")), 5);
        byte[][] splits = new byte[3][];
        for (int i = 0; i < 3; i++) {
          splits[i] = Bytes.add(prefix, new byte[] {(byte) (64 * (i + 1))});
        }
        secure.createTable(schema, splits);

        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        Map<String, String> failed = new ConcurrentHashMap<>(); // written, then an error: applied or not
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          writers.add(pool.submit(() -> {
            try (Table t = secure.getTable(TableName.valueOf("failover"))) {
              for (int i = 0; !stop.get(); i++) {
                String row = "w" + writer + "-" + i;
                String value = "payload of " + row;
                try {
                  t.put(new Put(toBytes(row)).addColumn(F, toBytes("id"), toBytes(row))
                      .addColumn(F, toBytes("v"), toBytes(value)).addColumn(F, toBytes("when"), toBytes((long) i))
                      .addColumn(F, toBytes("total"), toBytes((long) i))
                      .addColumn(F, toBytes("tag"), toBytes("tag-" + i % 50)));
                  acknowledged.put(row, value);
                } catch (IOException e) {
                  failed.put(row, value);
                }
              }
            }
            return null;
          }));
        }
        awaitAcknowledged(acknowledged, WRITES_EACH_SIDE, writers);
        hbase.crashRegionServer(0);
        try (Admin admin = connection.getAdmin()) {
          awaitRegionsOnOneServer(admin, TableName.valueOf("failover"));
        }
        int recovered = acknowledged.size();
        awaitAcknowledged(acknowledged, recovered + WRITES_EACH_SIDE, writers);
        stop.set(true);
        for (Future<?> f : writers) {
          f.get();
        }
        pool.shutdown();

        long lost = 0;
        try (Table t = secure.getTable(TableName.valueOf("failover"))) {
          List<Get> gets = new ArrayList<>();
          List<String> rows = new ArrayList<>(acknowledged.keySet());
          for (String row : rows) {
            gets.add(new Get(toBytes(row)));
          }
          Result[] results = t.get(gets);
          for (int i = 0; i < rows.size(); i++) {
            String got = Bytes.toString(results[i].getValue(F, toBytes("v")));
            if (!acknowledged.get(rows.get(i)).equals(got)) {
              lost++;
            }
          }
          // Every stored row decrypts (a scan decodes all of them); the ASHE sum and SSE searches cover them.
          List<Result> stored = SecureFixture.scanAll(t, new Scan());
          assertTrue(stored.size() >= acknowledged.size(), "scanned " + stored.size() + " of " + acknowledged.size());
          long total = 0;
          Map<String, Set<String>> tagged = new java.util.HashMap<>();
          for (Result r : stored) {
            total += Bytes.toLong(r.getValue(F, toBytes("total")));
            tagged.computeIfAbsent(Bytes.toString(r.getValue(F, toBytes("tag"))), k -> new java.util.TreeSet<>())
                .add(Bytes.toString(r.getRow()));
          }
          AggregateResult sum = ((SecureTable) t).aggregate(new Scan(), F, toBytes("total"));
          assertEquals(new AggregateResult(total, stored.size()), sum);
          for (String tag : List.of("tag-0", "tag-17", "tag-49")) {
            SingleColumnValueFilter equal = new SingleColumnValueFilter(F, toBytes("tag"), CompareOperator.EQUAL,
                toBytes(tag));
            equal.setFilterIfMissing(true);
            Set<String> found = new java.util.TreeSet<>();
            for (Result r : SecureFixture.scanAll(t, new Scan().setFilter(equal))) {
              found.add(Bytes.toString(r.getRow()));
            }
            Set<String> missing = new java.util.TreeSet<>(tagged.getOrDefault(tag, Set.of()));
            missing.removeAll(found);
            assertEquals(tagged.getOrDefault(tag, Set.of()), found, tag + ": rows the search missed " + missing
                + ", of which acknowledged " + missing.stream().filter(acknowledged::containsKey).toList()
                + ", failed with an error " + missing.stream().filter(failed::containsKey).toList());
          }
        }
        assertEquals(0, lost, "acknowledged writes lost, of " + acknowledged.size());
        // A write that failed may have been applied or not, but never in part: the row is whole or absent.
        try (Table t = secure.getTable(TableName.valueOf("failover"))) {
          for (Map.Entry<String, String> e : failed.entrySet()) {
            Result r = t.get(new Get(toBytes(e.getKey())));
            if (!r.isEmpty()) {
              assertEquals(e.getValue(), Bytes.toString(r.getValue(F, toBytes("v"))), e.getKey());
              for (String column : List.of("id", "when", "total", "tag")) {
                assertTrue(r.containsColumn(F, toBytes(column)), "a failed write applied in part: " + e.getKey());
              }
            }
          }
        }
      }
      if (kind.equals("processes-on-hdfs")) {
        // The data went through HDFS: blocks on the DataNode, nothing under a local HBase root.
        assertFalse(Files.exists(dir.resolve("hbase")), "a local HBase root directory exists");
        try (java.util.stream.Stream<Path> files = Files.walk(dir.resolve("hdfs").resolve("data"))) {
          assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("blk_")), "no HDFS block stored");
        }
      }
    }
  }

  /** Waits until {@code target} writes are acknowledged; rethrows a writer's failure. */
  private static void awaitAcknowledged(Map<String, String> acknowledged, int target, List<Future<?>> writers)
      throws Exception {
    Await.until(() -> acknowledged.size() >= target, writers, MAX_POLLS,
        () -> "only " + acknowledged.size() + " of " + target + " writes acknowledged");
  }

  /** Waits until the master has declared the crashed server dead and every region is open on the other. */
  private static void awaitRegionsOnOneServer(Admin admin, TableName table) throws Exception {
    Await.until(() -> {
      Set<ServerName> live = liveServers(admin);
      return live.size() == 1 && live.containsAll(hostingServers(admin, table));
    }, List.of(), MAX_POLLS, () -> {
      try {
        return "live servers " + liveServers(admin) + ", regions on " + hostingServers(admin, table);
      } catch (IOException e) {
        return "live servers and regions unknown: " + e;
      }
    });
  }

  private static Set<ServerName> liveServers(Admin admin) throws IOException {
    return admin.getClusterMetrics().getLiveServerMetrics().keySet();
  }

  private static Set<ServerName> hostingServers(Admin admin, TableName table) throws IOException {
    Set<ServerName> hosting = new HashSet<>();
    try (RegionLocator locator = admin.getConnection().getRegionLocator(table)) {
      for (RegionInfo region : admin.getRegions(table)) {
        hosting.add(locator.getRegionLocation(region.getStartKey(), true).getServerName());
      }
    }
    return hosting;
  }
}
