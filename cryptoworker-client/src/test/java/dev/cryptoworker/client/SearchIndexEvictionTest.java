package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.KIND;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static dev.cryptoworker.client.SearchableColumnTest.tagIs;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Filters ANDed with an SSE equality may hide the index cells in the region's candidate scan
 * (qualifier and column-prefix filters); the rows still match, and their live index entries stay (a search once forgot them until the region
 * reopened). Scan options the index cannot honour are refused by name.
 */
@ExtendWith(SharedHBaseCluster.class)
class SearchIndexEvictionTest {
  private static List<String> rows(SecureTable table, Scan scan) throws Exception {
    List<String> out = new ArrayList<>();
    for (Result r : SecureFixture.scanAll(table, scan)) {
      out.add(Bytes.toString(r.getRow()));
    }
    return out;
  }

  @Test
  void filtersThatHideIndexCellsNeitherLoseRowsNorEvictEntries(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_evict");
    TreeSet<String> flu = new TreeSet<>();
    for (int i = 0; i < 40; i++) {
      String tag = i % 4 == 0 ? "flu" : "cold";
      fx.table.put(new Put(toBytes("r-" + i)).addColumn(F, TAG, toBytes(tag)).addColumn(F, KIND, toBytes("k" + i)));
      if (tag.equals("flu")) {
        flu.add("r-" + i);
      }
    }
    assertEquals(flu, new TreeSet<>(fx.search(tagIs("flu"))));
    List<Filter> hiding = List.of(new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(KIND)),
        new ColumnPrefixFilter(toBytes("ki")));
    for (Filter hide : hiding) {
      Scan scan = new Scan().setFilter(new FilterList(FilterList.Operator.MUST_PASS_ALL, tagIs("flu"), hide));
      assertEquals(flu, new TreeSet<>(rows(fx.table, scan)), hide.getClass().getSimpleName());
      // The entries are still in the region's map: a plain search finds every row.
      assertEquals(flu, new TreeSet<>(fx.search(tagIs("flu"))), "after " + hide.getClass().getSimpleName());
    }
  }

  @Test
  void scanOptionsTheIndexCannotHonourAreRefusedByName(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_options");
    List<Scan> refused = List.of(new Scan().setFilter(tagIs("flu")).setColumnFamilyTimeRange(F, 0, 10),
        new Scan().setFilter(tagIs("flu")).setMaxResultsPerColumnFamily(1),
        new Scan().setFilter(tagIs("flu")).setRowOffsetPerColumnFamily(1),
        new Scan().setFilter(new FilterList(FilterList.Operator.MUST_PASS_ALL, tagIs("flu"), new FirstKeyOnlyFilter())));
    for (Scan scan : refused) {
      UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
          () -> fx.table.getScanner(scan));
      assertTrue(e.getMessage().contains("search index, which does not support "), e.getMessage());
    }
  }
}
