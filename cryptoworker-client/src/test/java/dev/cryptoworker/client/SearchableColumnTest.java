package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.BoxRegistry;
import dev.cryptoworker.client.codec.SearchIndexes;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.region.RegionRequests;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import dev.cryptoworker.testing.TestSize;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SSE columns on real region servers: equality searches through the encrypted index, on a table
 * pre-split into four regions, against a plaintext oracle, through puts, updates and deletes.
 */
@ExtendWith(SharedHBaseCluster.class)
@Order(3) // long classes start first, beside the others
class SearchableColumnTest {
  static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD, type: string }\n"
          + "    columns:\n"
          + "      tag:    { box: SSE, type: string }\n"
          + "      code:   { box: SSE, type: long }\n"
          + "      kind:   { box: DET, type: string }\n"
          + "      amount: { box: ASHE, type: long }\n";
  static final byte[] F = toBytes("f");
  static final byte[] TAG = toBytes("tag");
  static final byte[] CODE = toBytes("code");
  static final byte[] KIND = toBytes("kind");
  static final byte[] AMOUNT = toBytes("amount");
  /** Stored DET row keys start with the 0x01 header, then pseudorandom bytes: split on the sixth byte. */
  static final byte[][] SPLITS = {
      {1, 0, 0, 0, 0, 0x40}, {1, 0, 0, 0, 0, (byte) 0x80}, {1, 0, 0, 0, 0, (byte) 0xc0}};

  /** The plaintext oracle's row. */
  record Row(String key, String tag, Long code, String kind, long amount) {}

  private static SingleColumnValueFilter eq(byte[] qualifier, byte[] value) {
    SingleColumnValueFilter f = new SingleColumnValueFilter(F, qualifier, CompareOperator.EQUAL, new BinaryComparator(value));
    f.setFilterIfMissing(true);
    return f;
  }

  static SingleColumnValueFilter tagIs(String v) {
    return eq(TAG, toBytes(v));
  }

  private static Put put(Row r) {
    Put p = new Put(toBytes(r.key())).addColumn(F, KIND, toBytes(r.kind())).addColumn(F, AMOUNT, toBytes(r.amount()))
        .addColumn(F, toBytes("note"), toBytes("note of " + r.key()));
    if (r.tag() != null) {
      p.addColumn(F, TAG, toBytes(r.tag()));
    }
    if (r.code() != null) {
      p.addColumn(F, CODE, toBytes(r.code()));
    }
    return p;
  }

  /** Tags with multiplicities from 1 to about a third of the rows. */
  private static String randomTag(Random random) {
    int x = random.nextInt(100);
    return x < 30 ? "common" : x < 60 ? "mid-" + random.nextInt(5) : "rare-" + random.nextInt(200);
  }

  private static Row randomRow(Random random, String key) {
    return new Row(key, random.nextInt(10) == 0 ? null : randomTag(random), (long) random.nextInt(20),
        random.nextBoolean() ? "a" : "b", random.nextInt(1000));
  }

  /** A table over four regions, and the order its rows are stored in (DET row keys). */
  static final class Fixture {
    final SecureConnection secure;
    final SecureTable table;
    final TableSchema schema;
    final TableCodec codec;
    final KeyProvider keys;

    Fixture(Connection hbase, String prefix) throws IOException {
      this(hbase, prefix, "");
    }

    /** With {@code formatLine} ({@code storedFormat: N}, or empty for the latest) in the schema. */
    Fixture(Connection hbase, String prefix, String formatLine) throws IOException {
      keys = SecureFixture.randomKeys();
      schema = SecureFixture.schema(prefix, SCHEMA.replace("families:", formatLine + "families:"));
      secure = SecureConnection.wrap(hbase, keys, List.of(schema));
      SecureFixture.create(secure, schema, 1, SPLITS);
      table = secure.getSecureTable(SecureFixture.name(schema));
      codec = new TableCodec(schema, keys, BoxRegistry.standard(), scope -> () -> {
        throw new IOException("this codec does not write");
      }, SearchIndexes.open(hbase), Map.of());
    }

    /** What one of {@link #writeConcurrently}'s writers does with its own table. */
    interface Writer {
      void write(int writer, SecureTable table) throws Exception;
    }

    /**
     * Runs {@code writers} writers at once, each on its own thread through its own connection (so
     * its own search counters, as another process would have), and waits for all.
     */
    void writeConcurrently(int writers, Writer body) throws Exception {
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          int writer = w;
          done.add(pool.submit(() -> {
            try (SecureConnection own = SecureConnection.wrap(secure.unwrap(), keys, List.of(schema))) {
              body.write(writer, own.getSecureTable(table.getName()));
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
    }

    /** The oracle's answer, in stored order (what a full scan returns). */
    List<String> expected(Map<String, Row> rows, Predicate<Row> where) throws IOException {
      List<String> keys = new ArrayList<>();
      for (Row r : rows.values()) {
        if (where.test(r)) {
          keys.add(r.key());
        }
      }
      List<byte[]> stored = new ArrayList<>();
      Map<ByteBuffer, String> plain = new LinkedHashMap<>();
      for (String k : keys) {
        byte[] s = codec.encodeRow(toBytes(k));
        stored.add(s);
        plain.put(ByteBuffer.wrap(s), k);
      }
      stored.sort(Bytes.BYTES_COMPARATOR);
      List<String> out = new ArrayList<>();
      for (byte[] s : stored) {
        out.add(plain.get(ByteBuffer.wrap(s)));
      }
      return out;
    }

    List<String> search(Filter filter) throws IOException {
      List<String> out = new ArrayList<>();
      for (Result r : SecureFixture.scanAll(table, new Scan().setFilter(filter))) {
        out.add(Bytes.toString(r.getRow()));
      }
      return out;
    }
  }

  @Test
  void randomSearchesMatchThePlaintextOracleThroughPutsUpdatesAndDeletes(Connection hbase) throws IOException {
    Fixture fx = new Fixture(hbase, "sse_oracle");
    Random random = new Random(11);
    Map<String, Row> rows = new LinkedHashMap<>();
    List<Put> load = new ArrayList<>();
    int loaded = TestSize.scaled(1200);
    for (int i = 0; i < loaded; i++) {
      Row r = randomRow(random, "p" + i);
      rows.put(r.key(), r);
      load.add(put(r));
    }
    fx.table.put(load);
    int next = loaded;
    int searches = 0;
    int rounds = TestSize.scaled(24); // 600 writes and 600 searches, 120 of each kind
    for (int round = 0; round < rounds; round++) {
      // Writes: new rows, tag updates, row deletes, deletes of the tag column alone.
      for (int w = 0; w < 25; w++) {
        List<String> keys = new ArrayList<>(rows.keySet());
        String victim = keys.get(random.nextInt(keys.size()));
        switch (random.nextInt(4)) {
          case 0 -> {
            Row r = randomRow(random, "p" + next++);
            rows.put(r.key(), r);
            fx.table.put(put(r));
          }
          case 1 -> {
            Row old = rows.get(victim);
            Row r = new Row(victim, randomTag(random), old.code(), old.kind(), old.amount());
            rows.put(victim, r);
            fx.table.put(new Put(toBytes(victim)).addColumn(F, TAG, toBytes(r.tag())));
          }
          case 2 -> {
            rows.remove(victim);
            fx.table.delete(new Delete(toBytes(victim)));
          }
          default -> {
            Row old = rows.get(victim);
            rows.put(victim, new Row(victim, null, old.code(), old.kind(), old.amount()));
            fx.table.delete(new Delete(toBytes(victim)).addColumns(F, TAG));
          }
        }
      }
      // Searches: single values of every multiplicity, absent values, OR, AND with DET and with SSE.
      for (int s = 0; s < 25; s++, searches++) {
        String tag = random.nextInt(8) == 0 ? "absent-" + s : randomTag(random);
        String other = randomTag(random);
        long code = random.nextInt(20);
        switch (s % 5) {
          case 0, 1 -> assertEquals(fx.expected(rows, r -> tag.equals(r.tag())), fx.search(tagIs(tag)), "tag = " + tag);
          case 2 -> assertEquals(fx.expected(rows, r -> tag.equals(r.tag()) || other.equals(r.tag())),
              fx.search(new FilterList(FilterList.Operator.MUST_PASS_ONE, tagIs(tag), tagIs(other))),
              "tag = " + tag + " or " + other);
          case 3 -> assertEquals(fx.expected(rows, r -> tag.equals(r.tag()) && "a".equals(r.kind())),
              fx.search(new FilterList(tagIs(tag), eq(KIND, toBytes("a")))), "tag = " + tag + " and kind = a");
          default -> assertEquals(fx.expected(rows, r -> tag.equals(r.tag()) && r.code() == code),
              fx.search(new FilterList(tagIs(tag), eq(CODE, toBytes(code)))), "tag = " + tag + " and code = " + code);
        }
      }
    }
    assertEquals(rounds * 25, searches);
    // Every row reads back whole, with its current values.
    for (String k : List.of("p1", "p" + loaded / 2, "p" + (loaded - 1))) {
      Row r = rows.get(k);
      if (r != null) {
        Result got = fx.table.get(new org.apache.hadoop.hbase.client.Get(toBytes(k)));
        assertEquals(r.tag(), got.getValue(F, TAG) == null ? null : Bytes.toString(got.getValue(F, TAG)));
        assertEquals(4 + (r.tag() == null ? 0 : 1), got.rawCells().length, "no index cell reaches the caller");
      }
    }
  }

  @Test
  void searchResultsCarryTheRequestedColumnsAndAggregatesUseTheIndex(Connection hbase) throws IOException {
    Fixture fx = new Fixture(hbase, "sse_columns");
    Random random = new Random(5);
    Map<String, Row> rows = new LinkedHashMap<>();
    List<Put> load = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Row r = randomRow(random, "c" + i);
      rows.put(r.key(), r);
      load.add(put(r));
    }
    fx.table.put(load);
    List<Result> only = SecureFixture.scanAll(fx.table, new Scan().addColumn(F, KIND).setFilter(tagIs("common")));
    assertEquals(fx.expected(rows, r -> "common".equals(r.tag())).size(), only.size());
    for (Result r : only) {
      assertEquals(1, r.rawCells().length, "only the requested column");
      assertEquals(rows.get(Bytes.toString(r.getRow())).kind(), Bytes.toString(r.getValue(F, KIND)));
    }
    List<Result> limited = SecureFixture.scanAll(fx.table, new Scan().setLimit(7).setFilter(tagIs("common")));
    assertEquals(fx.expected(rows, r -> "common".equals(r.tag())).subList(0, 7),
        limited.stream().map(r -> Bytes.toString(r.getRow())).toList());

    long sum = 0;
    long count = 0;
    for (Row r : rows.values()) {
      if ("common".equals(r.tag()) && "b".equals(r.kind())) {
        sum += r.amount();
        count++;
      }
    }
    assertEquals(new AggregateResult(sum, count),
        fx.table.aggregate(new Scan().setFilter(new FilterList(tagIs("common"), eq(KIND, toBytes("b")))), F, AMOUNT));
    Map<String, Long> byKind = new java.util.TreeMap<>();
    for (Row r : rows.values()) {
      if ("mid-1".equals(r.tag())) {
        byKind.merge(r.kind(), r.amount(), Long::sum);
      }
    }
    Map<String, Long> got = new java.util.TreeMap<>();
    fx.table.aggregateBy(new Scan().setFilter(tagIs("mid-1")), F, AMOUNT, F, KIND)
        .forEach((k, v) -> got.put(Bytes.toString(k), v.sum()));
    assertEquals(byKind, got);
  }

  @Test
  void refusesWhatTheIndexCannotAnswer(Connection hbase) throws IOException {
    Fixture fx = new Fixture(hbase, "sse_refusals");
    fx.table.put(put(new Row("x", "common", 1L, "a", 1)));
    SingleColumnValueFilter notEqual =
        new SingleColumnValueFilter(F, TAG, CompareOperator.NOT_EQUAL, new BinaryComparator(toBytes("common")));
    UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
        () -> fx.search(notEqual));
    assertTrue(e.getMessage().contains("f:tag (SSE)") && e.getMessage().contains("NOT_EQUAL"), e.getMessage());
    SingleColumnValueFilter range =
        new SingleColumnValueFilter(F, CODE, CompareOperator.LESS, new BinaryComparator(toBytes(5L)));
    assertThrows(UnsupportedSecureOperationException.class, () -> fx.search(range));
    SingleColumnValueFilter missingPasses =
        new SingleColumnValueFilter(F, TAG, CompareOperator.EQUAL, new BinaryComparator(toBytes("common")));
    e = assertThrows(UnsupportedSecureOperationException.class, () -> fx.search(missingPasses));
    assertTrue(e.getMessage().contains("setFilterIfMissing(true)"), e.getMessage());
    e = assertThrows(UnsupportedSecureOperationException.class,
        () -> fx.search(new FilterList(FilterList.Operator.MUST_PASS_ONE, tagIs("common"), eq(KIND, toBytes("a")))));
    assertTrue(e.getMessage().contains("nested elsewhere"), e.getMessage());
    e = assertThrows(UnsupportedSecureOperationException.class,
        () -> SecureFixture.scanAll(fx.table, new Scan().setReversed(true).setFilter(tagIs("common"))));
    assertTrue(e.getMessage().contains("reversed"), e.getMessage());
    // With the caller's opt-in, what the index cannot answer runs on the client.
    assertEquals(List.of(), SecureFixture.scanAll(fx.table,
        SecureScans.allowClientSideEvaluation(new Scan().setFilter(notEqual))));
  }

  @Test
  void rawStorageHoldsNoPlaintextAndNoRepeatedCiphertextOrEntry(Connection hbase) throws IOException {
    Fixture fx = new Fixture(hbase, "sse_raw");
    List<Put> load = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      load.add(put(new Row("r" + i, i % 3 == 0 ? "diabetes" : "asthma", 42L, "a", i)));
    }
    fx.table.put(load);
    Set<ByteBuffer> values = new HashSet<>();
    Set<ByteBuffer> entries = new HashSet<>();
    int indexCells = 0;
    try (Table raw = hbase.getTable(SecureFixture.name(fx.schema))) {
      for (Result r : SecureFixture.scanAll(raw, new Scan())) {
        for (Cell c : r.rawCells()) {
          byte[] v = CellUtil.cloneValue(c);
          for (String needle : List.of("diabetes", "asthma")) {
            assertEquals(-1, Bytes.indexOf(v, toBytes(needle)), "plaintext in a stored value");
          }
          byte[] q = CellUtil.cloneQualifier(c);
          if (SearchIndexCells.isIndexQualifier(q)) {
            indexCells++;
            assertTrue(entries.add(ByteBuffer.wrap(v)), "two index cells hold the same entry");
          } else if (Bytes.equals(q, TAG) || Bytes.equals(q, CODE)) {
            assertTrue(values.add(ByteBuffer.wrap(v)), "two SSE values stored alike");
            assertFalse(Bytes.equals(v, toBytes(42L)));
          }
        }
      }
    }
    assertEquals(600, indexCells, "one index cell per SSE value");
    assertEquals(600, values.size());
  }

  @Test
  void entriesWrittenAfterASearchAreOutOfReachOfItsTokens(Connection hbase) throws IOException {
    Fixture fx = new Fixture(hbase, "sse_forward");
    List<Put> before = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      before.add(put(new Row("old" + i, "flu", 1L, "a", 1)));
    }
    fx.table.put(before);
    // What a region server sees of a search: the scan with its request, which it could keep and replay.
    byte[] request = RegionRequests.encode(fx.codec.searchIndex().orElseThrow().plan(fx.codec, tagIs("flu")).orElseThrow().request());
    List<Put> after = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      after.add(put(new Row("new" + i, "flu", 1L, "a", 1)));
    }
    fx.table.put(after);

    Scan replay = new Scan();
    replay.setAttribute(RegionRequests.SEARCH_ATTRIBUTE, request);
    Set<ByteBuffer> reached = new HashSet<>();
    try (Table raw = hbase.getTable(SecureFixture.name(fx.schema))) {
      for (Result r : SecureFixture.scanAll(raw, replay)) {
        reached.add(ByteBuffer.wrap(r.getRow()));
      }
    }
    Set<ByteBuffer> oldRows = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      oldRows.add(ByteBuffer.wrap(fx.codec.encodeRow(toBytes("old" + i))));
    }
    assertEquals(oldRows, reached, "the replayed tokens reach exactly the entries that existed when they were made");
    assertEquals(100, fx.search(tagIs("flu")).size(), "a new search reaches all");
  }

  /**
   * Index entries are keyed by the leaves of the counter tree of the table's stored format: tables
   * of format 2 (and 1) keep the binary tree they were written with, so they still search, and
   * formats 3 to 5 use the wide one (format 5 with entry 0 keyed apart, and values under XAES).
   * Format 6 keys them by the same tree in writer lanes ({@link WriterLanesTest}).
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 5})
  void indexEntriesAreKeyedByTheCounterTreeOfTheTablesFormat(int format, Connection hbase) throws IOException {
    Fixture fx = new Fixture(hbase, "sse_format" + format, "storedFormat: " + format + "\n");
    List<Put> rows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      rows.add(put(new Row("r" + i, "flu", 1L, "a", 1)));
    }
    fx.table.put(rows);
    ValueIndex flu = fx.codec.writeIndex(F, TAG, toBytes("flu"));
    assertEquals(StoredFormat.of(format).counterTree(), flu.searchTokens(20).get(0).tree());
    Set<ByteBuffer> expected = new HashSet<>();
    for (int entry = 0; entry < 20; entry++) {
      expected.add(ByteBuffer.wrap(flu.entryKey(entry)));
    }
    Set<ByteBuffer> stored = new HashSet<>();
    byte[] indexQualifier = SearchIndexCells.qualifier(fx.codec.encodeQualifier(F, TAG));
    try (Table raw = hbase.getTable(SecureFixture.name(fx.schema))) {
      for (Result r : SecureFixture.scanAll(raw, new Scan().addColumn(F, indexQualifier))) {
        byte[] value = r.getValue(F, indexQualifier);
        stored.add(ByteBuffer.wrap(value, SearchIndexCells.entryKeyOffset(), value.length - SearchIndexCells.entryKeyOffset())
            .slice());
      }
    }
    assertEquals(expected, stored, "the rows' index cells hold the leaves 0..19 of the format's tree");
    assertEquals(20, fx.search(tagIs("flu")).size());
    try (Table raw = hbase.getTable(SecureFixture.name(fx.schema))) {
      byte[] tag = raw.get(new Get(fx.codec.encodeRow(toBytes("r0")))).getValue(F, fx.codec.encodeQualifier(F, TAG));
      assertEquals(5 + (format == 5 ? 24 : 12) + "flu".length() + 16, tag.length,
          "key-id prefix, nonce (XAES's from format 5), value, tag");
    }
  }
}
