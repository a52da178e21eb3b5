package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyset rotation: data written under the old key still reads, row keys stay addressable, and
 * DET/OPE searches find rows written under every active key version; a wrong keyset is a clear
 * error, never a wrong value.
 */
@ExtendWith(SharedHBaseCluster.class)
class KeyRotationTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD, type: string }\n"
          + "    columns:\n"
          + "      city:  { box: DET, type: string }\n"
          + "      day:   { box: OPE, type: date, companion: STD }\n"
          + "      score: { box: OPE, type: long }\n"
          + "      paid:  { box: ASHE, type: long }\n"
          + "  visits:\n"
          + "    default: { box: STD }\n"
          + "    protectQualifiers: true\n";
  private static final byte[] F = toBytes("f");

  private static Put row(String id, String city, String day, long score) {
    return new Put(toBytes(id)).addColumn(F, toBytes("name"), toBytes("name of " + id))
        .addColumn(F, toBytes("city"), toBytes(city)).addColumn(F, toBytes("day"), toBytes(day))
        .addColumn(F, toBytes("score"), toBytes(score)).addColumn(F, toBytes("paid"), toBytes(score * 10))
        .addColumn(toBytes("visits"), toBytes("V-" + id), toBytes("visit of " + id));
  }

  private static Set<String> rows(Table t, Filter filter) throws Exception {
    Set<String> out = new TreeSet<>();
    for (Result r : SecureFixture.scanAll(t, new Scan().setFilter(filter))) {
      out.add(Bytes.toString(r.getRow()));
    }
    return out;
  }

  private static SingleColumnValueFilter cmp(String q, CompareOperator op, byte[] v) {
    return new SingleColumnValueFilter(F, toBytes(q), op, new BinaryComparator(v));
  }

  @Test
  void rotatedKeysetReadsAndFindsEverything(Connection hbase, @TempDir Path dir) throws Exception {
    Path keyset = dir.resolve("keyset.json");
    KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(new SecureRandom().generateSeed(32));
    KeysetFiles.generate(keyset, kek);
    TableSchema schema = SecureFixture.schema("rotation", SCHEMA);
    SecureConnection before = SecureFixture.createSecure(hbase, KeyProvider.fromKeysetFile(keyset, kek), schema);
    try (Table t = before.getTable(SecureFixture.name(schema))) {
      t.put(List.of(row("old-1", "Porto", "2019-01-10", 5), row("old-2", "Braga", "2019-06-01", 50)));
    }

    KeysetFiles.rotate(keyset, kek);
    SecureConnection after = SecureConnection.wrap(hbase, KeyProvider.fromKeysetFile(keyset, kek), List.of(schema));
    try (Table t = after.getTable(SecureFixture.name(schema))) {
      t.put(List.of(row("new-1", "Porto", "2019-03-15", 7), row("new-2", "Faro", "2020-02-02", 70)));
      // Old data reads; the row key and protected qualifier still address it.
      Result old = t.get(new Get(toBytes("old-1")));
      assertEquals("name of old-1", Bytes.toString(old.getValue(F, toBytes("name"))));
      assertEquals("2019-01-10", Bytes.toString(old.getValue(F, toBytes("day"))));
      assertEquals("visit of old-1", Bytes.toString(old.getValue(toBytes("visits"), toBytes("V-old-1"))));
      // Searches cover both key versions.
      assertEquals(Set.of("new-1", "old-1"), rows(t, cmp("city", CompareOperator.EQUAL, toBytes("Porto"))));
      assertEquals(Set.of("new-2", "old-2"), rows(t, cmp("city", CompareOperator.NOT_EQUAL, toBytes("Porto"))));
      assertEquals(Set.of("new-1", "old-1"), rows(t, cmp("day", CompareOperator.LESS, toBytes("2019-05-01"))));
      assertEquals(Set.of("new-2", "old-2"), rows(t, cmp("day", CompareOperator.GREATER_OR_EQUAL, toBytes("2019-05-01"))));
      assertEquals(Set.of("new-1", "old-1", "old-2"), rows(t, cmp("score", CompareOperator.LESS_OR_EQUAL, toBytes(50L))));
      assertEquals(Set.of("old-2"), rows(t, cmp("score", CompareOperator.EQUAL, toBytes(50L))));
      assertEquals(Set.of("new-1", "new-2", "old-1"), rows(t, cmp("score", CompareOperator.NOT_EQUAL, toBytes(50L))));
      // Sums add values of both key versions.
      assertEquals(new AggregateResult(1320, 4), after.getSecureTable(SecureFixture.name(schema))
          .aggregate(new Scan(), F, toBytes("paid")));
      // Grouping by a DET column: Porto is stored under both key versions, and is still one group.
      NavigableMap<byte[], AggregateResult> byCity = after.getSecureTable(SecureFixture.name(schema))
          .aggregateBy(new Scan(), F, toBytes("paid"), F, toBytes("city"));
      assertEquals(new AggregateResult(120, 2), byCity.get(toBytes("Porto")));
      assertEquals(3, byCity.size());
    }
    // A provider without the new key cannot read new data: a clear error naming the key id.
    try (Table t = before.getTable(SecureFixture.name(schema))) {
      CellDecodingException e = assertThrows(CellDecodingException.class, () -> t.get(new Get(toBytes("new-1"))));
      assertTrue(e.reason().contains("key id"), e.reason());
    }
    // The wrong key-encryption key cannot open the keyset at all.
    assertThrows(GeneralSecurityException.class,
        () -> KeyProvider.fromKeysetFile(keyset, KeyEncryptionKey.fromBytes(new byte[32])));
  }
}
