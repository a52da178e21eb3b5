package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Regions split and move between the two region servers while secure scans, server-side
 * filtered scans and aggregations run: every result stays exact.
 */
@ExtendWith(SharedHBaseCluster.class)
class RegionChurnTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: OPE, type: long }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD }\n"
          + "    columns:\n"
          + "      kind:   { box: DET, type: string }\n"
          + "      amount: { box: ASHE, type: long }\n";
  private static final byte[] F = toBytes("f");
  private static final int ROWS = 3000;

  @Test
  void splitsAndMovesKeepResultsExact(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("churn", SCHEMA);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    SecureTable table = secure.getSecureTable(SecureFixture.name(schema));
    long evenSum = 0;
    long total = 0;
    List<Put> puts = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      puts.add(new Put(toBytes(i)).addColumn(F, toBytes("kind"), toBytes(i % 2 == 0 ? "even" : "odd"))
          .addColumn(F, toBytes("amount"), toBytes(i * 3 - 1000)).addColumn(F, toBytes("note"), toBytes("n" + i)));
      total += i * 3 - 1000;
      if (i % 2 == 0) {
        evenSum += i * 3 - 1000;
      }
    }
    table.put(puts);
    TableName name = SecureFixture.name(schema);
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService churn = Executors.newSingleThreadExecutor();
    Future<Integer> operations = churn.submit(() -> {
      int n = 0;
      try (Admin admin = hbase.getAdmin(); RegionLocator locator = hbase.getRegionLocator(name)) {
        List<ServerName> servers = new ArrayList<>(admin.getRegionServers());
        for (int round = 0; !stop.get() && round < 10; round++) {
          List<HRegionLocation> regions = locator.getAllRegionLocations();
          HRegionLocation biggest = regions.get(round % regions.size());
          try {
            if (round % 2 == 0) {
              admin.splitRegionAsync(biggest.getRegion().getRegionName()).get(); // HBase picks the point
            } else {
              ServerName target = servers.get(round % servers.size());
              admin.move(biggest.getRegion().getEncodedNameAsBytes(), target);
            }
            n++;
          } catch (IOException | ExecutionException e) {
            // A daughter is not splittable until compacted: try the next region next round.
          }
          Thread.sleep(700);
        }
      }
      return n;
    });
    int checks = 0;
    long deadline = System.currentTimeMillis() + 15_000;
    SingleColumnValueFilter even = new SingleColumnValueFilter(F, toBytes("kind"), CompareOperator.EQUAL,
        new BinaryComparator(toBytes("even")));
    while (System.currentTimeMillis() < deadline) {
      assertEquals(ROWS, SecureFixture.scanAll(table, new Scan().setCaching(100)).size());
      assertEquals(ROWS / 2, SecureFixture.scanAll(table, new Scan().setFilter(even).setCaching(50)).size());
      assertEquals(500, SecureFixture.scanAll(table, new Scan().withStartRow(toBytes(1000L)).withStopRow(toBytes(1500L))).size());
      assertEquals(new AggregateResult(total, ROWS), table.aggregate(new Scan(), F, toBytes("amount")));
      assertEquals(new AggregateResult(evenSum, ROWS / 2), table.aggregate(new Scan().setFilter(new FilterList(even)), F, toBytes("amount")));
      checks++;
    }
    stop.set(true);
    int churned = operations.get();
    churn.shutdown();
    try (RegionLocator locator = hbase.getRegionLocator(name)) {
      assertTrue(locator.getAllRegionLocations().size() > 1, "the table was split");
    }
    assertTrue(churned >= 3 && checks >= 3, churned + " splits/moves, " + checks + " rounds of checks");
  }
}
