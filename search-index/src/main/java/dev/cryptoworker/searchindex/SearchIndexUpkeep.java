package dev.cryptoworker.searchindex;

import dev.cryptoworker.region.IndexUpkeepRequest;
import dev.cryptoworker.region.RegionRequests;
import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * The region-side search index of a table with SSE columns: how many entries its regions hold,
 * and, on request, its compaction ({@link IndexUpkeepRequest}), one region after another. Regions
 * also compact their index by themselves after each major compaction (HBase's {@code
 * major_compact}, or its schedule). Keyless: it needs no key and reveals nothing new to the
 * servers, which see index cells overwritten as rows change.
 */
public final class SearchIndexUpkeep {
  /** What the regions answered, summed. */
  public record Report(int regions, long entriesBefore, long entriesAfter, long removed, long added) {}

  private SearchIndexUpkeep() {}

  /**
   * Asks every region of {@code table} (the stored table) for its index size, after compacting the
   * index if {@code compact}.
   *
   * @throws IOException if a region refuses (no search index: not a table with SSE columns, or one
   *     whose index could not be read) or answers with something else
   */
  public static Report run(Connection hbase, TableName table, boolean compact) throws IOException {
    byte[] request = RegionRequests.encode(new IndexUpkeepRequest(compact));
    int regions = 0;
    long before = 0;
    long after = 0;
    long removed = 0;
    long added = 0;
    try (RegionLocator locator = hbase.getRegionLocator(table); Table raw = hbase.getTable(table)) {
      for (HRegionLocation location : locator.getAllRegionLocations()) {
        Scan scan = new Scan().withStartRow(location.getRegion().getStartKey())
            .withStopRow(location.getRegion().getEndKey()).setCacheBlocks(false);
        scan.setAttribute(RegionRequests.ATTRIBUTE, request);
        IndexUpkeepRequest.Answer answer = null;
        try (ResultScanner answers = raw.getScanner(scan)) {
          for (Result r = answers.next(); r != null; r = answers.next()) {
            for (Cell c : r.rawCells()) {
              if (answer != null || !CellUtil.matchingQualifier(c, IndexUpkeepRequest.ANSWER_QUALIFIER)) {
                throw new IOException("table " + table + ", region " + location.getRegion().getRegionNameAsString()
                    + ": answered an index upkeep request with a cell that is not one region's answer");
              }
              answer = IndexUpkeepRequest.Answer.parse(CellUtil.cloneValue(c));
            }
          }
        } catch (IllegalArgumentException e) {
          throw new IOException("table " + table + ", region " + location.getRegion().getRegionNameAsString()
              + ": malformed index upkeep answer: " + e.getMessage(), e);
        }
        if (answer == null) {
          throw new IOException("table " + table + ", region " + location.getRegion().getRegionNameAsString()
              + " did not answer an index upkeep request: its region servers need this version's coprocessor");
        }
        regions++;
        before += answer.entriesBefore();
        after += answer.entriesAfter();
        removed += answer.removed();
        added += answer.added();
      }
    }
    return new Report(regions, before, after, removed, added);
  }
}
