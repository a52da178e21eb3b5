package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.Await;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * ASHE sums computed by the coprocessor in real region servers, on a table pre-split into four
 * regions, against an in-memory plaintext oracle.
 */
@ExtendWith(SharedHBaseCluster.class)
class AggregationTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: PLAIN }\n"
          + "families:\n"
          + "  m:\n"
          + "    default: { box: STD }\n"
          + "    columns:\n"
          + "      amount: { box: ASHE, type: long }\n"
          + "      small:  { box: ASHE, type: int }\n"
          + "      dept:   { box: DET, type: string }\n"
          + "      ward:   { box: PLAIN, type: string }\n"
          + "      day:    { box: OPE, type: date, companion: STD }\n"
          + "      plain:  { box: PLAIN, type: long }\n"
          + "      secret: { box: STD, type: long }\n";
  private static final byte[] M = toBytes("m");
  private static final byte[] AMOUNT = toBytes("amount");
  private static final String[] DEPTS = {"cardiology", "oncology", "radiology"};
  private static final byte[][] SPLITS = {toBytes("r-0250"), toBytes("r-0500"), toBytes("r-0750")};

  /** One row of the oracle. */
  private record Row(String key, long amount, int small, String dept, String ward, String day) {}

  private static Row randomRow(Random r, int i) {
    long amount = switch (i % 5) {
      case 0 -> r.nextLong();                 // forces wrap-around
      case 1 -> -r.nextInt(1_000_000);
      default -> r.nextInt(10_000);
    };
    return new Row(String.format("r-%04d", i), amount, r.nextInt() / 4, DEPTS[r.nextInt(3)], "W" + r.nextInt(3),
        String.format("2019-%02d-%02d", 1 + r.nextInt(12), 1 + r.nextInt(28)));
  }

  private static Put put(Row row) {
    return new Put(toBytes(row.key()))
        .addColumn(M, AMOUNT, toBytes(row.amount()))
        .addColumn(M, toBytes("small"), toBytes(row.small()))
        .addColumn(M, toBytes("dept"), toBytes(row.dept()))
        .addColumn(M, toBytes("ward"), toBytes(row.ward()))
        .addColumn(M, toBytes("day"), toBytes(row.day()))
        .addColumn(M, toBytes("plain"), toBytes(row.amount()))
        .addColumn(M, toBytes("secret"), toBytes(row.amount()));
  }

  private static AggregateResult oracle(List<Row> rows, Predicate<Row> where) {
    long sum = 0;
    long count = 0;
    for (Row r : rows) {
      if (where.test(r)) {
        sum += r.amount();
        count++;
      }
    }
    return new AggregateResult(sum, count);
  }

  private static SingleColumnValueFilter eq(String q, String v) {
    return new SingleColumnValueFilter(M, toBytes(q), CompareOperator.EQUAL, new BinaryComparator(toBytes(v)));
  }

  private static SecureTable create(Connection hbase, KeyProvider keys, TableSchema schema) throws IOException {
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
    SecureFixture.create(secure, schema, 1, SPLITS);
    return secure.getSecureTable(SecureFixture.name(schema));
  }

  /**
   * A table whose boxes do no region work gets no observer, so its regions would answer a sum with
   * the rows they scan: the sum of its PLAIN long column is refused naming the table, the column and
   * the observer, and with the observer added it matches the oracle.
   */
  @Test
  void aSumOnATableWithoutTheObserverIsRefusedByNameAndWorksOnceItIsAdded(Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.schema("plain_sums", "table: TABLE\n"
        + "rowKey: { box: PLAIN }\n"
        + "families:\n"
        + "  m:\n"
        + "    default: { box: PLAIN }\n"
        + "    columns:\n"
        + "      plain: { box: PLAIN, type: long }\n");
    SecureTable table = create(hbase, SecureFixture.randomKeys(), schema);
    List<Row> rows = new ArrayList<>();
    Random random = new Random(11);
    for (int i = 0; i < 50; i++) {
      Row row = randomRow(random, i);
      rows.add(row);
      table.put(new Put(toBytes(row.key())).addColumn(M, toBytes("plain"), toBytes(row.amount())));
    }
    UnsupportedSecureOperationException refused = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.aggregate(new Scan(), M, toBytes("plain")));
    assertTrue(refused.getMessage().contains("table " + SecureFixture.name(schema).getNameAsString())
        && refused.getMessage().contains("m:plain")
        && refused.getMessage().contains("which this table lacks"), refused.getMessage());
    try (Admin admin = hbase.getAdmin()) {
      TableName name = SecureFixture.name(schema);
      admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
          .setCoprocessor(RegionSupport.REGION_OBSERVER).build());
    }
    assertEquals(oracle(rows, r -> true), table.aggregate(new Scan(), M, toBytes("plain")));
  }

  /**
   * One query of two measures (ASHE and PLAIN) and the row count, grouped by a DET and a PLAIN
   * column with SQL's null groups, over rows lacking either group column or the ASHE measure: per
   * group what the oracle computes; a row count behind a DET equality; an STD group refused by name.
   */
  @Test
  void severalMeasuresGroupColumnsAndTheRowCountMatchTheOracle(Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.schema("ashe_multi", SCHEMA);
    SecureTable table = create(hbase, SecureFixture.randomKeys(), schema);
    Random random = new Random(5);
    Map<String, long[]> expected = new TreeMap<>(); // "dept/ward" -> amount sum, count, plain sum, count, rows
    List<Put> puts = new ArrayList<>();
    long oncologyRows = 0;
    for (int i = 0; i < 400; i++) {
      Row row = randomRow(random, i);
      Put put = new Put(toBytes(row.key())).addColumn(M, toBytes("plain"), toBytes(row.amount()));
      boolean hasAmount = i % 7 != 0;
      String dept = i % 5 == 0 ? null : row.dept();
      String ward = i % 9 == 0 ? null : row.ward();
      if (hasAmount) {
        put.addColumn(M, AMOUNT, toBytes(row.amount()));
      }
      if (dept != null) {
        put.addColumn(M, toBytes("dept"), toBytes(dept));
      }
      if (ward != null) {
        put.addColumn(M, toBytes("ward"), toBytes(ward));
      }
      puts.add(put);
      oncologyRows += "oncology".equals(dept) ? 1 : 0;
      long[] e = expected.computeIfAbsent(dept + "/" + ward, k -> new long[5]);
      e[0] += hasAmount ? row.amount() : 0;
      e[1] += hasAmount ? 1 : 0;
      e[2] += row.amount();
      e[3]++;
      e[4]++;
    }
    table.put(puts);

    AggregateQuery query = AggregateQuery.of(M, AMOUNT).alsoSumming(M, toBytes("plain")).thenBy(M, toBytes("dept"))
        .thenBy(M, toBytes("ward")).countingRows().withNullGroups();
    Map<String, long[]> got = new TreeMap<>();
    for (AggregateGroup g : table.aggregateRange(new Scan(), query, new byte[0], new byte[0])) {
      String key = (g.key().get(0) == null ? null : Bytes.toString(g.key().get(0))) + "/"
          + (g.key().get(1) == null ? null : Bytes.toString(g.key().get(1)));
      AggregateResult amount = g.measures().get(0);
      AggregateResult plain = g.measures().get(1);
      got.put(key, new long[] {amount.sum(), amount.count(), plain.sum(), plain.count(), g.rows()});
    }
    assertEquals(expected.keySet(), got.keySet());
    expected.forEach((k, v) -> assertEquals(java.util.Arrays.toString(v), java.util.Arrays.toString(got.get(k)), k));
    assertTrue(expected.keySet().stream().anyMatch(k -> k.startsWith("null/")), "rows lacking dept exist");

    SingleColumnValueFilter isOncology = eq("dept", "oncology");
    isOncology.setFilterIfMissing(true); // as SQL: rows lacking dept do not pass
    List<AggregateGroup> oncology = table.aggregateRange(new Scan().setFilter(isOncology),
        AggregateQuery.rowCount(), new byte[0], new byte[0]);
    assertEquals(oncologyRows, oncology.get(0).rows());
    assertTrue(table.plan(new Scan(), query).describe().contains("each region adds 2 measures and counts the rows per"
        + " stored group value tuple, rows lacking a group column in a null group, in one pass"));
    UnsupportedSecureOperationException std = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.plan(new Scan(), query.thenBy(M, toBytes("secret"))));
    assertTrue(std.getMessage().contains("m:secret"), std.getMessage());
  }

  @Test
  void sumsCountsAveragesAndGroupsMatchTheOracle(Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.schema("ashe", SCHEMA);
    SecureTable table = create(hbase, SecureFixture.randomKeys(), schema);
    try (RegionChurn regions = new RegionChurn(hbase, SecureFixture.name(schema))) {
      assertEquals(4, regions.regions().size(), "sums are taken over several regions");
    }
    Random random = new Random(7);
    List<Row> rows = new ArrayList<>();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      Row row = randomRow(random, i);
      rows.add(row);
      puts.add(put(row));
    }
    table.put(puts);

    AggregateResult all = table.aggregate(new Scan(), M, AMOUNT);
    assertEquals(oracle(rows, r -> true), all);
    assertEquals((double) all.sum() / all.count(), all.average());
    assertEquals(oracle(rows, r -> true), table.aggregate(new Scan(), M, toBytes("plain")), "PLAIN baseline");

    assertEquals(oracle(rows, r -> r.dept().equals("oncology")),
        table.aggregate(new Scan().setFilter(eq("dept", "oncology")), M, AMOUNT));
    assertEquals(oracle(rows, r -> r.dept().equals("oncology") && r.ward().equals("W1")),
        table.aggregate(new Scan().setFilter(new FilterList(eq("dept", "oncology"), eq("ward", "W1"))), M, AMOUNT));
    assertEquals(oracle(rows, r -> r.day().compareTo("2019-03-15") >= 0 && r.day().compareTo("2019-09-01") < 0),
        table.aggregate(new Scan().setFilter(new FilterList(
            new SingleColumnValueFilter(M, toBytes("day"), CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(toBytes("2019-03-15"))),
            new SingleColumnValueFilter(M, toBytes("day"), CompareOperator.LESS, new BinaryComparator(toBytes("2019-09-01"))))),
            M, AMOUNT));
    assertEquals(oracle(rows, r -> r.key().compareTo("r-0100") >= 0 && r.key().compareTo("r-0600") < 0),
        table.aggregate(new Scan().withStartRow(toBytes("r-0100")).withStopRow(toBytes("r-0600")), M, AMOUNT),
        "a row range crossing three regions");
    assertEquals(new AggregateResult(0, 0), table.aggregate(new Scan().setFilter(eq("dept", "nobody")), M, AMOUNT));
    assertTrue(Double.isNaN(new AggregateResult(0, 0).average()));

    long smallSum = rows.stream().mapToLong(Row::small).sum();
    assertEquals(new AggregateResult(smallSum, rows.size()), table.aggregate(new Scan(), M, toBytes("small")));

    NavigableMap<byte[], AggregateResult> byDept = table.aggregateBy(new Scan(), M, AMOUNT, M, toBytes("dept"));
    Map<String, AggregateResult> got = new TreeMap<>();
    byDept.forEach((k, v) -> got.put(Bytes.toString(k), v));
    Map<String, AggregateResult> expected = new TreeMap<>();
    for (String d : DEPTS) {
      expected.put(d, oracle(rows, r -> r.dept().equals(d)));
    }
    assertEquals(expected, got);
    NavigableMap<byte[], AggregateResult> byWard =
        table.aggregateBy(new Scan().setFilter(eq("dept", "radiology")), M, AMOUNT, M, toBytes("ward"));
    assertEquals(oracle(rows, r -> r.dept().equals("radiology") && r.ward().equals("W2")), byWard.get(toBytes("W2")));

    // Reads of single ASHE cells decrypt too.
    assertEquals(rows.get(5).amount(), Bytes.toLong(table.get(new Get(toBytes("r-0005"))).getValue(M, AMOUNT)));
  }

  @Test
  void refusals(Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.schema("ashe_refuse", SCHEMA);
    SecureTable table = create(hbase, SecureFixture.randomKeys(), schema);
    table.put(put(randomRow(new Random(1), 1)));
    UnsupportedSecureOperationException std = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.aggregate(new Scan(), M, toBytes("secret")));
    assertTrue(std.column().contains("m:secret (STD)") && std.reason().contains("fetched and summed on the client"),
        std.getMessage());
    assertThrows(UnsupportedSecureOperationException.class, () -> table.aggregate(
        new Scan().setFilter(new SingleColumnValueFilter(M, toBytes("secret"), CompareOperator.LESS,
            new BinaryComparator(toBytes(5L)))), M, AMOUNT));
    assertThrows(UnsupportedSecureOperationException.class,
        () -> table.aggregateBy(new Scan(), M, AMOUNT, M, toBytes("secret")));
    assertThrows(UnsupportedSecureOperationException.class,
        () -> table.increment(new Increment(toBytes("r-0001")).addColumn(M, AMOUNT, 1)));
  }

  @Test
  void concurrentWritersNeverShareIdentifiersAndSplitsKeepSumsExact(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("ashe_concurrent", SCHEMA);
    KeyProvider keys = SecureFixture.randomKeys();
    create(hbase, keys, schema);
    int writers = 4;
    int perWriter = 400;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<List<Row>>> futures = new ArrayList<>();
    AtomicInteger written = new AtomicInteger();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      futures.add(pool.submit(() -> {
        // Each writer its own SecureConnection: like separate processes, separate identifier leases.
        SecureTable t = SecureConnection.wrap(hbase, keys, List.of(schema)).getSecureTable(SecureFixture.name(schema));
        Random r = new Random(writer);
        List<Row> mine = new ArrayList<>();
        for (int i = 0; i < perWriter; i++) {
          Row row = randomRow(r, writer * perWriter + i);
          mine.add(row);
          t.put(put(row));
          written.incrementAndGet();
        }
        return mine;
      }));
    }
    // Two of the four regions split once the writers are a quarter through: each split checked in hbase:meta.
    List<Row> rows = new ArrayList<>();
    try (RegionChurn regions = new RegionChurn(hbase, SecureFixture.name(schema))) {
      Await.until(() -> written.get() >= writers * perWriter / 4, futures, 6_000, () -> "writers stalled at " + written);
      regions.splitAt(toBytes("r-0600"));
      regions.splitAt(toBytes("r-1200"));
      assertEquals(SPLITS.length + 1 + 2, regions.regions().size(), "four regions, two of them split");
      for (Future<List<Row>> f : futures) {
        rows.addAll(f.get());
      }
    } finally { // a failure leaves no thread writing to the shared cluster
      pool.shutdownNow();
    }
    SecureTable table = SecureConnection.wrap(hbase, keys, List.of(schema)).getSecureTable(SecureFixture.name(schema));
    assertEquals(oracle(rows, r -> true), table.aggregate(new Scan(), M, AMOUNT));

    // Identifiers are unique across writers: collect them from the raw cells.
    Map<Long, String> owners = new HashMap<>();
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      for (Result r : SecureFixture.scanAll(raw, new Scan().addColumn(M, AMOUNT))) {
        Cell c = r.getColumnLatestCell(M, AMOUNT);
        long id = AsheCell.parse(CellUtil.cloneValue(c)).id();
        String previous = owners.put(id, Bytes.toString(r.getRow()));
        assertEquals(null, previous, "identifier " + id + " used twice");
        // Raw audit: the plaintext amount is not in the stored cell.
        long amount = rows.stream().filter(x -> x.key().equals(Bytes.toString(r.getRow()))).findFirst().orElseThrow().amount();
        assertFalse(Bytes.contains(CellUtil.cloneValue(c), toBytes(amount)), "plaintext amount stored");
      }
    }
    assertEquals(writers * perWriter, owners.size());
  }
}
