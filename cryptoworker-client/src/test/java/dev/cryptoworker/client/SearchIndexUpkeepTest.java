package dev.cryptoworker.client;

import static dev.cryptoworker.client.SearchableColumnTest.F;
import static dev.cryptoworker.client.SearchableColumnTest.TAG;
import static dev.cryptoworker.client.SearchableColumnTest.tagIs;
import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.searchindex.SearchIndexUpkeep;
import dev.cryptoworker.testing.Await;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Index upkeep: each region's search index drops the entries of rows whose value changed or that
 * were deleted, on request and after HBase's major compactions, and searches stay exact.
 */
@ExtendWith(SharedHBaseCluster.class)
class SearchIndexUpkeepTest {
  private static final String[] TAGS = {"flu", "mumps", "measles", "rubella"};

  @Test
  void compactionDropsTheEntriesOfChangedAndDeletedRowsAndSearchesStayExact(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_upkeep");
    TableName stored = SecureFixture.name(fx.schema);
    Map<String, String> tagOf = putRowsAndChangeHalf(fx);
    for (int i = 1; i < 40; i += 2) {
      fx.table.delete(new Delete(toBytes("r" + i)));
      tagOf.remove("r" + i);
    }
    assertEquals(300, SearchIndexUpkeep.run(hbase, stored, false).entriesAfter(),
        "200 rows and 100 new values: the old values' entries stay until compacted");

    SearchIndexUpkeep.Report compacted = SearchIndexUpkeep.run(hbase, stored, true);
    assertEquals(120, compacted.removed(), "100 changed values and 20 deleted rows");
    assertEquals(180, compacted.entriesAfter());
    assertEquals(0, compacted.added());
    assertSearchesMatch(fx, tagOf);

    // HBase's own major compaction compacts the index too, in the background. 50 rows get a new
    // value: 40 of them had one (its entry goes stale), 10 were deleted and come back.
    for (int i = 1; i < 200; i += 4) {
      fx.table.put(tagged("r" + i, "pertussis", tagOf));
    }
    assertEquals(180 + 50, SearchIndexUpkeep.run(hbase, stored, false).entriesAfter());
    try (Admin admin = hbase.getAdmin()) {
      admin.flush(stored); // HBase compacts store files, not the memstore
      admin.majorCompact(stored);
    }
    Await.until(() -> SearchIndexUpkeep.run(hbase, stored, false).entriesAfter() == 190, List.of(), 1_500,
        () -> "entries: " + entries(hbase, stored));
    assertSearchesMatch(fx, tagOf);
  }

  @Test
  void splitRegionsTakeTheirParentsEntriesAndSearchesStayExact(Connection hbase) throws Exception {
    SearchableColumnTest.Fixture fx = new SearchableColumnTest.Fixture(hbase, "sse_split");
    TableName stored = SecureFixture.name(fx.schema);
    try (Admin admin = hbase.getAdmin()) {
      // An after-split compaction is a major one, which compacts the index too: keep it out of the count.
      admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(stored)).setCompactionEnabled(false).build());
    }
    Map<String, String> tagOf = putRowsAndChangeHalf(fx);
    assertEquals(300, SearchIndexUpkeep.run(hbase, stored, false).entriesAfter(), "200 rows and 100 stale entries");

    int upper;
    try (Admin admin = hbase.getAdmin()) {
      admin.flush(stored);
      // The region holding most rows is split at the middle of its rows. Its rows above the split
      // point get a new value and their own file first, which then lies wholly in one daughter: a
      // split links such a file instead of writing a reference to half of it.
      TreeMap<byte[], String> rowOf = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      for (String row : tagOf.keySet()) {
        rowOf.put(fx.codec.encodeRow(toBytes(row)), row);
      }
      RegionInfo parent = admin.getRegions(stored).stream()
          .max(Comparator.comparingLong(r -> rowOf.keySet().stream().filter(r::containsRow).count())).orElseThrow();
      List<byte[]> parentKeys = rowOf.keySet().stream().filter(parent::containsRow).toList();
      assertTrue(parentKeys.size() > 100, parentKeys.size() + " rows in the region split");
      byte[] middle = parentKeys.get(parentKeys.size() / 2);
      List<byte[]> above = parentKeys.subList(parentKeys.size() / 2, parentKeys.size());
      upper = above.size();
      for (byte[] key : above) {
        fx.table.put(tagged(rowOf.get(key), "pertussis", tagOf));
      }
      admin.flush(stored);
      admin.splitRegionAsync(parent.getRegionName(), middle).get();
      assertEquals(5, admin.getRegions(stored).size());
    }
    // Reading the daughters' index cells would find only their rows' current entries (200).
    assertEquals(300 + upper, SearchIndexUpkeep.run(hbase, stored, false).entriesAfter(),
        "both daughters took their parent's entries, stale ones included");
    assertSearchesMatch(fx, tagOf);
    for (int i = 200; i < 260; i++) {
      fx.table.put(tagged("r" + i, "rubella", tagOf));
    }
    assertSearchesMatch(fx, tagOf);
  }

  /** Puts 200 rows, then gives every other one a new value; returns each row's value. */
  private static Map<String, String> putRowsAndChangeHalf(SearchableColumnTest.Fixture fx) throws Exception {
    Map<String, String> tagOf = new TreeMap<>();
    List<Put> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add(tagged("r" + i, TAGS[i % TAGS.length], tagOf));
    }
    fx.table.put(rows);
    List<Put> changed = new ArrayList<>();
    for (int i = 0; i < 200; i += 2) {
      changed.add(tagged("r" + i, TAGS[(i + 1) % TAGS.length], tagOf));
    }
    fx.table.put(changed);
    return tagOf;
  }

  private static Put tagged(String key, String tag, Map<String, String> tagOf) {
    tagOf.put(key, tag);
    return new Put(toBytes(key)).addColumn(F, TAG, toBytes(tag));
  }

  private static void assertSearchesMatch(SearchableColumnTest.Fixture fx, Map<String, String> tagOf) throws Exception {
    for (String tag : List.of("flu", "mumps", "measles", "rubella", "pertussis")) {
      List<String> expected = tagOf.entrySet().stream().filter(e -> e.getValue().equals(tag)).map(Map.Entry::getKey)
          .sorted().toList();
      List<String> found = new ArrayList<>(fx.search(tagIs(tag)));
      found.sort(null);
      assertEquals(expected, found, tag);
    }
  }

  private static String entries(Connection hbase, TableName stored) {
    try {
      return Long.toString(SearchIndexUpkeep.run(hbase, stored, false).entriesAfter());
    } catch (Exception e) {
      return e.toString();
    }
  }
}
