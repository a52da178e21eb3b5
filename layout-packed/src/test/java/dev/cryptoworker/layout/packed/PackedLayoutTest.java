package dev.cryptoworker.layout.packed;

import dev.cryptoworker.packs.PackDecodingException;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyScope;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.BatchContract;
import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.packs.PackCodec;
import dev.cryptoworker.packs.PackRows;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.FaultInjection;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
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
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PACKED layout (GENERIC) on real HBase: every operation against an in-memory oracle with
 * packs of 4 rows (so that splits happen all the time), over several regions; raw storage; tampered
 * and swapped packs; refusals; 16 concurrent writers on shared packs.
 */
@ExtendWith(SharedHBaseCluster.class)
class PackedLayoutTest {
  static final String SCHEMA = String.join("\n",
      "table: TABLE",
      "rowKey: { box: ROWBOX }",
      "layout: { type: PACKED, mode: GENERIC, rowsPerPack: 4, compression: ZSTD }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "  g:",
      "    default: { box: PLAIN }",
      "");
  private static final byte[] F = toBytes("f");
  private static final byte[] G = toBytes("g");
  private static final byte[][] FAMILIES = {F, G};

  private static TableSchema schema(String rowBox) {
    return SecureFixture.schema("packed", SCHEMA.replace("ROWBOX", rowBox));
  }

  private static SecureConnection create(Connection hbase, TableSchema schema, byte[][] splits) throws IOException {
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    secure.createTable(schema, splits);
    return secure;
  }

  static String key(int i) {
    return String.format("row-%04d", i);
  }

  /** row -> "family:qualifier" -> value */
  private static final class Oracle {
    final TreeMap<String, TreeMap<String, String>> rows = new TreeMap<>();

    void put(String row, String column, String value) {
      rows.computeIfAbsent(row, r -> new TreeMap<>()).put(column, value);
    }

    void deleteColumn(String row, String column) {
      TreeMap<String, String> r = rows.get(row);
      if (r != null) {
        r.remove(column);
        if (r.isEmpty()) {
          rows.remove(row);
        }
      }
    }

    void deleteFamily(String row, String family) {
      TreeMap<String, String> r = rows.get(row);
      if (r != null) {
        r.keySet().removeIf(c -> c.startsWith(family + ":"));
        if (r.isEmpty()) {
          rows.remove(row);
        }
      }
    }
  }

  static TreeMap<String, String> asMap(Result r) {
    TreeMap<String, String> out = new TreeMap<>();
    if (r != null && !r.isEmpty()) {
      for (Cell c : r.rawCells()) {
        out.put(Bytes.toString(CellUtil.cloneFamily(c)) + ":" + Bytes.toString(CellUtil.cloneQualifier(c)),
            Bytes.toString(CellUtil.cloneValue(c)));
      }
    }
    return out;
  }

  static List<String> scanKeys(Table t, Scan scan, Map<String, TreeMap<String, String>> seen)
      throws IOException {
    List<String> keys = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        String k = Bytes.toString(r.getRow());
        keys.add(k);
        seen.put(k, asMap(r));
      }
    }
    return keys;
  }

  @ParameterizedTest
  @ValueSource(strings = {"PLAIN", "OPE", "DET"})
  void everyOperationMatchesAnOracleWhilePacksSplit(String rowBox, Connection hbase) throws Exception {
    TableSchema schema = schema(rowBox);
    // PLAIN row keys: regions cut between the keys; the others' stored keys are ciphertext.
    byte[][] splits = rowBox.equals("PLAIN") ? new byte[][] {toBytes(key(40)), toBytes(key(80))} : null;
    SplittableRandom random = new SplittableRandom(rowBox.hashCode());
    Oracle oracle = new Oracle();
    boolean ordered = !rowBox.equals("DET");
    try (SecureConnection secure = create(hbase, schema, splits);
        Table t = secure.getTable(TableName.valueOf(schema.tableName()))) {
      for (int op = 0; op < 700; op++) {
        String row = key(random.nextInt(120));
        int kind = random.nextInt(10);
        if (kind < 5) {
          Put put = new Put(toBytes(row));
          for (int c = 1 + random.nextInt(3); c > 0; c--) {
            byte[] family = FAMILIES[random.nextInt(2)];
            String q = "q" + random.nextInt(4);
            String v = "value " + op + " of " + row;
            put.addColumn(family, toBytes(q), toBytes(v));
            oracle.put(row, Bytes.toString(family) + ":" + q, v);
          }
          t.put(put);
        } else if (kind == 5) {
          t.delete(new Delete(toBytes(row)));
          oracle.rows.remove(row);
        } else if (kind == 6) {
          String q = "q" + random.nextInt(4);
          t.delete(new Delete(toBytes(row)).addColumns(F, toBytes(q)));
          oracle.deleteColumn(row, "f:" + q);
        } else if (kind == 7) {
          t.delete(new Delete(toBytes(row)).addFamily(G));
          oracle.deleteFamily(row, "g");
        } else if (kind == 8 && random.nextBoolean()) {
          // A list of puts over several packs, a row twice: written pack by pack, in list order per row.
          List<Put> puts = new ArrayList<>();
          for (int p = 2 + random.nextInt(12); p > 0; p--) {
            String r = p == 1 && !puts.isEmpty() ? Bytes.toString(puts.get(0).getRow()) : key(random.nextInt(120));
            String v = "value " + op + "." + p + " of " + r;
            puts.add(new Put(toBytes(r)).addColumn(F, toBytes("q0"), toBytes(v)));
            oracle.put(r, "f:q0", v);
          }
          t.put(puts);
        } else {
          assertEquals(oracle.rows.getOrDefault(row, new TreeMap<>()), asMap(t.get(new Get(toBytes(row)))),
              rowBox + " get " + row + " after op " + op);
          assertEquals(oracle.rows.containsKey(row), t.exists(new Get(toBytes(row))));
        }
        if (op % 50 == 49) {
          Map<String, TreeMap<String, String>> seen = new TreeMap<>();
          List<String> all = scanKeys(t, new Scan(), seen);
          assertEquals(oracle.rows, seen, rowBox + " full scan after op " + op);
          assertEquals(oracle.rows.size(), all.size(), "every row once");
          if (ordered) {
            assertEquals(new ArrayList<>(oracle.rows.keySet()), all, "in key order");
            int a = random.nextInt(130);
            int b = a + random.nextInt(40);
            Map<String, TreeMap<String, String>> ranged = new TreeMap<>();
            assertEquals(new ArrayList<>(oracle.rows.subMap(key(a), key(b)).keySet()),
                scanKeys(t, new Scan().withStartRow(toBytes(key(a))).withStopRow(toBytes(key(b))), ranged));
            List<String> reversed = new ArrayList<>(oracle.rows.subMap(key(a), false, key(b), true).descendingKeySet());
            assertEquals(reversed, scanKeys(t, new Scan().withStartRow(toBytes(key(b))).withStopRow(toBytes(key(a)))
                .setReversed(true), new TreeMap<>()), "reversed (" + key(b) + ", " + key(a) + "]");
            List<String> limited = new ArrayList<>(oracle.rows.tailMap(key(a)).keySet());
            assertEquals(limited.subList(0, Math.min(3, limited.size())),
                scanKeys(t, new Scan().withStartRow(toBytes(key(a))).setLimit(3), new TreeMap<>()));
          }
          // Only family g, only column f:q1.
          Map<String, TreeMap<String, String>> onlyG = new TreeMap<>();
          scanKeys(t, new Scan().addFamily(G), onlyG);
          for (Map.Entry<String, TreeMap<String, String>> e : onlyG.entrySet()) {
            assertTrue(e.getValue().keySet().stream().allMatch(c -> c.startsWith("g:")), e.toString());
          }
          assertEquals(oracle.rows.values().stream().filter(r -> r.keySet().stream().anyMatch(c -> c.startsWith("g:")))
              .count(), onlyG.size());
          Result one = t.get(new Get(toBytes(row)).addColumn(F, toBytes("q1")));
          assertEquals(oracle.rows.getOrDefault(row, new TreeMap<>()).get("f:q1"),
              one.isEmpty() ? null : Bytes.toString(one.getValue(F, toBytes("q1"))));
        }
      }
      assertRawStorageIsPacks(hbase, schema, oracle);
    }
  }

  /** Raw cells: one pack cell per stored row, fewer than the rows, and no key or value in the clear. */
  private static void assertRawStorageIsPacks(Connection hbase, TableSchema schema, Oracle oracle) throws IOException {
    int packs = 0;
    try (Table raw = hbase.getTable(TableName.valueOf(schema.tableName()));
        ResultScanner s = raw.getScanner(new Scan())) {
      for (Result r : s) {
        assertEquals(1, r.rawCells().length);
        assertTrue(CellUtil.matchingColumn(r.rawCells()[0], PackedLayout.FAMILY, PackedLayout.PACK));
        String pack = Bytes.toStringBinary(r.value());
        assertFalse(pack.contains("value "), "a value in the clear");
        // (markers of 5 bytes and more: a random ciphertext shows a given 2-byte string every 64 KiB or so)
        assertFalse(pack.contains("row-0"), "a row key in the clear inside a pack");
        if (schema.rowKeyPolicy().box().name().equals("DET")) {
          // Pack ids are stored row keys: DET hides them (OPE shows its documented prefixes, PLAIN all).
          assertFalse(Bytes.toStringBinary(r.getRow()).contains("row-0"), "a DET row key in the clear");
        }
        packs++;
      }
    }
    assertTrue(packs < oracle.rows.size(), packs + " packs for " + oracle.rows.size() + " rows");
    assertTrue(packs > 5, "packs split: " + packs);
  }

  @Test
  void batchesKeepTheOneBatchContractAndToolsAskForCapabilities(Connection hbase) throws Exception {
    TableSchema schema = schema("PLAIN");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = create(hbase, schema, null); Table t = secure.getTable(name)) {
      BatchContract.check(t, F, "contract-");
      BatchContract.checkBufferedMutator(secure, name, F, "contract-");
      SecureTable st = secure.getSecureTable(name);
      assertEquals(Set.of(LayoutCapability.CHECK_AND_MUTATE, LayoutCapability.INSPECTION), st.capabilities());
      UnsupportedSecureOperationException bulk = assertThrows(UnsupportedSecureOperationException.class,
          () -> st.requireCapability(LayoutCapability.BULK_LOAD, "a bulk load"));
      assertTrue(bulk.getMessage().contains("the PACKED layout lacks capability BULK_LOAD"), bulk.getMessage());
    }
    IllegalArgumentException migrate = assertThrows(IllegalArgumentException.class, () -> SecureConnection.builder()
        .connection(hbase).keys(SecureFixture.randomKeys()).schema(schema).migratingFrom(schema).build());
    assertTrue(migrate.getMessage().contains("the PACKED layout lacks capability MIGRATION"), migrate.getMessage());
  }

  @Test
  void inspectionReportsEachPackAndTheRowsInIt(Connection hbase) throws Exception {
    TableSchema schema = schema("DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = create(hbase, schema, null); Table t = secure.getTable(name)) {
      for (int i = 0; i < 12; i++) {
        t.put(new Put(toBytes(key(i))).addColumn(F, toBytes("q"), toBytes("secret " + i)));
      }
      List<InspectedCell> row = secure.inspector(name).row(toBytes(key(5)));
      InspectedCell pack = row.get(0);
      assertEquals(InspectedCell.Kind.PACK, pack.kind());
      assertTrue(pack.problem().isEmpty(), pack.problem().orElse(""));
      assertTrue(pack.note().orElseThrow().startsWith("pack of "), pack.note().orElse(""));
      assertTrue(pack.valueKeyId().isPresent(), "a pack's seal names its key");
      assertEquals(pack.rowKeyExpected(), pack.rowKeyId().isPresent(), "a DET pack id names its key (the first pack's"
          + " id, a fixed byte, has none and is expected to have none)");
      List<InspectedCell> inPack = row.stream().filter(c -> c.kind() == InspectedCell.Kind.IN_PACK).toList();
      assertEquals(1, inPack.size());
      assertEquals("secret 5", Bytes.toString(inPack.get(0).value().orElseThrow()));
      assertTrue(secure.inspector(name).row(toBytes("absent")).isEmpty());

      List<List<InspectedCell>> stored = new ArrayList<>();
      secure.inspector(name).forEachRow(stored::add);
      long packs = stored.stream().flatMap(List::stream).filter(c -> c.kind() == InspectedCell.Kind.PACK).count();
      long rawPacks;
      try (Table raw = hbase.getTable(name); ResultScanner s = raw.getScanner(new Scan().addColumn(toBytes("p"),
          toBytes("k")))) {
        rawPacks = java.util.stream.StreamSupport.stream(s.spliterator(), false).count();
      }
      assertEquals(rawPacks, packs, "one unit per stored pack");
      assertTrue(stored.stream().flatMap(List::stream).allMatch(c -> c.problem().isEmpty()), "every pack opens");

      // A pack altered by the server does not open, and is reported, not skipped.
      try (Table raw = hbase.getTable(name)) {
        Result r = raw.get(new Get(pack.storedRow()));
        byte[] altered = r.getValue(toBytes("p"), toBytes("k"));
        altered[altered.length - 1] ^= 1;
        raw.put(new Put(pack.storedRow()).addColumn(toBytes("p"), toBytes("k"), altered));
      }
      InspectedCell broken = secure.inspector(name).row(toBytes(key(5))).get(0);
      assertTrue(broken.problem().orElseThrow().contains("pack"), broken.problem().orElseThrow());
    }
  }

  @Test
  @SuppressWarnings("deprecation") // Table's checkAndMutate builder is deprecated in HBase 2, still part of the API
  void checkAndMutateAndMutateRowAreAtomicOnTheirRow(Connection hbase) throws Exception {
    TableSchema schema = schema("PLAIN");
    try (SecureConnection secure = create(hbase, schema, null);
        Table t = secure.getTable(TableName.valueOf(schema.tableName()))) {
      byte[] row = toBytes("r1");
      byte[] status = toBytes("status");
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, status)
          .build(new Put(row).addColumn(F, status, toBytes("open")))).isSuccess());
      assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, status)
          .build(new Put(row).addColumn(F, status, toBytes("again")))).isSuccess());
      assertFalse(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, status, toBytes("closed"))
          .build(new Put(row).addColumn(F, status, toBytes("x")))).isSuccess());
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, status, toBytes("open"))
          .build(RowMutations.of(List.of(new Put(row).addColumn(F, status, toBytes("closed")),
              new Delete(row).addColumns(G, toBytes("gone")))))).isSuccess());
      assertEquals("closed", Bytes.toString(t.get(new Get(row)).getValue(F, status)));
      // The builder form, and a comparison: "b" < "closed".
      assertTrue(t.checkAndMutate(row, F).qualifier(status).ifMatches(CompareOperator.LESS, toBytes("b"))
          .thenPut(new Put(row).addColumn(G, toBytes("n"), toBytes("1"))));
      assertEquals("1", Bytes.toString(t.get(new Get(row)).getValue(G, toBytes("n"))));
      // A filter condition, evaluated on the row inside its pack.
      assertTrue(t.checkAndMutate(CheckAndMutate.newBuilder(row)
          .ifMatches(new SingleColumnValueFilter(F, status, CompareOperator.EQUAL, toBytes("closed")))
          .build(new Delete(row).addFamily(G))).isSuccess());
      assertTrue(t.get(new Get(row).addFamily(G)).isEmpty());
      t.mutateRow(RowMutations.of(List.of(new Put(row).addColumn(G, toBytes("a"), toBytes("1")),
          new Delete(row).addColumns(F, status))));
      assertEquals(Map.of("g:a", "1"), asMap(t.get(new Get(row))));
    }
  }

  @Test
  void alteredAndSwappedPacksAreRefusedAndUnsupportedCallsNamed(Connection hbase) throws Exception {
    TableSchema schema = schema("DET");
    TableName name = TableName.valueOf(schema.tableName());
    try (SecureConnection secure = create(hbase, schema, null); Table t = secure.getTable(name)) {
      for (int i = 0; i < 20; i++) {
        t.put(new Put(toBytes(key(i))).addColumn(F, toBytes("q"), toBytes("secret " + i)));
      }
      List<Result> stored = new ArrayList<>();
      try (Table raw = hbase.getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
        s.forEach(stored::add);
      }
      assertTrue(stored.size() >= 3, "20 rows in packs of at most 6: " + stored.size());
      try (Table raw = hbase.getTable(name)) {
        // Pack 2's bytes under pack 1's id: bound to its own id, it does not open there.
        Result second = stored.get(1);
        Result third = stored.get(2);
        raw.put(new Put(second.getRow()).addColumn(PackedLayout.FAMILY, PackedLayout.PACK, third.value()));
        CellDecodingException swapped = assertThrows(CellDecodingException.class, () -> drain(t));
        assertTrue(swapped.getMessage().contains("table " + name.getNameAsString()), swapped.getMessage());
        assertTrue(swapped.getMessage().contains("moved from another pack id or table"), swapped.getMessage());
        byte[] altered = second.value().clone();
        altered[altered.length / 2] ^= 1;
        raw.put(new Put(second.getRow()).addColumn(PackedLayout.FAMILY, PackedLayout.PACK, altered));
        assertThrows(CellDecodingException.class, () -> drain(t));
        int refused = 0;
        for (int i = 0; i < 20; i++) {
          try {
            assertEquals("secret " + i, Bytes.toString(t.get(new Get(toBytes(key(i)))).getValue(F, toBytes("q"))));
          } catch (CellDecodingException e) {
            refused++; // a row of the altered pack
          }
        }
        assertTrue(refused >= 1 && refused < 20, refused + " gets refused");
        raw.put(new Put(second.getRow()).addColumn(PackedLayout.FAMILY, PackedLayout.PACK, second.value()));
      }
      assertEquals(20, scanKeys(t, new Scan(), new TreeMap<>()).size());
      assertRefused(() -> t.get(new Get(toBytes(key(1))).readVersions(3)), "readVersions(3) on a PACKED table");
      assertRefused(() -> t.put(new Put(toBytes(key(1)), 5L).addColumn(F, toBytes("q"), toBytes("x"))),
          "explicit timestamp");
      assertRefused(() -> t.getScanner(new Scan().withStartRow(toBytes(key(1)))), "row ranges need row keys");
      assertRefused(() -> t.append(new Append(toBytes(key(1))).addColumn(F, toBytes("q"), toBytes("x"))),
          "append on a PACKED table");
      assertRefused(() -> t.getScanner(new Scan().setFilter(new SingleColumnValueFilter(F, toBytes("q"),
          CompareOperator.EQUAL, toBytes("secret 1")))), "SecureScans.allowClientSideEvaluation");
      List<String> found = scanKeys(t, SecureScans.allowClientSideEvaluation(new Scan().setFilter(
          new SingleColumnValueFilter(F, toBytes("q"), CompareOperator.EQUAL, toBytes("secret 7")))), new TreeMap<>());
      assertEquals(List.of(key(7)), found);
      assertRefused(() -> t.delete(new Delete(toBytes(key(1))).addColumn(F, toBytes("q"))), "delete of one version");
      assertRefused(() -> t.put(new Put(toBytes(key(1))).addColumn(toBytes("nope"), toBytes("q"), toBytes("x"))),
          "family nope: the family is not in the table's schema");
    }
  }

  private static void drain(Table t) throws IOException {
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r = s.next(); r != null; r = s.next()) {
        assertFalse(r.isEmpty());
      }
    }
  }

  static void assertRefused(org.junit.jupiter.api.function.Executable call, String expected) {
    UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class, call);
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void sixteenWritersOnSharedPacksLoseNoUpdate(Connection hbase) throws Exception {
    TableSchema schema = schema("PLAIN");
    TableName name = TableName.valueOf(schema.tableName());
    int writers = 16;
    int keysEach = 12;
    int rounds = 4;
    try (SecureConnection secure = create(hbase, schema, null)) {
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          try (Table t = secure.getTable(name)) {
            for (int round = 1; round <= rounds; round++) {
              for (int i = 0; i < keysEach; i++) {
                // Keys of all writers interleave, so every pack is written by several of them.
                t.put(new Put(toBytes(key(i * writers + writer))).addColumn(F, toBytes("round"),
                    toBytes(Integer.toString(round))));
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      try (Table t = secure.getTable(name)) {
        Map<String, TreeMap<String, String>> seen = new TreeMap<>();
        List<String> keys = scanKeys(t, new Scan(), seen);
        assertEquals(writers * keysEach, keys.size());
        for (TreeMap<String, String> row : seen.values()) {
          assertEquals(Map.of("f:round", Integer.toString(rounds)), row);
        }
        NavigableMap<String, TreeMap<String, String>> sorted = new TreeMap<>(seen);
        assertEquals(new ArrayList<>(sorted.keySet()), keys);
      }
      int packs = 0;
      try (Table raw = hbase.getTable(name); ResultScanner s = raw.getScanner(new Scan())) {
        for (Result r : s) {
          packs++;
        }
      }
      assertTrue(packs >= writers * keysEach / 6, packs + " packs for " + writers * keysEach + " rows of at most 6");
    }
  }

  @Test
  void packedTablesAreCreatedWithTheirFirstPack(Connection hbase) throws Exception {
    TableSchema schema = schema("OPE");
    try (SecureConnection secure = create(hbase, schema, null);
        Table t = secure.getTable(TableName.valueOf(schema.tableName()))) {
      assertTrue(t.get(new Get(toBytes("absent"))).isEmpty());
      assertEquals(List.of(), scanKeys(t, new Scan(), new TreeMap<>()));
      try (Table raw = hbase.getTable(TableName.valueOf(schema.tableName())); ResultScanner s = raw.getScanner(new Scan())) {
        Result first = s.next();
        assertArrayEquals(PackedLayout.FIRST_PACK, first.getRow());
      }
      try (SecureTable st = secure.getSecureTable(TableName.valueOf(schema.tableName()))) {
        assertTrue(st.explain(new Scan()).contains("PACKED GENERIC"), st.explain(new Scan()));
      }
    }
  }

  private static long storedPackBytes(Connection hbase, TableName name) throws IOException {
    long bytes = 0;
    try (Table raw = hbase.getTable(name);
        ResultScanner s = raw.getScanner(new Scan().addColumn(PackedLayout.FAMILY, PackedLayout.PACK))) {
      for (Result r : s) {
        bytes += r.value().length;
      }
    }
    return bytes;
  }

  private static void putRecords(Table t, int from, int to, String note) throws IOException {
    String[] cities = {"Lisboa", "Porto", "Braga", "Coimbra", "Faro"};
    for (int i = from; i < to; i++) {
      t.put(new Put(toBytes(key(i))).addColumn(F, toBytes("city"), toBytes(cities[i % cities.length]))
          .addColumn(F, toBytes("notes"), toBytes(note + ": seen " + (i % 7) + " times, follow-up in " + (i % 12)
              + " months, allergic to " + (i % 3 == 0 ? "penicillin" : "nothing known")))
          .addColumn(G, toBytes("status"), toBytes(i % 2 == 0 ? "active patient record" : "archived patient record")));
    }
  }

  @Test
  void trainedDictionariesShrinkNewPacksAndEveryVersionStaysReadable(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("packeddict", SCHEMA.replace("ROWBOX", "PLAIN")
        .replace("compression: ZSTD }", "compression: ZSTD, dictionary: true }"));
    TableName name = TableName.valueOf(schema.tableName());
    KeyProvider keys = SecureFixture.randomKeys();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name)) {
        putRecords(t, 0, 300, "first");
      }
      long before = storedPackBytes(hbase, name);
      assertEquals(1, PackedTables.of(secure).trainDictionary(name, 300));
      try (Table t = secure.getTable(name)) {
        putRecords(t, 0, 300, "second"); // every pack re-sealed with dictionary 1
      }
      long with = storedPackBytes(hbase, name);
      assertTrue(with < before * 0.8, "packs of 4-6 rows: " + before + " bytes without a dictionary, " + with
          + " with");
      assertEquals(2, PackedTables.of(secure).trainDictionary(name, 300));
      try (Table t = secure.getTable(name)) {
        putRecords(t, 0, 100, "third"); // these packs name version 2, the others still 1
        Map<String, TreeMap<String, String>> seen = new TreeMap<>();
        assertEquals(300, scanKeys(t, new Scan(), seen).size());
        assertTrue(seen.get(key(50)).get("f:notes").startsWith("third"));
        assertTrue(seen.get(key(250)).get("f:notes").startsWith("second"));
      }
      // A client that never saw the dictionaries loads each version a pack names.
      try (SecureConnection fresh = SecureConnection.wrap(hbase, keys, List.of(schema)); Table t = fresh.getTable(name)) {
        assertEquals(300, scanKeys(t, new Scan(), new TreeMap<>()).size());
      }
      // Dictionaries hold the samples' common text: stored, they show none of it.
      try (Table raw = hbase.getTable(name)) {
        Result d = raw.get(new Get(PackedLayout.FIRST_PACK).addFamily(PackDictionaryStore.FAMILY));
        assertEquals(3, d.size(), "versions 1 and 2, and the current one");
        for (Cell c : d.rawCells()) {
          String stored = Bytes.toStringBinary(CellUtil.cloneValue(c));
          assertFalse(stored.contains("allergic") || stored.contains("follow-up") || stored.contains("Lisboa"),
              "dictionary text in the clear");
        }
      }
      // An altered dictionary is refused by name, never used to decompress garbage.
      try (Table raw = hbase.getTable(name)) {
        byte[] sealed = raw.get(new Get(PackedLayout.FIRST_PACK)).getValue(PackDictionaryStore.FAMILY, Bytes.toBytes(1));
        sealed[sealed.length / 2] ^= 1;
        raw.put(new Put(PackedLayout.FIRST_PACK).addColumn(PackDictionaryStore.FAMILY, Bytes.toBytes(1), sealed));
      }
      try (SecureConnection fresh = SecureConnection.wrap(hbase, keys, List.of(schema)); Table t = fresh.getTable(name)) {
        CellDecodingException e = assertThrows(CellDecodingException.class, () -> t.get(new Get(toBytes(key(250)))));
        assertTrue(e.getMessage().contains("dictionary version 1 does not decrypt"), e.getMessage());
      }
    }
    TableSchema without = schema("PLAIN");
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(without))) {
      secure.createTable(without);
      assertRefused(() -> PackedTables.of(secure).trainDictionary(TableName.valueOf(without.tableName()), 10),
          "its schema says dictionary: false");
    }
  }

  /** The packs of a PLAIN-keyed table as stored: pack id to rows, read with the table's own keys. */
  private static TreeMap<String, PackRows> rawPacks(Connection hbase, TableSchema schema, PackCodec packs)
      throws IOException {
    TreeMap<String, PackRows> out = new TreeMap<>();
    try (Table raw = hbase.getTable(TableName.valueOf(schema.tableName()));
        ResultScanner s = raw.getScanner(new Scan())) {
      for (Result r : s) {
        out.put(Bytes.toStringBinary(r.getRow()), packs.open(r.getRow(), r.value()));
      }
    }
    return out;
  }

  /** Tables of earlier versions hold packs sealed with AES-GCM under the "pack" key: they still open. */
  @Test
  void packsSealedWithAesGcmByEarlierVersionsStillOpen(Connection hbase) throws Exception {
    TableSchema schema = schema("PLAIN");
    TableName name = TableName.valueOf(schema.tableName());
    KeyProvider keys = SecureFixture.randomKeys();
    TableCodec codec = new TableCodec(schema, keys);
    PackCodec now = PackCodec.builder(schema.tableName(), PackedLayout.packBox(codec)).build();
    PackCodec before = PackCodec.builder(schema.tableName(),
        codec.layoutBox(KeyScope.layout(schema.tableName(), "pack", BoxKind.STD))).build();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name); Table raw = hbase.getTable(name)) {
        for (int i = 0; i < 20; i++) {
          t.put(new Put(toBytes(key(i))).addColumn(F, toBytes("q"), toBytes("v" + i)));
        }
        Map<String, PackRows> packs = rawPacks(hbase, schema, now);
        assertTrue(packs.size() > 1, packs.keySet().toString());
        for (Map.Entry<String, PackRows> p : packs.entrySet()) {
          byte[] id = Bytes.toBytesBinary(p.getKey());
          raw.put(new Put(id).addColumn(PackedLayout.FAMILY, PackedLayout.PACK, before.seal(id, p.getValue(), null)));
        }
        assertEquals(packs, rawPacks(hbase, schema, before), "every pack now in the earlier form");
        for (int i = 0; i < 20; i++) {
          assertEquals("v" + i, Bytes.toString(t.get(new Get(toBytes(key(i)))).getValue(F, toBytes("q"))));
        }
        t.put(new Put(toBytes(key(0))).addColumn(F, toBytes("q"), toBytes("again")));
        assertEquals("again", Bytes.toString(t.get(new Get(toBytes(key(0)))).getValue(F, toBytes("q"))));
        // The rewritten pack is sealed in the new form, which AES-GCM alone does not open.
        assertThrows(PackDecodingException.class, () -> rawPacks(hbase, schema, before));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aSplitLeftHalfDoneReadsRightAndTheNextWriterFinishesIt(boolean rightPackWritten, Connection hbase)
      throws Exception {
    TableSchema schema = schema("PLAIN");
    TableName name = TableName.valueOf(schema.tableName());
    KeyProvider keys = SecureFixture.randomKeys();
    PackCodec packs = PackCodec.builder(schema.tableName(), PackedLayout.packBox(new TableCodec(schema, keys))).build();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
      secure.createTable(schema);
      try (Table t = secure.getTable(name); Table raw = hbase.getTable(name)) {
        for (int i = 0; i < 5; i++) {
          t.put(new Put(toBytes(key(i))).addColumn(F, toBytes("q"), toBytes("v" + i)));
        }
        assertEquals(1, rawPacks(hbase, schema, packs).size(), "5 rows fit one pack (split above 6)");
        // A client killed during a split: it marked the pack (step 1), and maybe created the right pack (step 2).
        Result first = raw.get(new Get(PackedLayout.FIRST_PACK));
        PackRows rows = packs.open(first.getRow(), first.value());
        byte[] at = toBytes(key(3));
        rows.markSplit(at);
        raw.put(new Put(first.getRow()).addColumn(PackedLayout.FAMILY, PackedLayout.PACK,
            packs.seal(first.getRow(), rows, null)));
        if (rightPackWritten) {
          PackRows right = rows.filter(k -> !StoredPack.below(k, at));
          raw.put(new Put(at).addColumn(PackedLayout.FAMILY, PackedLayout.PACK, packs.seal(at, right, null)));
        }
        // Readers see every row once, whichever step the splitter died after.
        assertEquals(List.of(key(0), key(1), key(2), key(3), key(4)), scanKeys(t, new Scan(), new TreeMap<>()));
        assertEquals(List.of(key(4), key(3), key(2), key(1), key(0)),
            scanKeys(t, new Scan().setReversed(true), new TreeMap<>()));
        for (int i = 0; i < 5; i++) {
          assertEquals("v" + i, Bytes.toString(t.get(new Get(toBytes(key(i)))).getValue(F, toBytes("q"))));
        }
        // The next writer of the pack finishes the split before its own change.
        t.put(new Put(toBytes(key(1))).addColumn(F, toBytes("q"), toBytes("changed")));
        TreeMap<String, PackRows> after = rawPacks(hbase, schema, packs);
        assertEquals(2, after.size(), after.keySet().toString());
        PackRows left = after.firstEntry().getValue();
        assertEquals(null, left.pendingSplit());
        assertEquals(3, left.size());
        assertEquals(2, after.get(key(3)).size());
        assertEquals(List.of(key(0), key(1), key(2), key(3), key(4)), scanKeys(t, new Scan(), new TreeMap<>()));
        assertEquals("changed", Bytes.toString(t.get(new Get(toBytes(key(1)))).getValue(F, toBytes("q"))));
      }
    }
  }

  @Test
  @FaultInjection
  void aClientKilledWhileWritingAndSplittingLosesNoAcknowledgedRow(Connection hbase, Configuration conf)
      throws Exception {
    TableSchema schema = SecureFixture.schema("packedkill", SCHEMA.replace("ROWBOX", "DET")
        .replace("rowsPerPack: 4", "rowsPerPack: 2"));
    byte[] master = new byte[32];
    new SecureRandom().nextBytes(master);
    KeyProvider keys = KeyProvider.fromMasterKey(master);
    TableCodec codec = new TableCodec(schema, keys);
    PackCodec packs = PackCodec.builder(schema.tableName(), PackedLayout.packBox(codec)).build();
    try (SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema))) {
      secure.createTable(schema);
      // The writer stops inside a split after 12 batches (its pack marked, the right pack not yet made) and is killed.
      Process child = SecureFixture.childClient(PackWriter.class, conf, schema, master).start();
      int batches = 0;
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        // Bounded: with 2 rows per pack, a split comes within a few puts of being armed.
        while ((line = out.readLine()) != null && !line.equals(PackWriter.SPLITTING)
            && batches <= PackWriter.ARMED_AFTER + 20) {
          batches += line.startsWith("batch ") ? 1 : 0;
        }
        assertEquals(PackWriter.SPLITTING, line, "the writer did not stop in a split (" + batches + " batches)");
      } finally {
        child.destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
      }
      assertEquals(PackWriter.ARMED_AFTER, batches, "the writer wrote its batches before it was killed");
      List<PackRows> marked = rawPacks(hbase, schema, packs).values().stream()
          .filter(p -> p.pendingSplit() != null).toList();
      assertEquals(1, marked.size(), "the kill left one split half done");

      try (Table t = secure.getTable(TableName.valueOf(schema.tableName()))) {
        Map<String, String> written = new TreeMap<>();
        for (int b = 0; b < batches; b++) {
          for (int i = 0; i < PackWriter.BATCH; i++) {
            written.put("b" + b + "-" + i, "payload of b" + b + "-" + i);
          }
        }
        assertEveryRowOnce(t, written);
        // The next write to the marked pack finishes its split, and then no split is left half done.
        byte[] inMarked = codec.decodeRow(marked.get(0).keys().first());
        t.put(new Put(inMarked).addColumn(F, toBytes("v"), toBytes("rewritten")));
        written.put(Bytes.toString(inMarked), "rewritten");
        assertTrue(rawPacks(hbase, schema, packs).values().stream().allMatch(p -> p.pendingSplit() == null),
            "a split still half done after a write to its pack");
        for (int round = 0; round < 2; round++) {
          for (int i = 0; i < 30; i++) {
            String id = "after-" + round + "-" + i;
            t.put(new Put(toBytes(id)).addColumn(F, toBytes("v"), toBytes("x" + id)));
            written.put(id, "x" + id);
          }
          assertEveryRowOnce(t, written);
        }
      }
    }
  }

  /** A scan returns each row of {@code written} (row to f:v) once, and gets return its value. */
  private static void assertEveryRowOnce(Table t, Map<String, String> written) throws IOException {
    List<String> keysSeen = scanKeys(t, new Scan(), new TreeMap<>());
    assertEquals(new java.util.HashSet<>(keysSeen).size(), keysSeen.size(), "every row once");
    for (Map.Entry<String, String> row : written.entrySet()) {
      assertTrue(keysSeen.contains(row.getKey()), "acknowledged row " + row.getKey() + " lost");
      assertEquals(row.getValue(), Bytes.toString(t.get(new Get(toBytes(row.getKey()))).getValue(F, toBytes("v"))),
          row.getKey());
    }
  }

  /**
   * The child process: single-row puts into a packed table with 2 rows per pack; after {@link
   * #ARMED_AFTER} batches, the next split prints {@link #SPLITTING} and waits there to be killed.
   */
  public static final class PackWriter {
    static final int BATCH = 10;
    static final int ARMED_AFTER = 12;
    static final String SPLITTING = "splitting";

    public static void main(String[] args) throws Exception {
      try (SecureFixture.ChildClient child = SecureFixture.childClient(args, SecureTableOptions.defaults());
          Table t = child.secure().getTable(child.table())) {
        for (int b = 0; ; b++) {
          if (b == ARMED_AFTER) {
            PackedLayout.afterSplitMarked(() -> {
              System.out.println(SPLITTING);
              System.out.flush();
              try {
                new java.util.concurrent.CountDownLatch(1).await(); // until killed
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
          }
          for (int i = 0; i < BATCH; i++) {
            String id = "b" + b + "-" + i;
            t.put(new Put(toBytes(id)).addColumn(F, toBytes("v"), toBytes("payload of " + id)));
          }
          System.out.println("batch " + b);
          System.out.flush();
        }
      }
    }
  }
}
