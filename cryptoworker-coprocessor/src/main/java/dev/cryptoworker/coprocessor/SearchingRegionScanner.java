package dev.cryptoworker.coprocessor;

import dev.cryptoworker.coprocessor.RegionSearchIndex.EntryKey;
import dev.cryptoworker.cryptobox.search.CounterTree;
import dev.cryptoworker.cryptobox.search.SubtreeToken;
import dev.cryptoworker.region.RegionRequests;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.region.SearchRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.IsolationLevel;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Answers a scan from the search index instead of reading the region: expands the request's tokens
 * into entry keys, looks the keys of its smallest clause up in the region's {@link
 * RegionSearchIndex}, and reads only those rows, in row order, with the scan's own families, filter
 * and versions. A row is returned only if its current index cell for every clause holds one of the
 * clause's keys, so an entry of an overwritten or deleted value never returns its row; such
 * entries are dropped from the map as they are found. The caller's filter may hide index cells
 * (a qualifier filter, FirstKeyOnlyFilter): a row whose filtered cells do not show a match has its
 * index cells read again without the filter, and is returned, or its entries forgotten, by those.
 * Only entries of writes visible at this scanner's read point are forgotten: a write in flight has
 * its entry in the map before its cells are visible ({@link RegionSearchIndex}).
 */
final class SearchingRegionScanner extends AnsweringRegionScanner {
  /** Refuses requests that would make a region expand more keys than this (2^24, 16 M). */
  static final long MAX_KEYS = 1L << 24;

  /** One term: where its index cells are and the keys its tokens reach. */
  private record Term(byte[] family, byte[] indexQualifier, Set<EntryKey> keys) {}

  private final Region region;
  private final RegionSearchIndex index;
  private final List<List<Term>> clauses;
  private final TreeMap<byte[], List<EntryKey>> candidates = new TreeMap<>(Bytes.BYTES_COMPARATOR);
  private final Set<byte[]> seen = new TreeSet<>(Bytes.BYTES_COMPARATOR);
  private final boolean unfiltered;
  private final RegionScanner inner;
  /**
   * The newest write whose entries this search may forget: its read point. None under
   * READ_UNCOMMITTED, whose scanners read at the newest write point while the checks of current
   * index cells read committed cells only.
   */
  private final long forgetsUpTo;
  private boolean done;

  private SearchingRegionScanner(Region region, RegionScanner opened, Scan scan, RegionSearchIndex index,
      List<List<Term>> clauses) throws IOException {
    super("a search scan cannot reseek", opened);
    this.region = region;
    this.index = index;
    this.clauses = clauses;
    this.unfiltered = scan.getFilter() == null && scan.getTimeRange().isAllTime();
    List<Term> smallest = clauses.get(0);
    for (List<Term> clause : clauses) {
      if (keyCount(clause) < keyCount(smallest)) {
        smallest = clause;
      }
    }
    for (Term term : smallest) {
      for (EntryKey key : term.keys) {
        byte[] row = index.rowOf(key);
        if (row != null && inRange(scan, row)) {
          candidates.computeIfAbsent(row, r -> new ArrayList<>()).add(key);
        }
      }
    }
    this.inner = candidates.isEmpty() ? null : region.getScanner(candidateScan(scan));
    this.forgetsUpTo = inner == null || scan.getIsolationLevel() == IsolationLevel.READ_UNCOMMITTED ? -1
        : inner.getMvccReadPoint();
  }

  /**
   * Opens the search over {@code region}.
   *
   * @throws DoNotRetryIOException if a token is malformed or the request reaches too many keys
   */
  static SearchingRegionScanner open(Region region, RegionScanner opened, Scan scan, SearchRequest request,
      RegionSearchIndex index) throws IOException {
    List<List<Term>> clauses = new ArrayList<>();
    long total = 0;
    for (List<SearchRequest.Term> clause : request.clauses()) {
      List<Term> terms = new ArrayList<>();
      for (SearchRequest.Term t : clause) {
        Set<EntryKey> keys = new HashSet<>();
        for (byte[] bytes : t.tokens()) {
          SubtreeToken token;
          try {
            token = SubtreeToken.parse(bytes);
          } catch (IllegalArgumentException e) {
            throw new DoNotRetryIOException("refused search request: " + e.getMessage());
          }
          total += token.leafCount();
          if (total > MAX_KEYS) {
            throw new DoNotRetryIOException("refused search request: its tokens reach more than " + MAX_KEYS
                + " index entries");
          }
          CounterTree.expand(token, leaf -> keys.add(EntryKey.of(leaf, 0)));
        }
        terms.add(new Term(t.family(), t.indexQualifier(), keys));
      }
      clauses.add(terms);
    }
    return new SearchingRegionScanner(region, opened, scan, index, clauses);
  }

  private static long keyCount(List<Term> clause) {
    return clause.stream().mapToLong(t -> t.keys.size()).sum();
  }

  private static boolean inRange(Scan scan, byte[] row) {
    byte[] start = scan.getStartRow();
    byte[] stop = scan.getStopRow();
    int fromStart = Bytes.compareTo(row, start);
    if (start.length > 0 && (fromStart < 0 || (fromStart == 0 && !scan.includeStartRow()))) {
      return false;
    }
    if (stop.length == 0) {
      return true;
    }
    int toStop = Bytes.compareTo(row, stop);
    return toStop < 0 || (toStop == 0 && scan.includeStopRow());
  }

  /** The caller's scan narrowed to the candidate rows, reading every clause's index cells too. */
  private Scan candidateScan(Scan scan) throws IOException {
    Scan s = new Scan(scan);
    s.setAttribute(RegionRequests.SEARCH_ATTRIBUTE, null);
    s.setAttribute(RegionRequests.ATTRIBUTE, null);
    s.setLimit(-1);
    List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
    for (byte[] row : candidates.keySet()) {
      ranges.add(new MultiRowRangeFilter.RowRange(row, true, row, true));
    }
    Filter rows = new MultiRowRangeFilter(ranges);
    s.setFilter(scan.getFilter() == null ? rows : new FilterList(FilterList.Operator.MUST_PASS_ALL, rows, scan.getFilter()));
    s.withStartRow(candidates.firstKey(), true).withStopRow(candidates.lastKey(), true);
    if (scan.hasFamilies()) {
      for (List<Term> clause : clauses) {
        for (Term t : clause) {
          NavigableSet<byte[]> columns = s.getFamilyMap().get(t.family);
          if (!s.getFamilyMap().containsKey(t.family) || columns != null) {
            s.addColumn(t.family, t.indexQualifier);
          }
        }
      }
    }
    return s;
  }

  @Override
  public boolean nextRaw(List<Cell> result) throws IOException {
    if (done || inner == null) {
      done = true;
      return false;
    }
    List<Cell> row = new ArrayList<>();
    boolean more;
    do {
      row.clear();
      more = inner.nextRaw(row);
      if (!row.isEmpty()) {
        byte[] key = CellUtil.cloneRow(row.get(0));
        seen.add(key);
        if (matches(row)) {
          result.addAll(row);
          return more;
        }
        List<Cell> indexCells = currentIndexCells(key);
        if (matches(indexCells)) {
          result.addAll(row); // the caller's filter hid the index cells, not the match
          return more;
        }
        forgetStale(key, indexCells);
      }
    } while (more);
    finish();
    return false;
  }

  private boolean matches(List<Cell> row) {
    for (List<Term> clause : clauses) {
      boolean any = false;
      for (Term t : clause) {
        Cell current = latest(row, t);
        any |= current != null && t.keys.contains(RegionSearchIndex.entryKey(current));
      }
      if (!any) {
        return false;
      }
    }
    return true;
  }

  /** The newest index cell of {@code t} in the row (cells of a column come newest first). */
  private static Cell latest(List<Cell> row, Term t) {
    for (Cell c : row) {
      if (CellUtil.matchingColumn(c, t.family, t.indexQualifier)) {
        return c;
      }
    }
    return null;
  }

  /** The row's current index cells of every term, read without the caller's filter, time range or columns. */
  private List<Cell> currentIndexCells(byte[] row) throws IOException {
    Get get = new Get(row);
    for (List<Term> clause : clauses) {
      for (Term t : clause) {
        get.addColumn(t.family, t.indexQualifier);
      }
    }
    return region.get(get, false);
  }

  /** The candidate's entries that its current index cells ({@code cells}, unfiltered) no longer hold leave the map. */
  private void forgetStale(byte[] row, List<Cell> cells) {
    List<EntryKey> keys = candidates.get(row);
    if (keys == null) {
      return;
    }
    Set<EntryKey> held = new HashSet<>();
    for (Cell c : cells) {
      if (SearchIndexCells.isIndexQualifier(
          c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())) {
        held.add(RegionSearchIndex.entryKey(c));
      }
    }
    for (EntryKey k : keys) {
      if (!held.contains(k)) {
        index.forget(k, row, forgetsUpTo);
      }
    }
  }

  /** Without a filter, a candidate the scan never met has been deleted: its entries leave the map. */
  private void finish() {
    done = true;
    if (!unfiltered) {
      return;
    }
    for (Map.Entry<byte[], List<EntryKey>> c : candidates.entrySet()) {
      if (!seen.contains(c.getKey())) {
        c.getValue().forEach(k -> index.forget(k, c.getKey(), forgetsUpTo));
      }
    }
  }

  /**
   * Always false: "filter done" would tell the client that no later region can match either, and
   * end a scan that spans several regions after the first one without matches.
   */
  @Override
  public boolean isFilterDone() {
    return false;
  }

  @Override
  public long getMaxResultSize() {
    return Long.MAX_VALUE;
  }

  @Override
  public int getBatch() {
    return -1;
  }

  @Override
  public void close() throws IOException {
    try {
      if (inner != null) {
        inner.close();
      }
    } finally {
      super.close(); // the scanner HBase opened
    }
  }
}
