package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Work split by region (what MapReduce does): even split keys for DET row keys, and scans of one
 * stored-key range each that together return every selected row exactly once.
 */
@ExtendWith(SharedHBaseCluster.class)
class SplitWorkTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final String SCHEMA = """
      table: split_work
      rowKey: { box: DET }
      families:
        f:
          default: { box: STD }
          columns:
            city: { box: DET, type: string }
            amount: { box: ASHE, type: long }
      """;

  @Test
  void uniformSplitsSpreadDetKeysAndRangeScansCoverEachRowOnce(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("split_work", TableSchema.parse(SCHEMA));
    TableName name = SecureFixture.name(schema);
    SecureConnection secure = splitTable(hbase, schema, 4);
    int rows = 800;
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      puts.add(new Put(Bytes.toBytes(String.format("k%08d", i)))
          .addColumn(F, Bytes.toBytes("city"), Bytes.toBytes(i % 4 == 0 ? "Porto" : "Braga")));
    }
    try (SecureTable table = secure.getSecureTable(name); RegionLocator locator = table.getRegionLocator()) {
      table.put(puts);
      List<HRegionLocation> regions = locator.getAllRegionLocations();
      assertEquals(4, regions.size());
      Scan porto = new Scan().setFilter(new SingleColumnValueFilter(F, Bytes.toBytes("city"), CompareOperator.EQUAL,
          new BinaryComparator(Bytes.toBytes("Porto"))));
      TreeSet<String> all = new TreeSet<>();
      TreeSet<String> inPorto = new TreeSet<>();
      for (HRegionLocation region : regions) {
        int inRegion = 0;
        try (SecureResultScanner s = table.getScanner(new Scan(), region.getRegion().getStartKey(),
            region.getRegion().getEndKey())) {
          for (Result r : s) {
            assertTrue(all.add(Bytes.toString(r.getRow())), "row read twice: " + Bytes.toString(r.getRow()));
            inRegion++;
          }
        }
        // Uniform: each of 4 regions holds about a quarter of 800 pseudo-random keys.
        assertTrue(inRegion > rows / 8 && inRegion < rows * 3 / 8, "rows in a region: " + inRegion);
        try (SecureResultScanner s = table.getScanner(porto, region.getRegion().getStartKey(),
            region.getRegion().getEndKey())) {
          for (Result r : s) {
            assertEquals("Porto", Bytes.toString(r.getValue(F, Bytes.toBytes("city"))));
            inPorto.add(Bytes.toString(r.getRow()));
          }
        }
      }
      assertEquals(rows, all.size());
      assertEquals(rows / 4, inPorto.size());
      assertThrows(UnsupportedSecureOperationException.class,
          () -> table.getScanner(new Scan().setReversed(true), new byte[0], new byte[0]));
    }
  }

  @Test
  void regionPartialSumsAddUpToTheWholeAndThePlanSaysWhereEachPartRuns(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("split_sums", TableSchema.parse(SCHEMA));
    TableName name = SecureFixture.name(schema);
    SecureConnection secure = splitTable(hbase, schema, 3);
    List<Put> puts = new ArrayList<>();
    java.util.Map<String, AggregateResult> expected = new java.util.TreeMap<>();
    for (int i = 0; i < 300; i++) {
      String city = i % 3 == 0 ? "Porto" : "Braga";
      long amount = i * 7L - 500;
      puts.add(new Put(Bytes.toBytes(String.format("k%08d", i))).addColumn(F, Bytes.toBytes("city"), Bytes.toBytes(city))
          .addColumn(F, Bytes.toBytes("amount"), Bytes.toBytes(amount)));
      expected.merge(city, new AggregateResult(amount, 1), AggregateResult::plus);
    }
    AggregateQuery byCity = AggregateQuery.groupedBy(F, Bytes.toBytes("amount"), F, Bytes.toBytes("city"));
    try (SecureTable table = secure.getSecureTable(name); RegionLocator locator = table.getRegionLocator()) {
      table.put(puts);
      java.util.Map<String, AggregateResult> combined = new java.util.TreeMap<>();
      int regionsWithRows = 0;
      for (HRegionLocation region : locator.getAllRegionLocations()) {
        var partial = table.aggregateRange(new Scan(), byCity, region.getRegion().getStartKey(),
            region.getRegion().getEndKey());
        regionsWithRows += partial.isEmpty() ? 0 : 1;
        partial.forEach(g -> combined.merge(Bytes.toString(g.firstKey()), g.measures().get(0), AggregateResult::plus));
      }
      assertEquals(3, regionsWithRows, "each region holds rows, so each partial is one region's own");
      assertEquals(expected, combined);

      QueryPlan plan = table.plan(new Scan(), byCity);
      assertEquals(List.of(QueryPlan.Site.REGION_SERVERS, QueryPlan.Site.REGION_SERVERS, QueryPlan.Site.CLIENT),
          plan.steps().stream().map(QueryPlan.Step::site).toList());
      assertTrue(plan.steps().get(1).leaks().contains("per stored group value"), plan.steps().get(1).leaks());
      assertTrue(plan.describe().startsWith("region servers: scan of the whole table; region servers: each region adds"),
          plan.describe());
      UnsupportedSecureOperationException notAdditive = assertThrows(UnsupportedSecureOperationException.class,
          () -> table.plan(new Scan(), AggregateQuery.of(F, Bytes.toBytes("city"))));
      assertTrue(notAdditive.getMessage().contains("city"), notAdditive.getMessage());
    }
  }

  /** A connection with new random keys to a new table of {@code schema} in {@code regions} even regions. */
  private static SecureConnection splitTable(Connection hbase, TableSchema schema, int regions) throws Exception {
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    secure.createTable(schema, secure.uniformSplitKeys(SecureFixture.name(schema), regions));
    return secure;
  }

  @Test
  void uniformSplitKeysRefuseOrderedRowKeys(Connection hbase) {
    TableSchema schema = SecureFixture.withRowKey(SecureFixture.schema("split_plain", TableSchema.parse(SCHEMA)),
        "PLAIN");
    SecureConnection secure = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> secure.uniformSplitKeys(SecureFixture.name(schema), 4));
    assertTrue(e.getMessage().contains("PLAIN row keys keep the plaintext's order"), e.getMessage());
  }
}
