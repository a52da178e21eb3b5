package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static dev.cryptoworker.client.SearchableColumnTest.tagIs;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.embedded.VisibilityHold;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.FaultInjection;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SSE under concurrency and failure: eight writers on the same values while regions split and move
 * and a reader searches; and a writer process killed mid-stream. Searches must stay exact.
 */
@ExtendWith(SharedHBaseCluster.class)
class SearchConcurrencyTest {
  private static final String[] TAGS = {"v0", "v1", "v2", "v3"};

  /** Every row's tag, read with a full scan: the oracle searches must agree with. */
  private static Map<String, Set<String>> byTag(Table table) throws IOException {
    Map<String, Set<String>> out = new TreeMap<>();
    for (Result r : SecureFixture.scanAll(table, new Scan())) {
      byte[] tag = r.getValue(F, TAG);
      if (tag != null) {
        out.computeIfAbsent(Bytes.toString(tag), k -> new TreeSet<>()).add(Bytes.toString(r.getRow()));
      }
    }
    return out;
  }

  private static Set<String> search(Table table, String tag) throws IOException {
    Set<String> out = new TreeSet<>();
    for (Result r : SecureFixture.scanAll(table, new Scan().setFilter(tagIs(tag)))) {
      assertEquals(tag, Bytes.toString(r.getValue(F, TAG)), "a search returned a row whose current value differs");
      assertTrue(out.add(Bytes.toString(r.getRow())), "a row returned twice");
    }
    return out;
  }

  @Test
  void eightWritersOnTheSameValuesWhileRegionsSplitAndMove(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("sse_concurrent", SearchableColumnTest.SCHEMA);
    KeyProvider keys = SecureFixture.randomKeys();
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
    int writers = 8;
    int perWriter = 250;
    TableCodec codec = new TableCodec(schema, keys);
    List<byte[]> storedKeys = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      for (int i = 0; i < perWriter; i++) {
        storedKeys.add(codec.encodeRow(toBytes("w" + w + "-" + i)));
      }
    }
    storedKeys.sort(Bytes.BYTES_COMPARATOR);
    // Two regions to start with, each split once below: only a region never split is splittable at once.
    SecureFixture.create(secure, schema, 1, new byte[][] {storedKeys.get(storedKeys.size() / 2)});
    TableName name = SecureFixture.name(schema);
    SecureTable table = secure.getSecureTable(name);
    Map<String, String> finalTags = new ConcurrentHashMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean churnDone = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
    List<Future<?>> writes = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      writes.add(pool.submit(() -> {
        Random random = new Random(writer);
        for (int i = 0; i < perWriter || !churnDone.get(); i++) { // writing until the churn is over
          String key = "w" + writer + "-" + i;
          String tag = TAGS[random.nextInt(TAGS.length)];
          table.put(new Put(toBytes(key)).addColumn(F, TAG, toBytes(tag)).addColumn(F, toBytes("note"), toBytes(key)));
          finalTags.put(key, tag);
          if (i % 5 == 4) { // update an earlier row of this writer
            String earlier = "w" + writer + "-" + random.nextInt(i);
            String newTag = TAGS[random.nextInt(TAGS.length)];
            table.put(new Put(toBytes(earlier)).addColumn(F, TAG, toBytes(newTag)));
            finalTags.put(earlier, newTag);
          }
        }
        return null;
      }));
    }
    Future<Integer> churn = pool.submit(() -> {
      int done = 0;
      try (RegionChurn regions = new RegionChurn(hbase, name)) {
        for (byte[] point : regions.midpoints(storedKeys)) {
          int writtenBefore = finalTags.size();
          regions.splitAt(point);
          regions.moveAway(point);
          assertTrue(finalTags.size() > writtenBefore, "rows were written during the split and move");
          done += 2;
        }
      } finally {
        churnDone.set(true);
      }
      return done;
    });
    Future<Integer> reader = pool.submit(() -> {
      int n = 0;
      while (!stop.get()) {
        search(table, TAGS[n % TAGS.length]); // checks every returned row's current value
        n++;
      }
      return n;
    });
    int churned;
    int searches;
    try {
      churned = churn.get(2, TimeUnit.MINUTES);
      for (Future<?> f : writes) {
        f.get(5, TimeUnit.MINUTES);
      }
      stop.set(true);
      searches = reader.get(1, TimeUnit.MINUTES);
    } finally { // a failure leaves no thread writing to the shared cluster
      churnDone.set(true);
      stop.set(true);
      pool.shutdownNow();
    }

    Map<String, Set<String>> expected = new TreeMap<>();
    finalTags.forEach((k, v) -> expected.computeIfAbsent(v, t -> new TreeSet<>()).add(k));
    assertEquals(expected, byTag(table), "no write lost");
    for (String tag : TAGS) {
      assertEquals(expected.get(tag), search(table, tag), "search for " + tag);
    }
    assertEquals(4, churned, "two splits and two moves, each checked in hbase:meta");
    assertTrue(searches >= 5, searches + " searches during the writes");
  }

  /**
   * HBase runs {@code postBatchMutate}, where regions add a write's entries to their search index,
   * before the write becomes visible. A search whose scanner opens in between finds the entry but
   * not the row; it must not forget the entry, or the acknowledged row drops out of every later
   * search for its value. The embedded servers' visibility hold makes the window certain: the write
   * waits in it until two searches have run whole there (the first may have read the value's count
   * before the write took its entry number; the second cannot).
   */
  @Test
  void aSearchOpenedBeforeAWriteIsVisibleKeepsTheWritesEntry(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("sse_window", SearchableColumnTest.SCHEMA);
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    secure.createTable(SecureConnection.descriptorFor(schema).setCoprocessor(
        CoprocessorDescriptorBuilder.newBuilder(VisibilityHold.OBSERVER).setPriority(VisibilityHold.PRIORITY).build()),
        null);
    Table table = secure.getTable(SecureFixture.name(schema));
    table.put(new Put(toBytes("updated")).addColumn(F, TAG, toBytes("v1")));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      // An update (the scanner sees the row's earlier index cell) and a new row (it sees no row).
      for (String row : List.of("updated", "new")) {
        Future<?> write = pool.submit(() -> {
          table.put(new Put(toBytes(row)).addColumn(F, TAG, toBytes("v0"))
              .setAttribute(VisibilityHold.ATTRIBUTE, new byte[] {2}));
          return null;
        });
        int searches = 0;
        while (!write.isDone()) { // searches that open while the write is held release it when done
          assertTrue(++searches <= 1_000, "the held write of " + row + " never returned");
          search(table, "v0");
        }
        write.get();
        assertTrue(search(table, "v0").contains(row), "the acknowledged row " + row + " is missing from searches");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @FaultInjection
  void aWriterKilledMidStreamLeavesNothingASearchGetsWrong(Connection hbase, Configuration conf) throws Exception {
    TableSchema schema = SecureFixture.schema("sse_killed", SearchableColumnTest.SCHEMA);
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    SecureConnection secure = SecureConnection.wrap(hbase, KeyProvider.fromMasterKey(key), List.of(schema));
    SecureFixture.create(secure, schema, 1, SearchableColumnTest.SPLITS);
    ProcessBuilder pb = SecureFixture.childJvm(Writer.class,
        conf.get("hbase.zookeeper.quorum"), conf.get("hbase.zookeeper.property.clientPort"), schema.tableName());
    pb.environment().put("SSE_WRITER_KEY", Base64.getEncoder().encodeToString(key));
    int batches = SecureFixture.killAfterBatches(pb, 4);
    assertEquals(4, batches, "the writer must have written before it was killed");
    Table table = secure.getTable(SecureFixture.name(schema));
    Map<String, Set<String>> expected = byTag(table);
    assertTrue(expected.values().stream().mapToInt(Set::size).sum() >= 4 * Writer.BATCH);
    for (String tag : TAGS) {
      assertEquals(expected.getOrDefault(tag, Set.of()), search(table, tag), "search for " + tag);
    }
    // The table keeps working for writers that come after.
    table.put(new Put(toBytes("after")).addColumn(F, TAG, toBytes("v0")));
    assertTrue(search(table, "v0").contains("after"));
  }

  /** The child process: writes and updates tagged rows, one put at a time, until killed. */
  public static final class Writer {
    static final int BATCH = 100;

    public static void main(String[] args) throws Exception {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", args[0]);
      conf.set("hbase.zookeeper.property.clientPort", args[1]);
      TableSchema schema = TableSchema.parse(SearchableColumnTest.SCHEMA.replace("TABLE", args[2]));
      KeyProvider keys = KeyProvider.fromMasterKey(Base64.getDecoder().decode(System.getenv("SSE_WRITER_KEY")));
      Random random = new Random(3);
      try (Connection c = ConnectionFactory.createConnection(conf);
          Table t = SecureConnection.wrap(c, keys, List.of(schema)).getTable(TableName.valueOf(args[2]))) {
        for (int b = 0; ; b++) {
          for (int i = 0; i < BATCH; i++) {
            String id = "b" + b + "-" + i;
            t.put(new Put(toBytes(id)).addColumn(F, TAG, toBytes(TAGS[random.nextInt(TAGS.length)])));
            if (b > 0 && i % 3 == 0) {
              String earlier = "b" + random.nextInt(b) + "-" + random.nextInt(BATCH);
              t.put(new Put(toBytes(earlier)).addColumn(F, TAG, toBytes(TAGS[random.nextInt(TAGS.length)])));
            }
          }
          System.out.println("batch " + b);
          System.out.flush();
        }
      }
    }
  }
}
