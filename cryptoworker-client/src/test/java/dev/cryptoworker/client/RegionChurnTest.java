package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Regions split and move between the two region servers while secure scans, server-side
 * filtered scans and aggregations run: every result stays exact. Each split and move is checked in
 * hbase:meta ({@link RegionChurn}); the checks run until the churn is over, then once more.
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
    KeyProvider keys = SecureFixture.randomKeys();
    TableCodec codec = new TableCodec(schema, keys);
    List<byte[]> storedKeys = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      storedKeys.add(codec.encodeRow(toBytes(i)));
    }
    // Three regions to start with, each split once below: only a region never split is splittable at once.
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
    SecureFixture.create(secure, schema, 1, new byte[][] {storedKeys.get(ROWS / 3), storedKeys.get(2 * ROWS / 3)});
    TableName name = SecureFixture.name(schema);
    SecureTable table = secure.getSecureTable(name);
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
    ExecutorService pool = Executors.newSingleThreadExecutor();
    Future<Integer> churn = pool.submit(() -> {
      int done = 0;
      try (RegionChurn regions = new RegionChurn(hbase, name)) {
        for (byte[] point : regions.midpoints(storedKeys)) {
          regions.splitAt(point);
          regions.moveAway(point);
          done += 2;
        }
        assertEquals(6, regions.regions().size(), "three regions, each split once");
      }
      return done;
    });
    SingleColumnValueFilter even = new SingleColumnValueFilter(F, toBytes("kind"), CompareOperator.EQUAL,
        new BinaryComparator(toBytes("even")));
    int rounds = 0;
    boolean last;
    do {
      last = churn.isDone(); // one more round after the churn ends
      assertEquals(ROWS, SecureFixture.scanAll(table, new Scan().setCaching(100)).size());
      assertEquals(ROWS / 2, SecureFixture.scanAll(table, new Scan().setFilter(even).setCaching(50)).size());
      assertEquals(500, SecureFixture.scanAll(table, new Scan().withStartRow(toBytes(1000L)).withStopRow(toBytes(1500L))).size());
      assertEquals(new AggregateResult(total, ROWS), table.aggregate(new Scan(), F, toBytes("amount")));
      assertEquals(new AggregateResult(evenSum, ROWS / 2), table.aggregate(new Scan().setFilter(new FilterList(even)), F, toBytes("amount")));
      rounds++;
    } while (!last);
    pool.shutdown();
    assertEquals(6, churn.get(), "three splits and three moves, each checked in hbase:meta");
    assertTrue(rounds >= 2, rounds + " rounds of checks");
  }
}
