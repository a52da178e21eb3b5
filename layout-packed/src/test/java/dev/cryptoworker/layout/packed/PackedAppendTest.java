package dev.cryptoworker.layout.packed;

import static dev.cryptoworker.layout.packed.PackedLayoutTest.asMap;
import static dev.cryptoworker.layout.packed.PackedLayoutTest.assertRefused;
import static dev.cryptoworker.layout.packed.PackedLayoutTest.key;
import static dev.cryptoworker.layout.packed.PackedLayoutTest.scanKeys;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.Await;
import dev.cryptoworker.testing.FaultInjection;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.File;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PACKED layout in APPEND mode on real HBase: puts, gets and scans against an oracle while
 * epochs close and merge into packs of 4 rows; raw entries; tampered entries; refusals; merges
 * racing with reads; a merging client killed mid-merge and taken over.
 */
@ExtendWith(SharedHBaseCluster.class)
class PackedAppendTest {
  /** PackedLayoutTest's schema in mode APPEND, with short epochs and leases. */
  private static final String SCHEMA = PackedLayoutTest.SCHEMA.replace("mode: GENERIC", "mode: APPEND")
      .replace("compression: ZSTD }", "compression: ZSTD, epochMillis: 200, leaseMillis: 300 }");
  private static final byte[] F = toBytes("f");
  private static final byte[] G = toBytes("g");
  private static final SecureTableOptions MANUAL = SecureTableOptions.builder().backgroundMerges(false).build();

  private static TableSchema schema(String rowBox) {
    return SecureFixture.schema("append", SCHEMA.replace("ROWBOX", rowBox));
  }

  private static SecureConnection create(Connection hbase, KeyProvider keys, TableSchema schema, byte[][] splits)
      throws IOException {
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema), MANUAL);
    secure.createTable(schema, splits);
    return secure;
  }

  /** Raw entry cells (family e) of the table. */
  private static List<Cell> rawEntries(Connection hbase, TableName name) throws IOException {
    List<Cell> out = new ArrayList<>();
    try (Table raw = hbase.getTable(name);
        ResultScanner s = raw.getScanner(new Scan().addFamily(AppendEntries.FAMILY))) {
      for (Result r : s) {
        out.addAll(List.of(r.rawCells()));
      }
    }
    return out;
  }

  /** The epoch records as stored: epoch to state name (and "held" if a merge lease is held). */
  private static NavigableMap<Long, String> rawRecords(Connection hbase, TableName name) throws IOException {
    NavigableMap<Long, String> out = new TreeMap<>();
    try (Table raw = hbase.getTable(name)) {
      Result r = raw.get(new Get(PackedLayout.FIRST_PACK).addFamily(EpochRecords.FAMILY));
      for (Cell c : r.rawCells()) {
        byte[] v = CellUtil.cloneValue(c);
        String state = EpochRecords.State.values()[v[0]].name();
        out.put(Bytes.toLong(CellUtil.cloneQualifier(c)), Bytes.toLong(v, 1) != 0 ? state + " held" : state);
      }
    }
    return out;
  }

  /**
   * A writer whose clock runs ten seconds ahead does not win over a later write of another: entries
   * are ordered by the region server's timestamp of their cell, before and after the merge.
   */
  @Test
  void aWriterWithAFastClockDoesNotBeatALaterWrite(Connection hbase) throws Exception {
    TableSchema schema = schema("PLAIN");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = create(hbase, SecureFixture.randomKeys(), schema, null);
        Table t = secure.getTable(name)) {
      try {
        AppendEntries.useClock(() -> System.currentTimeMillis() + 10_000);
        t.put(new Put(toBytes("sensor-1")).addColumn(F, toBytes("reading"), toBytes("fast clock, earlier")));
        AppendEntries.useClock(System::currentTimeMillis); // another writer, whose clock is right
        t.put(new Put(toBytes("sensor-1")).addColumn(F, toBytes("reading"), toBytes("right clock, later")));
      } finally {
        AppendEntries.useClock(System::currentTimeMillis);
      }
      assertEquals(2, rawEntries(hbase, name).size());
      assertEquals("right clock, later",
          Bytes.toString(t.get(new Get(toBytes("sensor-1"))).getValue(F, toBytes("reading"))));
      mergeEverything(secure, hbase, name);
      assertEquals("right clock, later",
          Bytes.toString(t.get(new Get(toBytes("sensor-1"))).getValue(F, toBytes("reading"))));
    }
  }

  /**
   * Merge rounds until no entry is left (writers stopped): the open epoch closes once old enough, and
   * is merged once this client has seen it closed for a lease. Fails after 1,000 rounds.
   */
  private static void mergeEverything(SecureConnection secure, Connection hbase, TableName name) throws Exception {
    Await.until(() -> {
      PackedTables.of(secure).mergeEpochs(name);
      return rawEntries(hbase, name).isEmpty();
    }, List.of(), 1_000, state(() -> "entries left: " + rawRecords(hbase, name)));
  }

  /** The stored packs of the table, counted up to {@code atMost}. */
  private static int rawPacks(Connection hbase, TableName name, int atMost) throws IOException {
    try (Table raw = hbase.getTable(name); ResultScanner s = raw.getScanner(new Scan()
        .addColumn(PackedLayout.FAMILY, PackedLayout.PACK).setFilter(new KeyOnlyFilter()).setLimit(atMost))) {
      int n = 0;
      for (Result r = s.next(); r != null; r = s.next()) {
        n++;
      }
      return n;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"PLAIN", "OPE", "DET"})
  void putsGetsAndScansMatchAnOracleWhileEpochsMerge(String rowBox, Connection hbase) throws Exception {
    TableSchema schema = schema(rowBox);
    TableName name = TableName.valueOf(schema.tableName());
    byte[][] splits = rowBox.equals("PLAIN") ? new byte[][] {toBytes(key(40)), toBytes(key(80))} : null;
    SplittableRandom random = new SplittableRandom(rowBox.hashCode());
    TreeMap<String, TreeMap<String, String>> oracle = new TreeMap<>();
    boolean ordered = !rowBox.equals("DET");
    try (SecureConnection secure = create(hbase, SecureFixture.randomKeys(), schema, splits);
        Table t = secure.getTable(name)) {
      for (int op = 0; op < 500; op++) {
        String row = key(random.nextInt(120));
        int kind = random.nextInt(10);
        if (kind < 5) {
          Put put = new Put(toBytes(row));
          for (int c = 1 + random.nextInt(3); c > 0; c--) {
            byte[] family = random.nextBoolean() ? F : G;
            String q = "q" + random.nextInt(4);
            String v = "value " + op + " of " + row;
            put.addColumn(family, toBytes(q), toBytes(v));
            oracle.computeIfAbsent(row, r -> new TreeMap<>()).put(Bytes.toString(family) + ":" + q, v);
          }
          if (random.nextBoolean()) {
            t.put(put);
          } else {
            t.mutateRow(RowMutations.of(List.of(put)));
          }
        } else if (kind == 5) {
          // A list of puts, a row twice: the later put of a row wins.
          List<Put> puts = new ArrayList<>();
          for (int p = 2 + random.nextInt(10); p > 0; p--) {
            String r = p == 1 && !puts.isEmpty() ? Bytes.toString(puts.get(0).getRow()) : key(random.nextInt(120));
            String v = "value " + op + "." + p + " of " + r;
            puts.add(new Put(toBytes(r)).addColumn(F, toBytes("q0"), toBytes(v)));
            oracle.computeIfAbsent(r, k -> new TreeMap<>()).put("f:q0", v);
          }
          t.put(puts);
        } else if (kind == 6 && op % 7 == 0) {
          // Merge rounds until one closes the open epoch (once it is old enough); a later one merges it.
          long open = rawRecords(hbase, name).entrySet().stream().filter(e -> e.getValue().equals("OPEN"))
              .findFirst().orElseThrow().getKey();
          Await.until(() -> {
            PackedTables.of(secure).mergeEpochs(name);
            return !"OPEN".equals(rawRecords(hbase, name).get(open));
          }, List.of(), 1_000, state(() -> "epoch " + open + " still open: " + rawRecords(hbase, name)));
        } else {
          assertEquals(oracle.getOrDefault(row, new TreeMap<>()), asMap(t.get(new Get(toBytes(row)))),
              rowBox + " get " + row + " after op " + op);
          assertEquals(oracle.containsKey(row), t.exists(new Get(toBytes(row))));
        }
        if (op % 50 == 49) {
          Map<String, TreeMap<String, String>> seen = new TreeMap<>();
          List<String> all = scanKeys(t, new Scan(), seen);
          assertEquals(oracle, seen, rowBox + " full scan after op " + op);
          assertEquals(oracle.size(), all.size(), "every row once");
          if (ordered) {
            assertEquals(new ArrayList<>(oracle.keySet()), all, "in key order");
            int a = random.nextInt(130);
            int b = a + random.nextInt(40);
            assertEquals(new ArrayList<>(oracle.subMap(key(a), key(b)).keySet()),
                scanKeys(t, new Scan().withStartRow(toBytes(key(a))).withStopRow(toBytes(key(b))), new TreeMap<>()));
            assertEquals(new ArrayList<>(oracle.subMap(key(a), false, key(b), true).descendingKeySet()),
                scanKeys(t, new Scan().withStartRow(toBytes(key(b))).withStopRow(toBytes(key(a))).setReversed(true),
                    new TreeMap<>()), "reversed (" + key(b) + ", " + key(a) + "]");
            List<String> limited = new ArrayList<>(oracle.tailMap(key(a)).keySet());
            assertEquals(limited.subList(0, Math.min(3, limited.size())),
                scanKeys(t, new Scan().withStartRow(toBytes(key(a))).setLimit(3), new TreeMap<>()));
          }
          Map<String, TreeMap<String, String>> onlyG = new TreeMap<>();
          scanKeys(t, new Scan().addFamily(G), onlyG);
          assertEquals(oracle.values().stream().filter(r -> r.keySet().stream().anyMatch(c -> c.startsWith("g:")))
              .count(), onlyG.size());
        }
      }
      assertTrue(rawRecords(hbase, name).values().stream().anyMatch(s -> s.equals("DELETED")),
          "some epochs were merged along the way: " + rawRecords(hbase, name));
      mergeEverything(secure, hbase, name);
      Map<String, TreeMap<String, String>> seen = new TreeMap<>();
      scanKeys(t, new Scan(), seen);
      assertEquals(oracle, seen, rowBox + " after every epoch merged");
      int packs = 0;
      try (Table raw = hbase.getTable(name);
          ResultScanner s = raw.getScanner(new Scan().addColumn(PackedLayout.FAMILY, PackedLayout.PACK))) {
        for (Result r : s) {
          String pack = Bytes.toStringBinary(r.value());
          assertFalse(pack.contains("value ") || pack.contains("row-0"), "plaintext in a pack");
          packs++;
        }
      }
      assertTrue(packs > 5 && packs < oracle.size(), packs + " packs for " + oracle.size() + " rows");
    }
  }

  @Test
  void entriesHideTheirCellsAndAlteredOrMovedEntriesAreRefused(Connection hbase) throws Exception {
    TableSchema schema = schema("DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = create(hbase, SecureFixture.randomKeys(), schema, null);
        Table t = secure.getTable(name)) {
      for (int i = 0; i < 10; i++) {
        t.put(new Put(toBytes(key(i))).addColumn(F, toBytes("diagnosis"), toBytes("confidential " + i))
            .addColumn(G, toBytes("ward"), toBytes("cardiology")));
      }
      List<Cell> entries = rawEntries(hbase, name);
      assertEquals(10, entries.size(), "one entry per put, not merged yet");
      assertEquals(10, PackedTables.of(secure).unmergedEntries(name));
      for (Cell c : entries) {
        String stored = Bytes.toStringBinary(CellUtil.cloneValue(c));
        assertFalse(stored.contains("confidential") || stored.contains("cardiology") || stored.contains("diagnosis"),
            "plaintext in an entry");
        assertFalse(Bytes.toStringBinary(CellUtil.cloneRow(c)).contains("row-0"), "a DET row key in the clear");
        assertEquals(24, c.getQualifierLength(), "entry ids: epoch, writer, sequence");
      }
      try (Table raw = hbase.getTable(name)) {
        Cell first = entries.get(0);
        Cell second = entries.get(1);
        // The first entry's bytes under the second's row: bound to its row and id, it does not open there.
        raw.put(new Put(CellUtil.cloneRow(second)).addColumn(AppendEntries.FAMILY, CellUtil.cloneQualifier(first),
            CellUtil.cloneValue(first)));
        CellDecodingException moved = assertThrows(CellDecodingException.class, () -> scanKeys(t, new Scan(),
            new TreeMap<>()));
        assertTrue(moved.getMessage().contains("table " + name.getNameAsString()) && moved.getMessage().contains("entry")
            && moved.getMessage().contains("moved from another row"), moved.getMessage());
        raw.delete(new Delete(CellUtil.cloneRow(second)).addColumns(AppendEntries.FAMILY,
            CellUtil.cloneQualifier(first)));
        byte[] altered = CellUtil.cloneValue(first);
        altered[altered.length / 2] ^= 1;
        raw.put(new Put(CellUtil.cloneRow(first)).addColumn(AppendEntries.FAMILY, CellUtil.cloneQualifier(first),
            first.getTimestamp(), altered));
        assertThrows(CellDecodingException.class, () -> scanKeys(t, new Scan(), new TreeMap<>()));
        raw.put(new Put(CellUtil.cloneRow(first)).addColumn(AppendEntries.FAMILY, CellUtil.cloneQualifier(first),
            first.getTimestamp(), CellUtil.cloneValue(first)));
      }
      assertEquals(10, scanKeys(t, new Scan(), new TreeMap<>()).size());
      mergeEverything(secure, hbase, name);
      assertEquals(List.of(), rawEntries(hbase, name));
      assertEquals(0, PackedTables.of(secure).unmergedEntries(name));
      for (int i = 0; i < 10; i++) {
        assertEquals("confidential " + i, Bytes.toString(t.get(new Get(toBytes(key(i)))).getValue(F,
            toBytes("diagnosis"))));
      }
    }
  }

  @Test
  @SuppressWarnings("deprecation") // Table's checkAndMutate builder is deprecated in HBase 2, still part of the API
  void appendTablesTakePutsOnlyAndSayWhy(Connection hbase) throws Exception {
    TableSchema schema = schema("PLAIN");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = create(hbase, SecureFixture.randomKeys(), schema, null);
        Table t = secure.getTable(name)) {
      byte[] row = toBytes("r1");
      t.put(new Put(row).addColumn(F, toBytes("q"), toBytes("v")));
      assertRefused(() -> t.delete(new Delete(row)), "a delete on a PACKED table");
      assertRefused(() -> t.delete(new Delete(row)), "mode APPEND, which takes puts only");
      assertRefused(() -> t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, toBytes("q"))
          .build(new Put(row).addColumn(F, toBytes("q"), toBytes("w")))), "checkAndMutate");
      assertRefused(() -> t.mutateRow(RowMutations.of(List.of(new Put(row).addColumn(F, toBytes("q"), toBytes("w")),
          new Delete(row).addColumns(G, toBytes("x"))))), "mutateRow with a Delete");
      assertEquals("v", Bytes.toString(t.get(new Get(row)).getValue(F, toBytes("q"))), "nothing of the refused");
      try (SecureTable st = secure.getSecureTable(name)) {
        assertTrue(st.explain(new Scan()).contains("PACKED APPEND") && st.explain(new Scan()).contains("entries"),
            st.explain(new Scan()));
      }
    }
    TableSchema generic = SecureFixture.schema("generic", PackedLayoutTest.SCHEMA.replace("ROWBOX", "PLAIN"));
    try (SecureConnection secure = create(hbase, SecureFixture.randomKeys(), generic, null)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PackedTables.of(secure).mergeEpochs(TableName.valueOf(generic.tableName())));
      assertTrue(e.getMessage().contains("not an APPEND-mode PACKED table"), e.getMessage());
    }
  }

  @Test
  void putsOneAfterAnotherThroughNewHandlesKeepTheirOrder(Connection hbase) throws Exception {
    TableSchema schema = schema("PLAIN");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = create(hbase, SecureFixture.randomKeys(), schema, null)) {
      // A table handle per put, as request handlers do: many puts fall within one millisecond.
      for (int i = 0; i < 200; i++) {
        try (Table t = secure.getTable(name)) {
          t.put(new Put(toBytes("counter")).addColumn(F, toBytes("n"), toBytes(Integer.toString(i))));
        }
      }
      try (Table t = secure.getTable(name)) {
        assertEquals("199", Bytes.toString(t.get(new Get(toBytes("counter"))).getValue(F, toBytes("n"))));
        mergeEverything(secure, hbase, name);
        assertEquals("199", Bytes.toString(t.get(new Get(toBytes("counter"))).getValue(F, toBytes("n"))));
      }
    }
  }

  @Test
  void mergesRacingWithReadsShowEveryKeyExactlyOnce(Connection hbase) throws Exception {
    TableSchema schema = schema("OPE");
    TableName name = TableName.valueOf(schema.tableName());
    Set<String> acknowledged = new ConcurrentSkipListSet<>();
    AtomicBoolean stop = new AtomicBoolean();
    // The race ends once each side has done its share: puts, entries merged, and scans by both readers.
    AtomicInteger puts = new AtomicInteger();
    AtomicInteger merged = new AtomicInteger();
    AtomicIntegerArray checks = new AtomicIntegerArray(2);
    try (SecureConnection secure = create(hbase, SecureFixture.randomKeys(), schema, null)) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> work = new ArrayList<>();
      work.add(pool.submit(() -> { // writer: new keys, and rewrites of old ones
        try (Table t = secure.getTable(name)) {
          for (int i = 0; !stop.get(); i++) {
            String k = key(i % 900);
            t.put(new Put(toBytes(k)).addColumn(F, toBytes("v"), toBytes("of " + k)));
            acknowledged.add(k);
            puts.incrementAndGet();
          }
        }
        return null;
      }));
      work.add(pool.submit(() -> { // merger, as another client would run it
        while (!stop.get()) {
          merged.addAndGet(PackedTables.of(secure).mergeEpochs(name));
          Thread.sleep(50);
        }
        return null;
      }));
      for (int reader = 0; reader < 2; reader++) {
        int index = reader;
        work.add(pool.submit(() -> {
          try (Table t = secure.getTable(name)) {
            while (!stop.get()) {
              Set<String> before = new HashSet<>(acknowledged);
              List<String> keys = scanKeys(t, new Scan(), new TreeMap<>());
              assertEquals(new HashSet<>(keys).size(), keys.size(), "a key twice in one scan");
              assertTrue(keys.containsAll(before), "an acknowledged key missing from a scan");
              assertEquals(new ArrayList<>(new java.util.TreeSet<>(keys)), keys, "scan out of order");
              for (String k : before.stream().limit(20).toList()) {
                assertEquals("of " + k, Bytes.toString(t.get(new Get(toBytes(k))).getValue(F, toBytes("v"))), k);
              }
              checks.incrementAndGet(index);
            }
          }
          return null;
        }));
      }
      try {
        Await.until(() -> puts.get() >= 1_000 && merged.get() >= 100 && checks.get(0) >= 3 && checks.get(1) >= 3,
            work, 6_000, () -> "puts " + puts + ", entries merged " + merged + ", scans " + checks);
        stop.set(true);
        for (Future<?> f : work) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally { // a failure leaves no thread working on the shared cluster
        stop.set(true);
        pool.shutdownNow();
      }
      mergeEverything(secure, hbase, name);
      try (Table t = secure.getTable(name)) {
        assertEquals(new ArrayList<>(new java.util.TreeSet<>(acknowledged)), scanKeys(t, new Scan(), new TreeMap<>()));
      }
    }
  }

  @Test
  @FaultInjection
  void aMergerKilledMidMergeIsTakenOverAndEveryKeyStaysOnce(Connection hbase, Configuration conf) throws Exception {
    TableSchema schema = SecureFixture.schema("appendkill", SCHEMA.replace("ROWBOX", "PLAIN")
        .replace("leaseMillis: 300", "leaseMillis: 1000"));
    TableName name = TableName.valueOf(schema.tableName());
    byte[] master = new byte[32];
    new SecureRandom().nextBytes(master);
    KeyProvider keys = KeyProvider.fromMasterKey(master);
    int rows = 4_000;
    try (SecureConnection secure = create(hbase, keys, schema, null); Table t = secure.getTable(name)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        puts.add(new Put(toBytes(key(i))).addColumn(F, toBytes("v"), toBytes("payload of " + i)));
      }
      for (int i = 0; i < rows; i += 500) {
        t.put(puts.subList(i, i + 500));
      }
      // Another client merges; it is killed while it holds the lease, part way through the packs.
      int packsBefore = rawPacks(hbase, name, Integer.MAX_VALUE);
      ProcessBuilder pb = SecureFixture.childClient(Merger.class, conf, schema, master);
      File log = File.createTempFile("append-merger", ".log");
      log.deleteOnExit();
      pb.redirectOutput(log);
      Process child = pb.start();
      try {
        // Killed once it holds the lease and has written 20 packs of the ~1,000 its merge makes.
        List<Future<?>> merger = List.of(child.onExit());
        Await.until(() -> rawRecords(hbase, name).containsValue("NOT_MERGED held")
            && rawPacks(hbase, name, packsBefore + 20) >= packsBefore + 20, merger, 6_000,
            state(() -> "records " + rawRecords(hbase, name) + ", packs " + rawPacks(hbase, name, Integer.MAX_VALUE)
                + "; the merger's output: " + java.nio.file.Files.readString(log.toPath())));
      } finally {
        child.destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
      }
      NavigableMap<Long, String> afterKill = rawRecords(hbase, name);
      long held = afterKill.entrySet().stream().filter(e -> e.getValue().equals("NOT_MERGED held"))
          .findFirst().orElseThrow(() -> new AssertionError("not killed mid-merge: " + afterKill)).getKey();
      assertNotEquals(0, rawEntries(hbase, name).size(), "entries left to merge");
      assertTrue(rawPacks(hbase, name, Integer.MAX_VALUE) >= packsBefore + 20, "packs written before the kill");
      // Half merged: every key once, with its value.
      List<String> seen = scanKeys(t, new Scan(), new TreeMap<>());
      assertEquals(rows, seen.size());
      assertEquals(rows, new HashSet<>(seen).size());
      assertEquals("payload of 1234", Bytes.toString(t.get(new Get(toBytes(key(1234)))).getValue(F, toBytes("v"))));
      // This client takes the lease over once it has seen it unrenewed for a lease's length, and completes.
      mergeEverything(secure, hbase, name);
      // Once its entries are merged, the epoch still has to be marked.
      Await.until(() -> {
        PackedTables.of(secure).mergeEpochs(name);
        return "DELETED".equals(rawRecords(hbase, name).getOrDefault(held, "DELETED"));
      }, List.of(), 1_000, state(() -> "epoch " + held + " not settled: " + rawRecords(hbase, name)));
      Map<String, TreeMap<String, String>> values = new TreeMap<>();
      assertEquals(rows, scanKeys(t, new Scan(), values).size());
      for (int i = 0; i < rows; i += 97) {
        assertEquals(Map.of("f:v", "payload of " + i), values.get(key(i)));
      }
    }
  }

  /** What a wait reports when it gives up, read from HBase or a file. */
  @FunctionalInterface
  private interface State {
    String read() throws IOException;
  }

  private static java.util.function.Supplier<String> state(State state) {
    return () -> {
      try {
        return state.read();
      } catch (IOException e) {
        return "(could not be read: " + e + ")";
      }
    };
  }

  /** The child process: merge rounds on an APPEND table until killed. */
  public static final class Merger {
    public static void main(String[] args) throws Exception {
      try (SecureFixture.ChildClient child = SecureFixture.childClient(args, MANUAL)) {
        while (true) {
          System.out.println("merged " + PackedTables.of(child.secure()).mergeEpochs(child.table()));
          Thread.sleep(50);
        }
      }
    }
  }
}
