package dev.cryptoworker.cli.plan;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planned ad-analytics schema creates a table on which the sample queries run on the servers,
 * as the client's query plans ({@code SecureTable.plan}) say and their results show.
 */
@ExtendWith(SharedHBaseCluster.class)
class PlannedTableTest {
  private static final byte[] A = toBytes("a");
  private static final byte[] E = toBytes("e");
  private static final String[] COUNTRIES = {"FR", "DE", "US"};
  private static final String[] DEVICES = {"mobile", "desktop", "tablet"};

  @TempDir Path dir;

  private record Impression(String key, String campaign, String advertiser, String country, String device, long day,
      long impressions, long clicks, long revenue) {}

  @Test
  void theSampleQueriesRunThroughSecureTable(Connection hbase) throws Exception {
    SchemaPlan plan = SchemaPlannerTest.plan("ads-plaintext.yaml", "ads-queries.sql");
    TableSchema schema = plan.schema().toBuilder()
        .tableName(SharedHBaseCluster.uniqueTableName("planned").getNameAsString()).build();
    Path keyset = dir.resolve("keyset.json");
    KeyEncryptionKey kek = KeyEncryptionKey.fromEnvironment("K", Map.of("K", KeyEncryptionKey.generateBase64()));
    KeysetFiles.generate(keyset, kek);
    List<Impression> rows = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      rows.add(new Impression(String.format("202401%02d#%04d", 1 + i % 20, i), i % 4 == 0 ? "spring-sale" : "c" + i % 7,
          "adv" + i % 3, COUNTRIES[i % 3], DEVICES[i % 5 % 3], 20240101 + i % 40, 1 + i % 2, i % 5, 100L * i));
    }
    try (SecureConnection secure = SecureConnection.wrap(hbase, KeyProvider.fromKeysetFile(keyset, kek), List.of(schema))) {
      secure.createTable(schema);
      SecureTable table = secure.getSecureTable(org.apache.hadoop.hbase.TableName.valueOf(schema.tableName()));
      List<Put> puts = new ArrayList<>();
      for (Impression r : rows) {
        puts.add(new Put(toBytes(r.key())).addColumn(A, toBytes("campaign"), toBytes(r.campaign()))
            .addColumn(A, toBytes("advertiser"), toBytes(r.advertiser()))
            .addColumn(E, toBytes("country"), toBytes(r.country())).addColumn(E, toBytes("device"), toBytes(r.device()))
            .addColumn(E, toBytes("day"), toBytes(r.day())).addColumn(E, toBytes("impressions"), toBytes(r.impressions()))
            .addColumn(E, toBytes("clicks"), toBytes(r.clicks())).addColumn(E, toBytes("revenue"), toBytes(r.revenue())));
      }
      table.put(puts);

      // SELECT * FROM ads WHERE rowkey >= '20240101' AND rowkey < '20240108'
      Scan weekScan = new Scan().withStartRow(toBytes("20240101")).withStopRow(toBytes("20240108"));
      assertFalse(table.plan(weekScan).evaluatesOnClient(), table.plan(weekScan).describe());
      int week = 0;
      try (ResultScanner s = table.getScanner(weekScan)) {
        for (Result r : s) {
          week++;
        }
      }
      assertEquals(rows.stream().filter(r -> r.key().compareTo("20240108") < 0).count(), week);

      // SELECT SUM(clicks), SUM(impressions) FROM ads WHERE campaign = 'spring-sale'
      Scan spring = new Scan().setFilter(equal(A, "campaign", toBytes("spring-sale")));
      assertTrue(table.plan(spring, AggregateQuery.of(E, toBytes("clicks"))).describe()
          .startsWith("region servers: SSE index search in every region"));
      AggregateResult clicks = table.aggregate(spring, E, toBytes("clicks"));
      assertEquals(rows.stream().filter(r -> r.campaign().equals("spring-sale")).mapToLong(Impression::clicks).sum(),
          clicks.sum());

      // SELECT SUM(revenue), COUNT(revenue) FROM ads WHERE country = 'FR'
      AggregateResult fr = table.aggregate(new Scan().setFilter(equal(E, "country", toBytes("FR"))), E,
          toBytes("revenue"));
      assertEquals(new AggregateResult(rows.stream().filter(r -> r.country().equals("FR")).mapToLong(Impression::revenue)
          .sum(), rows.stream().filter(r -> r.country().equals("FR")).count()), fr);

      // SELECT device, SUM(clicks) FROM ads GROUP BY device
      Map<String, Long> expected = new TreeMap<>();
      rows.forEach(r -> expected.merge(r.device(), r.clicks(), Long::sum));
      assertEquals(expected, sums(table.aggregateBy(new Scan(), E, toBytes("clicks"), E, toBytes("device"))));

      // SELECT advertiser, SUM(revenue) FROM ads WHERE day BETWEEN 20240101 AND 20240131 GROUP BY advertiser
      Map<String, Long> january = new TreeMap<>();
      rows.stream().filter(r -> r.day() <= 20240131).forEach(r -> january.merge(r.advertiser(), r.revenue(), Long::sum));
      FilterList days = new FilterList(
          new SingleColumnValueFilter(E, toBytes("day"), CompareOperator.GREATER_OR_EQUAL, toBytes(20240101L)),
          new SingleColumnValueFilter(E, toBytes("day"), CompareOperator.LESS_OR_EQUAL, toBytes(20240131L)));
      assertEquals(january, sums(table.aggregateBy(new Scan().setFilter(days), E, toBytes("revenue"), A,
          toBytes("advertiser"))));
    }
  }

  private static SingleColumnValueFilter equal(byte[] family, String qualifier, byte[] value) {
    SingleColumnValueFilter f = new SingleColumnValueFilter(family, toBytes(qualifier), CompareOperator.EQUAL,
        new BinaryComparator(value));
    f.setFilterIfMissing(true);
    return f;
  }

  private static Map<String, Long> sums(NavigableMap<byte[], AggregateResult> groups) {
    Map<String, Long> out = new TreeMap<>();
    groups.forEach((k, v) -> out.put(Bytes.toString(k), v.sum()));
    return out;
  }
}
