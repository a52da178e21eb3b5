package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Filters on the secure table against a plain-table oracle loaded with the same data: what runs
 * on ciphertext must return exactly what plain HBase returns; what cannot is refused, or evaluated
 * on the client when the caller opts in.
 */
@ExtendWith(SharedHBaseCluster.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilterTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  p:\n"
          + "    default: { box: STD, type: string }\n"
          + "    columns:\n"
          + "      mainId: { box: DET, type: string }\n"
          + "      city:   { box: DET, type: string }\n"
          + "      ward:   { box: PLAIN, type: string }\n"
          + "      name:   { box: STD, type: string }\n";
  private static final byte[] P = toBytes("p");
  private static final String[] CITIES = {"Porto", "Lisboa", "Braga", "Faro", "Coimbra"};
  private static final int ROWS = 200;

  private Table secure;
  private Table oracle;
  private TableSchema schema;

  @BeforeAll
  void load(Connection hbase) throws IOException {
    schema = SecureFixture.schema("filters", SCHEMA);
    SecureConnection sc = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    TableName oracleName = SharedHBaseCluster.uniqueTableName("filters_oracle");
    try (var admin = hbase.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(oracleName)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("p"))
              .build());
    }
    secure = sc.getTable(SecureFixture.name(schema));
    oracle = hbase.getTable(oracleName);
    Random r = new Random(11);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      Put put = new Put(toBytes(String.format("row-%04d", i)));
      put.addColumn(P, toBytes("mainId"), toBytes("patient-" + i));
      if (i % 10 != 0) { // some rows lack city, for filterIfMissing
        put.addColumn(P, toBytes("city"), toBytes(CITIES[r.nextInt(CITIES.length)]));
      }
      put.addColumn(P, toBytes("ward"), toBytes("W" + r.nextInt(4)));
      put.addColumn(P, toBytes("name"), toBytes("name-" + (char) ('a' + r.nextInt(26)) + i));
      puts.add(put);
    }
    secure.put(puts);
    oracle.put(puts);
  }

  /** Rows as sorted row -> (qualifier -> value); order of rows is not compared (DET keys). */
  private static Map<String, Map<String, String>> rows(Table t, Scan scan) throws IOException {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (Result r : SecureFixture.scanAll(t, scan)) {
      Map<String, String> cells = new TreeMap<>();
      for (Cell c : r.rawCells()) {
        cells.put(Bytes.toString(CellUtil.cloneQualifier(c)), Bytes.toString(CellUtil.cloneValue(c)));
      }
      out.put(Bytes.toString(r.getRow()), cells);
    }
    return out;
  }

  private void assertSameAsOracle(Filter secureFilter, Filter oracleFilter, int minRows, boolean clientSide)
      throws IOException {
    Scan s = new Scan().setFilter(secureFilter);
    if (clientSide) {
      SecureScans.allowClientSideEvaluation(s);
    }
    Map<String, Map<String, String>> expected = rows(oracle, new Scan().setFilter(oracleFilter));
    assertTrue(expected.size() >= minRows, "the oracle should match at least " + minRows + ": " + expected.size());
    assertEquals(expected, rows(secure, s));
  }

  private static SingleColumnValueFilter scvf(String q, CompareOperator op, String value) {
    return new SingleColumnValueFilter(P, toBytes(q), op, new BinaryComparator(toBytes(value)));
  }

  @Test
  void detEqualityRunsOnServer() throws IOException {
    assertSameAsOracle(scvf("mainId", CompareOperator.EQUAL, "patient-42"),
        scvf("mainId", CompareOperator.EQUAL, "patient-42"), 1, false);
    assertSameAsOracle(scvf("city", CompareOperator.EQUAL, "Porto"), scvf("city", CompareOperator.EQUAL, "Porto"), 10, false);
    assertSameAsOracle(scvf("city", CompareOperator.NOT_EQUAL, "Porto"),
        scvf("city", CompareOperator.NOT_EQUAL, "Porto"), 100, false);
  }

  @Test
  void filterIfMissingIsKept() throws IOException {
    for (boolean ifMissing : new boolean[] {false, true}) {
      SingleColumnValueFilter a = scvf("city", CompareOperator.EQUAL, "Braga");
      SingleColumnValueFilter b = scvf("city", CompareOperator.EQUAL, "Braga");
      a.setFilterIfMissing(ifMissing);
      b.setFilterIfMissing(ifMissing);
      assertSameAsOracle(a, b, 10, false);
    }
  }

  @Test
  void plainColumnsAllowAnyComparison() throws IOException {
    assertSameAsOracle(scvf("ward", CompareOperator.LESS, "W2"), scvf("ward", CompareOperator.LESS, "W2"), 50, false);
    assertSameAsOracle(
        new SingleColumnValueFilter(P, toBytes("ward"), CompareOperator.EQUAL, new BinaryPrefixComparator(toBytes("W3"))),
        new SingleColumnValueFilter(P, toBytes("ward"), CompareOperator.EQUAL, new BinaryPrefixComparator(toBytes("W3"))),
        20, false);
  }

  @Test
  void filterListsOfSupportedFilters() throws IOException {
    assertSameAsOracle(
        new FilterList(FilterList.Operator.MUST_PASS_ALL, scvf("city", CompareOperator.EQUAL, "Lisboa"),
            scvf("ward", CompareOperator.EQUAL, "W1")),
        new FilterList(FilterList.Operator.MUST_PASS_ALL, scvf("city", CompareOperator.EQUAL, "Lisboa"),
            scvf("ward", CompareOperator.EQUAL, "W1")),
        2, false);
    assertSameAsOracle(
        new FilterList(FilterList.Operator.MUST_PASS_ONE, scvf("city", CompareOperator.EQUAL, "Lisboa"),
            scvf("city", CompareOperator.EQUAL, "Faro")),
        new FilterList(FilterList.Operator.MUST_PASS_ONE, scvf("city", CompareOperator.EQUAL, "Lisboa"),
            scvf("city", CompareOperator.EQUAL, "Faro")),
        20, false);
  }

  @Test
  void unsupportedFiltersAreRefusedWithPreciseErrors() {
    UnsupportedSecureOperationException range =
        assertThrows(UnsupportedSecureOperationException.class,
            () -> secure.getScanner(new Scan().setFilter(scvf("city", CompareOperator.LESS, "M"))));
    assertTrue(range.getMessage().contains(schema.tableName()), range.getMessage());
    assertTrue(range.column().contains("p:city (DET)"), range.column());
    assertTrue(range.reason().contains("SingleColumnValueFilter LESS cannot run on DET ciphertext"), range.reason());

    UnsupportedSecureOperationException std =
        assertThrows(UnsupportedSecureOperationException.class,
            () -> secure.getScanner(new Scan().setFilter(scvf("name", CompareOperator.EQUAL, "x"))));
    assertTrue(std.column().contains("p:name (STD)"), std.column());

    UnsupportedSecureOperationException value =
        assertThrows(UnsupportedSecureOperationException.class,
            () -> secure.getScanner(new Scan().setFilter(new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(toBytes("x"))))));
    assertTrue(value.reason().startsWith("ValueFilter"), value.reason());

    UnsupportedSecureOperationException prefix =
        assertThrows(UnsupportedSecureOperationException.class,
            () -> secure.getScanner(new Scan().setFilter(new PrefixFilter(toBytes("row-00")))));
    assertTrue(prefix.column().contains("row key (DET)"), prefix.column());

    // Nested inside a list, still refused.
    assertThrows(UnsupportedSecureOperationException.class,
        () -> secure.getScanner(new Scan().setFilter(new FilterList(scvf("city", CompareOperator.EQUAL, "Porto"),
            scvf("name", CompareOperator.GREATER, "m")))));

    UnsupportedSecureOperationException rowRange =
        assertThrows(UnsupportedSecureOperationException.class,
            () -> secure.getScanner(new Scan().withStartRow(toBytes("row-0010")).withStopRow(toBytes("row-0020"))));
    assertTrue(rowRange.reason().contains("row-key range scan"), rowRange.reason());
  }

  @Test
  void clientSideEvaluationWhenOptedIn() throws IOException {
    assertSameAsOracle(scvf("name", CompareOperator.LESS, "name-m"), scvf("name", CompareOperator.LESS, "name-m"), 50, true);
    // AND of a server-side DET equality and a client-side STD range: the server narrows first.
    assertSameAsOracle(
        new FilterList(scvf("city", CompareOperator.EQUAL, "Porto"), scvf("name", CompareOperator.GREATER, "name-g")),
        new FilterList(scvf("city", CompareOperator.EQUAL, "Porto"), scvf("name", CompareOperator.GREATER, "name-g")),
        5, true);
    // OR across server and client parts runs wholly on the client.
    assertSameAsOracle(
        new FilterList(FilterList.Operator.MUST_PASS_ONE, scvf("city", CompareOperator.EQUAL, "Porto"),
            scvf("name", CompareOperator.LESS, "name-c")),
        new FilterList(FilterList.Operator.MUST_PASS_ONE, scvf("city", CompareOperator.EQUAL, "Porto"),
            scvf("name", CompareOperator.LESS, "name-c")),
        20, true);
  }

  @Test
  void rowRangeOnDetKeysWithOptIn() throws IOException {
    Scan s = SecureScans.allowClientSideEvaluation(new Scan().withStartRow(toBytes("row-0010")).withStopRow(toBytes("row-0020")));
    Map<String, Map<String, String>> got = rows(secure, s);
    assertEquals(rows(oracle, new Scan().withStartRow(toBytes("row-0010")).withStopRow(toBytes("row-0020"))), got);
    assertEquals(10, got.size());
    // Inclusive stop and a limit applied after client-side filtering.
    Scan limited = SecureScans.allowClientSideEvaluation(
        new Scan().withStartRow(toBytes("row-0010")).withStopRow(toBytes("row-0020"), true).setLimit(4));
    Map<String, Map<String, String>> four = rows(secure, limited);
    assertEquals(4, four.size());
    assertTrue(rows(oracle, new Scan().withStartRow(toBytes("row-0010")).withStopRow(toBytes("row-0020"), true))
        .keySet().containsAll(four.keySet()));
    // A single-row range on DET keys is a point lookup, no opt-in needed.
    assertEquals(1, rows(secure, new Scan().withStartRow(toBytes("row-0007")).withStopRow(toBytes("row-0007"), true)).size());
  }

  @Test
  void pageFilterAndNoFilter() throws IOException {
    assertEquals(ROWS, rows(secure, new Scan()).size());
    assertEquals(rows(oracle, new Scan()), rows(secure, new Scan()));
    assertEquals(7, rows(secure, new Scan().setFilter(new PageFilter(7))).size());
    assertFalse(rows(secure, new Scan().setFilter(new PageFilter(7))).isEmpty());
  }
}
