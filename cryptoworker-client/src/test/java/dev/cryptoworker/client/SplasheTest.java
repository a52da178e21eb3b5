package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.HashSet;
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

/** SPLASHE: counts and sums per dimension value on the server, with no frequency in storage. */
@ExtendWith(SharedHBaseCluster.class)
class SplasheTest {
  private static final String SCHEMA = schema("gender: { box: SPLASHE, values: [F, M, X], splays: [salary, bonus] }");
  private static final byte[] E = toBytes("e");
  private static final String[] GENDERS = {"F", "F", "F", "M", "M", "X"}; // skewed on purpose

  /** Family e: ASHE salary (long) and bonus (int), the given dimension entry, DET dept. */
  static String schema(String dimension) {
    return "table: TABLE\n"
        + "rowKey: { box: PLAIN }\n"
        + "families:\n"
        + "  e:\n"
        + "    default: { box: STD }\n"
        + "    columns:\n"
        + "      salary: { box: ASHE, type: long }\n"
        + "      bonus:  { box: ASHE, type: int }\n"
        + "      " + dimension + "\n"
        + "      dept:   { box: DET, type: string }\n";
  }

  private static SingleColumnValueFilter eq(String q, String v) {
    return new SingleColumnValueFilter(E, toBytes(q), CompareOperator.EQUAL, new BinaryComparator(toBytes(v)));
  }

  @Test
  void countsAndSumsPerValueLeakNoFrequencies(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("splashe", SCHEMA);
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    SecureFixture.create(secure, schema, 3, new byte[][] {toBytes("p-100"), toBytes("p-200")});
    SecureTable table = secure.getSecureTable(SecureFixture.name(schema));
    Random r = new Random(3);
    Map<String, long[]> oracle = new TreeMap<>(); // gender -> {salary sum, count}
    Map<String, long[]> oracleCardiology = new TreeMap<>();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String g = GENDERS[r.nextInt(GENDERS.length)];
      String dept = r.nextBoolean() ? "cardiology" : "oncology";
      long salary = 20_000 + r.nextInt(80_000) - (i % 7 == 0 ? 1_000_000 : 0);
      puts.add(new Put(toBytes(String.format("p-%03d", i))).addColumn(E, toBytes("salary"), toBytes(salary))
          .addColumn(E, toBytes("bonus"), toBytes(r.nextInt(1000))).addColumn(E, toBytes("gender"), toBytes(g))
          .addColumn(E, toBytes("dept"), toBytes(dept)));
      long[] acc = oracle.computeIfAbsent(g, k -> new long[2]);
      acc[0] += salary;
      acc[1]++;
      if (dept.equals("cardiology")) {
        long[] c = oracleCardiology.computeIfAbsent(g, k -> new long[2]);
        c[0] += salary;
        c[1]++;
      }
    }
    table.put(puts);

    for (String g : oracle.keySet()) {
      AggregateResult got = table.aggregate(new Scan().setFilter(eq("gender", g)), E, toBytes("salary"));
      assertEquals(new AggregateResult(oracle.get(g)[0], oracle.get(g)[1]), got, "gender " + g);
      AggregateResult cardio = table.aggregate(
          new Scan().setFilter(new FilterList(eq("dept", "cardiology"), eq("gender", g))), E, toBytes("salary"));
      assertEquals(new AggregateResult(oracleCardiology.get(g)[0], oracleCardiology.get(g)[1]), cardio);
    }
    assertEquals(new AggregateResult(0, 0), table.aggregate(new Scan().setFilter(eq("gender", "Q")), E, toBytes("salary")));
    NavigableMap<byte[], AggregateResult> byGender = table.aggregateBy(new Scan(), E, toBytes("salary"), E, toBytes("gender"));
    assertEquals(oracle.size(), byGender.size());
    for (Map.Entry<String, long[]> o : oracle.entrySet()) {
      assertEquals(new AggregateResult(o.getValue()[0], o.getValue()[1]), byGender.get(toBytes(o.getKey())));
    }
    long total = oracle.values().stream().mapToLong(a -> a[0]).sum();
    assertEquals(new AggregateResult(total, 300), table.aggregate(new Scan(), E, toBytes("salary")), "the unsplayed total");

    // Reads show the dimension and measures as written; splayed cells stay internal.
    Result one = table.get(new Get(toBytes("p-007")));
    assertEquals(Set.of("salary", "bonus", "gender", "dept"), qualifiers(one));
    assertTrue(List.of("F", "M", "X").contains(Bytes.toString(one.getValue(E, toBytes("gender")))));
    Result onlyGender = table.get(new Get(toBytes("p-007")).addColumn(E, toBytes("gender")));
    assertEquals(Set.of("gender"), qualifiers(onlyGender));

    // Storage: every row holds exactly the same qualifiers, whatever its gender, and no plaintext gender.
    Set<String> shapes = new HashSet<>();
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      for (Result row : SecureFixture.scanAll(raw, new Scan())) {
        TreeSet<String> shape = new TreeSet<>();
        for (Cell c : row.rawCells()) {
          shape.add(Bytes.toStringBinary(CellUtil.cloneQualifier(c)) + "/" + c.getValueLength());
          if (!Bytes.toString(CellUtil.cloneQualifier(c)).startsWith("dept")) {
            assertEquals(AsheCell.LEASED_LENGTH, c.getValueLength(), "every splayed cell is an ASHE value");
          }
        }
        shapes.add(shape.toString().replaceAll("dept/\\d+", "dept"));
      }
    }
    assertEquals(1, shapes.size(), "rows must be indistinguishable by their stored cells: " + shapes);
  }

  /**
   * Two measures splayed by a dimension, grouped by a DET column and the dimension, with the row
   * count and SQL's null groups (rows lacking the dimension and its measures, rows lacking the DET
   * column), for basic SPLASHE and for enhanced (whose infrequent values share columns): what the
   * oracle computes.
   */
  @Test
  void groupsByTheDimensionBesideADetColumnWithTwoMeasuresAndNullGroups(Connection hbase) throws Exception {
    Map<String, List<String>> dimensions = Map.of(
        "gender: { box: SPLASHE, values: [F, M, X], splays: [salary, bonus] }", List.of("F", "M", "X"),
        "gender: { box: SPLASHE, values: [F, M, X, Y], frequent: [F], splays: [salary, bonus] }",
        List.of("F", "F", "F", "M", "X", "Y"));
    for (Map.Entry<String, List<String>> dimension : dimensions.entrySet()) {
      TableSchema schema = SecureFixture.schema("splashe_tuple", schema(dimension.getKey()));
      SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
      SecureFixture.create(secure, schema, 3, new byte[][] {toBytes("p-100"), toBytes("p-200")});
      SecureTable table = secure.getSecureTable(SecureFixture.name(schema));
      Random r = new Random(9);
      Map<String, List<Long>> oracle = new TreeMap<>(); // dept/gender -> salary, count, bonus, count, rows
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        String g = i % 11 == 0 ? null : dimension.getValue().get(r.nextInt(dimension.getValue().size()));
        String dept = i % 13 == 0 ? null : r.nextBoolean() ? "cardiology" : "oncology";
        long salary = 20_000 + r.nextInt(80_000);
        int bonus = r.nextInt(1000);
        Put put = new Put(toBytes(String.format("p-%03d", i))).addColumn(E, toBytes("note"), toBytes("n"));
        if (g != null) {
          put.addColumn(E, toBytes("salary"), toBytes(salary)).addColumn(E, toBytes("bonus"), toBytes(bonus))
              .addColumn(E, toBytes("gender"), toBytes(g));
        }
        if (dept != null) {
          put.addColumn(E, toBytes("dept"), toBytes(dept));
        }
        puts.add(put);
        List<Long> e = oracle.computeIfAbsent(dept + "/" + g, k -> new ArrayList<>(List.of(0L, 0L, 0L, 0L, 0L)));
        long in = g == null ? 0 : 1;
        List<Long> add = List.of(in * salary, in, in * bonus, in, 1L);
        for (int k = 0; k < 5; k++) {
          e.set(k, e.get(k) + add.get(k));
        }
      }
      table.put(puts);

      AggregateQuery query = AggregateQuery.of(E, toBytes("salary")).alsoSumming(E, toBytes("bonus"))
          .thenBy(E, toBytes("dept")).thenBy(E, toBytes("gender")).countingRows().withNullGroups();
      Map<String, List<Long>> got = new TreeMap<>();
      for (AggregateGroup a : table.aggregateRange(new Scan(), query, new byte[0], new byte[0])) {
        String key = (a.key().get(0) == null ? null : Bytes.toString(a.key().get(0))) + "/"
            + (a.key().get(1) == null ? null : Bytes.toString(a.key().get(1)));
        got.put(key, List.of(a.measures().get(0).sum(), a.measures().get(0).count(), a.measures().get(1).sum(),
            a.measures().get(1).count(), a.rows()));
      }
      assertEquals(oracle, got, dimension.getKey());
      QueryPlan plan = table.plan(new Scan(), query);
      assertTrue(plan.describe().contains("presplit by the dimension's values"), plan.describe());
      assertTrue(plan.describeWithLeakage().contains("whose counts stay encrypted"), plan.describeWithLeakage());
    }
  }

  @Test
  void updatesDeletesAndRefusals(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("splashe_rules", SCHEMA);
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    SecureFixture.create(secure, schema, 3, null);
    SecureTable table = secure.getSecureTable(SecureFixture.name(schema));
    byte[] row = toBytes("p-1");
    table.put(new Put(row).addColumn(E, toBytes("salary"), toBytes(100L)).addColumn(E, toBytes("bonus"), toBytes(5))
        .addColumn(E, toBytes("gender"), toBytes("F")));
    table.put(new Put(row).addColumn(E, toBytes("salary"), toBytes(250L)).addColumn(E, toBytes("bonus"), toBytes(7))
        .addColumn(E, toBytes("gender"), toBytes("M")));
    assertEquals("M", Bytes.toString(table.get(new Get(row)).getValue(E, toBytes("gender"))));
    assertEquals(new AggregateResult(250, 1), table.aggregate(new Scan().setFilter(eq("gender", "M")), E, toBytes("salary")));
    assertEquals(new AggregateResult(0, 0), table.aggregate(new Scan().setFilter(eq("gender", "F")), E, toBytes("salary")));
    assertEquals(new AggregateResult(7, 1), table.aggregate(new Scan().setFilter(eq("gender", "M")), E, toBytes("bonus")));

    IllegalArgumentException alone = assertThrows(IllegalArgumentException.class,
        () -> table.put(new Put(row).addColumn(E, toBytes("salary"), toBytes(1L))));
    assertTrue(alone.getMessage().contains("write the dimension 'gender' in the same Put"), alone.getMessage());
    IllegalArgumentException partial = assertThrows(IllegalArgumentException.class,
        () -> table.put(new Put(row).addColumn(E, toBytes("gender"), toBytes("F")).addColumn(E, toBytes("salary"), toBytes(1L))));
    assertTrue(partial.getMessage().contains("'bonus'"), partial.getMessage());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> table.put(new Put(row).addColumn(E, toBytes("gender"), toBytes("Unlisted")).addColumn(E, toBytes("salary"),
            toBytes(1L)).addColumn(E, toBytes("bonus"), toBytes(1))));
    assertTrue(unknown.getMessage().contains("table " + schema.tableName() + ", column e:gender (SPLASHE)"),
        unknown.getMessage());
    assertTrue(unknown.getMessage().contains("not one of the 3 values the schema declares"), unknown.getMessage());
    assertFalse(unknown.getMessage().contains("Unlisted"), "the rejected plaintext is in the message: "
        + unknown.getMessage());
    UnsupportedSecureOperationException scan = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.getScanner(new Scan().setFilter(eq("gender", "M"))));
    assertTrue(scan.column().contains("(SPLASHE)"), scan.getMessage());
    // With client-side evaluation, a plain scan can filter on the dimension.
    assertEquals(1, SecureFixture.scanAll(table, SecureScans.allowClientSideEvaluation(new Scan().setFilter(eq("gender", "M")))).size());

    table.delete(new Delete(row).addColumns(E, toBytes("gender")).addColumns(E, toBytes("salary")));
    Result after = table.get(new Get(row));
    assertNull(after.getValue(E, toBytes("gender")));
    assertNull(after.getValue(E, toBytes("salary")));
    assertFalse(after.isEmpty(), "bonus remains");
    assertEquals(new AggregateResult(0, 0), table.aggregate(new Scan().setFilter(eq("gender", "M")), E, toBytes("salary")));
  }

  private static Set<String> qualifiers(Result r) {
    Set<String> out = new HashSet<>();
    for (Cell c : r.rawCells()) {
      out.add(Bytes.toString(CellUtil.cloneQualifier(c)));
    }
    return out;
  }
}
