package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Enhanced SPLASHE: frequent values splayed, infrequent ones sharing a column told apart by a padded
 * DET token. Aggregates against a plain computation over the same rows; stored cells read through
 * a plain HBase client.
 */
@ExtendWith(SharedHBaseCluster.class)
class EnhancedSplasheTest {
  private static final String SCHEMA = SplasheTest.schema("region: { box: SPLASHE, values: [North, South,"
      + " Antarctica, Bermuda, Caspian, Dogger], frequent: [North, South], splays: [salary, bonus] }");
  private static final byte[] E = toBytes("e");
  private static final List<String> INFREQUENT = List.of("Antarctica", "Bermuda", "Caspian", "Dogger");
  private static final int ROWS = 600;

  private static SingleColumnValueFilter eq(String q, String v) {
    return new SingleColumnValueFilter(E, toBytes(q), CompareOperator.EQUAL, new BinaryComparator(toBytes(v)));
  }

  /** 40% North, 38% South, then 10, 6, 4 and 2% for the infrequent values: skewed on purpose. */
  private static String region(Random r) {
    int p = r.nextInt(100);
    return p < 40 ? "North" : p < 78 ? "South" : p < 88 ? "Antarctica" : p < 94 ? "Bermuda" : p < 98 ? "Caspian"
        : "Dogger";
  }

  /**
   * A table of {@link #SCHEMA} on the shared cluster, the name a plain client reads it by, and what
   * another writer (a connection of its own) opens it with.
   */
  private record Created(SecureTable table, TableName name, KeyProvider keys, TableSchema schema) {
    static Created of(Connection hbase, String prefix, byte[][] splits) throws Exception {
      TableSchema schema = SecureFixture.schema(prefix, SCHEMA);
      KeyProvider keys = SecureFixture.randomKeys();
      SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
      SecureFixture.create(secure, schema, 3, splits);
      return new Created(secure.getSecureTable(SecureFixture.name(schema)), SecureFixture.name(schema), keys, schema);
    }

    /** The table as another writer sees it: its own connection and codec, the same keys. */
    SecureTable anotherWriter(Connection hbase) throws Exception {
      return SecureConnection.wrap(hbase, keys, List.of(schema)).getSecureTable(name);
    }

    /** How many rows show each token, read through a plain client. */
    Map<String, Integer> tokenCounts(Connection hbase) throws Exception {
      Map<String, Integer> tokens = new HashMap<>();
      try (Table raw = hbase.getTable(name)) {
        for (Result row : SecureFixture.scanAll(raw, new Scan().addColumn(E, TOKEN))) {
          tokens.merge(Bytes.toStringBinary(row.getValue(E, TOKEN)), 1, Integer::sum);
        }
      }
      return tokens;
    }
  }

  private static final byte[] TOKEN = Bytes.add(toBytes("region"), new byte[] {0, 0}, toBytes("token"));

  /**
   * Two writers, each balancing by its own counts, would leave Antarctica's token above the others:
   * one writes only Antarctica, the other only North, interleaved. By the shared counts every pad goes
   * to a token shown least by either, and the 30 pads fill the three other tokens exactly.
   */
  @Test
  void twoInterleavedWritersEndExactlyBalanced(Connection hbase) throws Exception {
    Created created = Created.of(hbase, "splashe_enhanced_writers", null);
    SecureTable first = created.table();
    SecureTable second = created.anotherWriter(hbase);
    Map<String, long[]> oracle = new TreeMap<>();
    for (int i = 0; i < 10; i++) {
      first.put(put(toBytes("a-" + i), 10L + i, i, "Antarctica"));
      add(oracle, "Antarctica", 10L + i, i);
      for (int j = 0; j < 3; j++) {
        second.put(put(toBytes("n-" + i + "-" + j), 100L, 1, "North"));
        add(oracle, "North", 100L, 1);
      }
    }
    Map<String, Integer> tokens = created.tokenCounts(hbase);
    assertEquals(INFREQUENT.size(), tokens.size(), tokens.toString());
    assertEquals(Set.of(10), Set.copyOf(tokens.values()), "every token shown 10 times: " + tokens.values());
    for (String v : List.of("Antarctica", "North")) {
      long[] o = oracle.get(v);
      assertEquals(new AggregateResult(o[0], o[2]), sum(second, v), v);
    }
    assertEquals(new AggregateResult(0, 0), sum(first, "Bermuda"), "pads hold 0");
  }

  /**
   * One batch whose rows arrive sorted with the frequent values first: padding row by row in arrival
   * order would spread the 60 pads before seeing the infrequent rows; planned over the batch, they
   * fill the gaps (10 + 15 + 15) and share the rest evenly, 25 rows per token.
   */
  @Test
  void aBatchSortedByValueEndsExactlyBalanced(Connection hbase) throws Exception {
    Created created = Created.of(hbase, "splashe_enhanced_sorted", new byte[][] {toBytes("r-050")});
    Map<String, long[]> oracle = new TreeMap<>();
    created.table().put(sortedRows(oracle));
    assertExactlyBalancedAt25(created.tokenCounts(hbase));
    assertSums(created.table(), oracle);
  }

  /** The same rows as one bulk-load chunk ({@code encodeForBulkLoad}), its stored puts then written as is. */
  @Test
  void aBulkLoadChunkSortedByValueEndsExactlyBalanced(Connection hbase) throws Exception {
    Created created = Created.of(hbase, "splashe_enhanced_bulk", null);
    Map<String, long[]> oracle = new TreeMap<>();
    List<Put> stored = created.table().encodeForBulkLoad(sortedRows(oracle)).first();
    try (Table raw = hbase.getTable(created.name())) {
      raw.put(stored);
    }
    assertExactlyBalancedAt25(created.tokenCounts(hbase));
    assertSums(created.table(), oracle);
  }

  /**
   * Deletes lower the stored counts but not the shared ones, so the next batch's pads would go by
   * stale counts and leave the deleted rows' token short (15 + 50 pads shared evenly: 27 or 28,
   * the others 37 or 38); re-counted first, the pads fill it and the tokens end at 35 each.
   */
  @Test
  void aRecountAfterDeletesLetsTheNextBatchEndExactlyBalanced(Connection hbase) throws Exception {
    Created created = Created.of(hbase, "splashe_enhanced_recount", null);
    SecureTable table = created.table();
    Map<String, long[]> oracle = new TreeMap<>();
    table.put(sortedRows(oracle));
    List<Delete> deletes = new ArrayList<>();
    for (int i = 60; i < 70; i++) { // 10 of the 20 Antarctica rows (rows 60 to 79)
      deletes.add(new Delete(toBytes(String.format("r-%03d", i))));
    }
    table.delete(deletes);
    assertEquals(15, created.tokenCounts(hbase).values().stream().mapToInt(Integer::intValue).min().orElseThrow());

    assertEquals(10, table.recountSharedCounts(), "Antarctica's count lowered by the 10 deleted rows");
    assertEquals(0, table.recountSharedCounts(), "nothing left to move");
    List<Put> north = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      north.add(put(toBytes(String.format("s-%03d", i)), 3L, 1, "North"));
    }
    table.put(north);

    Map<String, Integer> tokens = created.tokenCounts(hbase);
    assertEquals(Set.of(35), Set.copyOf(tokens.values()), "every token shown 35 times: " + tokens.values());
    assertEquals(new AggregateResult(oracle.get("North")[0] + 50 * 3L, 25 + 50), sum(table, "North"));
    assertEquals(10, sum(table, "Antarctica").count());
  }

  /** 100 rows, the frequent values' first: 35 South, 25 North, then 20, 10, 5 and 5 infrequent. */
  private static List<Put> sortedRows(Map<String, long[]> oracle) {
    Map<String, Integer> rowsPerValue = new LinkedHashMap<>();
    rowsPerValue.put("South", 35);
    rowsPerValue.put("North", 25);
    rowsPerValue.put("Antarctica", 20);
    rowsPerValue.put("Bermuda", 10);
    rowsPerValue.put("Caspian", 5);
    rowsPerValue.put("Dogger", 5);
    List<Put> puts = new ArrayList<>();
    rowsPerValue.forEach((value, rows) -> {
      for (int i = 0; i < rows; i++) {
        long salary = 1000L * puts.size() + 7;
        puts.add(put(toBytes(String.format("r-%03d", puts.size())), salary, 2, value));
        add(oracle, value, salary, 2);
      }
    });
    return puts;
  }

  private static void assertExactlyBalancedAt25(Map<String, Integer> tokens) {
    assertEquals(INFREQUENT.size(), tokens.size(), tokens.toString());
    assertEquals(Set.of(25), Set.copyOf(tokens.values()), "every token shown 25 times: " + tokens.values());
  }

  private static void assertSums(SecureTable table, Map<String, long[]> oracle) throws Exception {
    for (Map.Entry<String, long[]> o : oracle.entrySet()) {
      assertEquals(new AggregateResult(o.getValue()[0], o.getValue()[2]), sum(table, o.getKey()), o.getKey());
    }
  }

  @Test
  void sumsAndCountsMatchThePlainComputationAndStoredCellsHideTheValues(Connection hbase) throws Exception {
    Created created = Created.of(hbase, "splashe_enhanced", new byte[][] {toBytes("p-200"), toBytes("p-400")});
    SecureTable table = created.table();
    Random r = new Random(11);
    Map<String, long[]> oracle = new TreeMap<>(); // region -> {salary sum, bonus sum, count}
    Map<String, long[]> oracleCardiology = new TreeMap<>();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      String region = region(r);
      String dept = r.nextBoolean() ? "cardiology" : "oncology";
      long salary = 20_000 + r.nextInt(80_000) - (i % 7 == 0 ? 1_000_000 : 0);
      int bonus = r.nextInt(1000);
      puts.add(new Put(toBytes(String.format("p-%03d", i))).addColumn(E, toBytes("salary"), toBytes(salary))
          .addColumn(E, toBytes("bonus"), toBytes(bonus)).addColumn(E, toBytes("region"), toBytes(region))
          .addColumn(E, toBytes("dept"), toBytes(dept)));
      add(oracle, region, salary, bonus);
      if (dept.equals("cardiology")) {
        add(oracleCardiology, region, salary, bonus);
      }
    }
    table.put(puts);

    assertEquals(6, oracle.size(), "every value, frequent or not, has rows");
    for (String v : oracle.keySet()) {
      long[] o = oracle.get(v);
      assertEquals(new AggregateResult(o[0], o[2]), table.aggregate(new Scan().setFilter(eq("region", v)), E,
          toBytes("salary")), "region " + v);
      assertEquals(new AggregateResult(o[1], o[2]), table.aggregate(new Scan().setFilter(eq("region", v)), E,
          toBytes("bonus")), "bonus, region " + v);
      long[] c = oracleCardiology.get(v);
      assertEquals(new AggregateResult(c[0], c[2]), table.aggregate(
          new Scan().setFilter(new FilterList(eq("dept", "cardiology"), eq("region", v))), E, toBytes("salary")),
          "cardiology, region " + v);
    }
    assertEquals(new AggregateResult(0, 0), table.aggregate(new Scan().setFilter(eq("region", "Elsewhere")), E,
        toBytes("salary")), "an undeclared value has no rows");
    NavigableMap<byte[], AggregateResult> byRegion = table.aggregateBy(new Scan(), E, toBytes("salary"), E,
        toBytes("region"));
    assertEquals(oracle.size(), byRegion.size());
    for (Map.Entry<String, long[]> o : oracle.entrySet()) {
      assertEquals(new AggregateResult(o.getValue()[0], o.getValue()[2]), byRegion.get(toBytes(o.getKey())),
          "grouped, region " + o.getKey());
    }
    long total = oracle.values().stream().mapToLong(a -> a[0]).sum();
    assertEquals(new AggregateResult(total, ROWS), table.aggregate(new Scan(), E, toBytes("salary")));

    // Reads show the value as written, frequent or not.
    Random again = new Random(11);
    for (int i = 0; i < 40; i++) {
      String region = region(again);
      again.nextBoolean();
      again.nextInt(80_000);
      again.nextInt(1000);
      Result row = table.get(new Get(toBytes(String.format("p-%03d", i))));
      assertEquals(region, Bytes.toString(row.getValue(E, toBytes("region"))), "row " + i);
      assertEquals(Set.of("salary", "bonus", "region", "dept"), qualifiers(row));
    }

    // Through a plain client: same qualifiers in every row, no value's name in any cell value, only the
    // frequent values' names in qualifiers, one token per infrequent value, shown about equally often.
    Set<String> shapes = new HashSet<>();
    Map<String, Integer> tokens = new HashMap<>();
    try (Table raw = hbase.getTable(created.name())) {
      for (Result row : SecureFixture.scanAll(raw, new Scan())) {
        TreeSet<String> shape = new TreeSet<>();
        for (Cell c : row.rawCells()) {
          String qualifier = Bytes.toStringBinary(CellUtil.cloneQualifier(c));
          shape.add(qualifier);
          byte[] value = CellUtil.cloneValue(c);
          for (String v : oracle.keySet()) {
            assertFalse(Bytes.indexOf(value, toBytes(v)) >= 0, "plaintext " + v + " in " + qualifier);
          }
          for (String v : INFREQUENT) {
            assertFalse(qualifier.contains(v), "an infrequent value's name in a qualifier: " + qualifier);
          }
          if (qualifier.equals("region\\x00\\x00token")) {
            tokens.merge(Bytes.toStringBinary(value), 1, Integer::sum);
          }
        }
        shapes.add(shape.toString());
      }
    }
    assertEquals(1, shapes.size(), "rows must be indistinguishable by their stored cells: " + shapes);
    // 2 frequent indicators + token, count, value; per measure: itself, 2 frequent, 1 shared; dept
    assertEquals(2 + 3 + 2 * (1 + 2 + 1) + 1, shapes.iterator().next().split(",").length, shapes.toString());
    assertEquals(INFREQUENT.size(), tokens.size(), "one token per infrequent value: " + tokens.values());
    int least = tokens.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
    int most = tokens.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    assertTrue(most - least <= 1, "tokens must appear equally often (one writer, enough frequent rows): "
        + tokens.values() + "; the values' own counts: " + counts(oracle));
  }

  @Test
  void overwritesAndDeletesKeepAggregatesRight(Connection hbase) throws Exception {
    Created created = Created.of(hbase, "splashe_enhanced_rules", null);
    SecureTable table = created.table();
    byte[] row = toBytes("p-1");
    table.put(put(row, 100L, 5, "Bermuda"));
    table.put(put(toBytes("p-2"), 40L, 1, "North"));
    assertEquals("Bermuda", Bytes.toString(table.get(new Get(row)).getValue(E, toBytes("region"))));
    assertEquals(new AggregateResult(100, 1), sum(table, "Bermuda"));
    assertEquals(new AggregateResult(0, 0), sum(table, "Caspian"), "the rows padded with Caspian's token hold 0");

    table.put(put(row, 250L, 7, "South"));
    assertEquals("South", Bytes.toString(table.get(new Get(row)).getValue(E, toBytes("region"))));
    assertEquals(new AggregateResult(0, 0), sum(table, "Bermuda"));
    assertEquals(new AggregateResult(250, 1), sum(table, "South"));
    table.put(put(row, 90L, 2, "Dogger"));
    assertEquals(new AggregateResult(90, 1), sum(table, "Dogger"));
    assertEquals(new AggregateResult(0, 0), sum(table, "South"));

    table.delete(new Delete(row).addColumns(E, toBytes("region")).addColumns(E, toBytes("salary"))
        .addColumns(E, toBytes("bonus")));
    assertTrue(table.get(new Get(row)).isEmpty());
    assertEquals(new AggregateResult(0, 0), sum(table, "Dogger"));
    assertEquals(new AggregateResult(40, 1), sum(table, "North"));
    try (Table raw = hbase.getTable(created.name())) {
      Result stored = raw.get(new Get(row));
      assertTrue(stored.isEmpty(), "the delete leaves no internal cell: " + stored);
    }
  }

  /** A value cell that decrypts outside the declared list (here: another column's ASHE cell) is reported. */
  @Test
  void aValueCellFromElsewhereIsReportedAsTampering(Connection hbase) throws Exception {
    Created created = Created.of(hbase, "splashe_enhanced_tamper", null);
    SecureTable table = created.table();
    byte[] row = toBytes("p-1");
    table.put(put(row, 100L, 5, "Caspian"));
    byte[] valueCell = Bytes.add(toBytes("region"), new byte[] {0, 0}, toBytes("value"));
    try (Table raw = hbase.getTable(created.name())) {
      byte[] salaryCell = raw.get(new Get(row)).getValue(E, toBytes("salary"));
      raw.put(new Put(row).addColumn(E, valueCell, salaryCell));
    }
    CellDecodingException e = assertThrows(CellDecodingException.class, () -> table.get(new Get(row)));
    assertTrue(e.getMessage().contains("outside the 6 declared values: the stored cells were altered"), e.getMessage());
    assertTrue(e.getMessage().contains("column e:region (SPLASHE)"), e.getMessage());
    assertFalse(e.getMessage().contains("Caspian"), e.getMessage());
  }

  private static Put put(byte[] row, long salary, int bonus, String region) {
    return new Put(row).addColumn(E, toBytes("salary"), toBytes(salary)).addColumn(E, toBytes("bonus"), toBytes(bonus))
        .addColumn(E, toBytes("region"), toBytes(region));
  }

  private static AggregateResult sum(SecureTable table, String region) throws Exception {
    return table.aggregate(new Scan().setFilter(eq("region", region)), E, toBytes("salary"));
  }

  private static void add(Map<String, long[]> oracle, String region, long salary, int bonus) {
    long[] acc = oracle.computeIfAbsent(region, k -> new long[3]);
    acc[0] += salary;
    acc[1] += bonus;
    acc[2]++;
  }

  private static Map<String, Long> counts(Map<String, long[]> oracle) {
    Map<String, Long> out = new TreeMap<>();
    oracle.forEach((k, v) -> out.put(k, v[2]));
    return out;
  }

  private static Set<String> qualifiers(Result r) {
    Set<String> out = new HashSet<>();
    for (Cell c : r.rawCells()) {
      out.add(new String(CellUtil.cloneQualifier(c), StandardCharsets.UTF_8));
    }
    return out;
  }
}
