package dev.cryptoworker.client.aggregate;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.cell.RegionFanOut;
import dev.cryptoworker.client.cell.ScanPlan;
import dev.cryptoworker.client.cell.ScanPlanner;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.migrate.MigratingColumns;
import dev.cryptoworker.cryptobox.AdditiveAggregation;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
import dev.cryptoworker.cryptobox.expansion.PresplitMeasure;
import dev.cryptoworker.region.AggregationRequest;
import dev.cryptoworker.region.RegionRequests;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Sums, counts and averages through the region-side Process step: the scan (row range and
 * server-side filters, encoded as for any scan) carries an {@link AggregationRequest} to every
 * region it touches, in parallel ({@link RegionFanOut}); each region adds its rows without keys
 * and the client hands the partials to the column box's {@link AdditiveAggregation} to decrypt.
 */
public final class AggregationClient {
  private final TableCodec codec;
  private final ScanPlanner planner;
  private final RegionFanOut regions;

  public AggregationClient(TableCodec codec, ScanPlanner planner, RegionFanOut regions) {
    this.codec = codec;
    this.planner = planner;
    this.regions = regions;
  }

  /** Sum, count and average; a presplit measure (SPLASHE) is summed per part (see {@link #presplitCondition}). */
  public AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    List<AggregateGroup> all = aggregateRange(scan, AggregateQuery.of(family, qualifier), ALL, ALL);
    return all.isEmpty() ? new AggregateResult(0, 0) : all.get(0).measures().get(0);
  }

  /** Grouped aggregates; grouping a presplit measure by its dimension sums the stored parts. */
  public NavigableMap<byte[], AggregateResult> aggregateBy(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) throws IOException {
    NavigableMap<byte[], AggregateResult> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (AggregateGroup g : aggregateRange(scan, AggregateQuery.groupedBy(family, qualifier, groupFamily,
        groupQualifier), ALL, ALL)) {
      out.put(g.firstKey(), g.measures().get(0));
    }
    return out;
  }

  /**
   * {@code query} over the rows of {@code scan} stored in [{@code storedStart}, {@code storedStop})
   * (empty: unbounded), one entry per group that has a selected row (with a measure, unless the
   * query counts rows), in key order (null before any value).
   */
  public List<AggregateGroup> aggregateRange(Scan scan, AggregateQuery query, byte[] storedStart, byte[] storedStop)
      throws IOException {
    StoredRange range = new StoredRange(storedStart, storedStop);
    SplayedGrouping splayed = splayedGrouping(query);
    if (splayed != null) {
      return runSplayed(scan, query, splayed, range);
    }
    if (!query.isSingleMeasure() || query.grouped()) {
      return run(scan, query, range);
    }
    byte[] family = query.measures().get(0).family();
    PresplitCondition c = presplitCondition(scan.getFilter(), family, query.measures().get(0).qualifier());
    if (c == null) {
      return run(scan, query, range);
    }
    // no row can hold a value outside the declared ones
    Optional<PresplitMeasure.Part> part = c.measure().part(c.value());
    AggregateResult r = part.isEmpty() ? new AggregateResult(0, 0)
        : presplit(new Scan(scan).setFilter(c.rest()), family, part.get(), range);
    return r.count() > 0 ? List.of(new AggregateGroup(List.of(), List.of(r), 0)) : List.of();
  }

  /** Group keys in order: element by element, a null group before any value. */
  private static final Comparator<AggregateGroup> KEY_ORDER = (a, b) -> {
    for (int i = 0; i < a.key().size(); i++) {
      int c = Comparator.nullsFirst(Bytes.BYTES_COMPARATOR).compare(a.key().get(i), b.key().get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  };

  /**
   * How {@code query} would run: the refusals of {@link #aggregateRange}, then the scan's server
   * part, the addition in each region and the decryption in the client.
   */
  public QueryPlan plan(Scan scan, AggregateQuery query) throws IOException {
    SplayedGrouping splayed = splayedGrouping(query);
    AggregateQuery.Column first = query.measures().isEmpty() ? null : query.measures().get(0);
    PresplitCondition c = !query.isSingleMeasure() || query.grouped() ? null
        : presplitCondition(scan.getFilter(), first.family(), first.qualifier());
    Scan rows = c == null ? scan : new Scan(scan).setFilter(c.rest());
    Optional<PresplitMeasure.Part> asked = c == null ? Optional.empty() : c.measure().part(c.value());
    if (asked.isPresent()) {
      rows = partRows(rows, first.family(), asked.get());
    }
    String adds;
    if (splayed != null) {
      for (SplayedPass pass : splayed.passes(query)) {
        check(rows, pass.query());
      }
      adds = "adds the parts of the measures stored presplit by the dimension's values (one pass for the values"
          + " with columns of their own, one more per value sharing its columns)"
          + (query.groups().size() > 1 ? " per stored value of the other group columns" : "");
    } else if (c != null) {
      requireNotMigrating(rows, query.measures(), List.of());
      adds = "adds the parts of the measure stored presplit by the dimension's value";
    } else {
      check(rows, query);
      adds = (query.measures().isEmpty() ? "counts the rows"
          : "adds " + (query.measures().size() == 1 ? "the measure" : query.measures().size() + " measures")
              + (query.countsRows() ? " and counts the rows" : ""))
          + (query.grouped() ? " per stored group value" + (query.groups().size() > 1 ? " tuple" : "") : "")
          + (query.nullGroups() && query.grouped() ? ", rows lacking a group column in a null group," : "")
          + " in one pass";
    }
    QueryPlan rowsPlan = serverPlan(rows).toQueryPlan(codec.table());
    List<QueryPlan.Step> steps = new ArrayList<>(rowsPlan.stepsAt(QueryPlan.Site.REGION_SERVERS));
    String what = query.measures().isEmpty() ? "one row count" : "one partial sum per measure";
    steps.add(QueryPlan.Step.onServers("each region " + adds + " over ciphertext and returns " + what
        + (query.grouped() ? " per group" : ""), splayed != null ? SPLAYED_LEAKS : leaks(query)));
    steps.add(QueryPlan.Step.onClient((query.measures().isEmpty() ? "adds the region counts"
        : "combines the partial sums and decrypts them") + (query.grouped() ? " and the group keys" : "")));
    return new QueryPlan(codec.table(), steps, null);
  }

  private static final String SPLAYED_LEAKS = "how many selected rows there are per stored value of the other"
      + " group columns (equal values are seen as equal); not how many hold each value of the dimension, whose"
      + " counts stay encrypted, except that a value sharing its stored columns with other values selects the"
      + " rows holding its token; the sums stay encrypted";

  private static String leaks(AggregateQuery query) {
    String per = query.grouped() ? ", per stored group value" + (query.nullGroups() ? " or its absence" : "")
        + " (equal group values are seen as equal)" : "";
    List<String> counts = new ArrayList<>();
    if (!query.measures().isEmpty()) {
      counts.add("how many of the selected rows have each measure" + per);
    }
    if (query.countsRows()) {
      counts.add("how many rows are selected" + per);
    }
    return String.join("; ", counts) + (query.measures().isEmpty() ? "" : "; the sums stay encrypted");
  }

  /** A stored key range (empty arrays: unbounded). */
  private record StoredRange(byte[] start, byte[] stop) {}

  private static final byte[] ALL = new byte[0];

  /**
   * A group column by whose values every measure is stored presplit (a SPLASHE dimension that
   * splays them all), at {@code position} in the query's group columns, and the measures' presplits.
   */
  private record SplayedGrouping(int position, List<PresplitMeasure> presplits) {
    /**
     * The region passes: one over every row for the parts with columns of their own (and the row
     * count, for the rows lacking the dimension), one per part that shares its columns, over its
     * rows. Each adds, per part, every measure's sum column and then the part's count column,
     * grouped by the other group columns.
     */
    List<SplayedPass> passes(AggregateQuery query) {
      List<PresplitMeasure.Part> parts = presplits.get(0).parts();
      List<Integer> own = new ArrayList<>();
      List<SplayedPass> out = new ArrayList<>();
      for (int p = 0; p < parts.size(); p++) {
        if (parts.get(p).rows().isEmpty()) {
          own.add(p);
        } else {
          out.add(pass(query, List.of(p), false));
        }
      }
      boolean countsMissing = query.countsRows() && query.nullGroups();
      if (!own.isEmpty() || countsMissing) {
        out.add(0, pass(query, own, countsMissing));
      }
      return out;
    }

    private SplayedPass pass(AggregateQuery query, List<Integer> parts, boolean countsRows) {
      byte[] family = query.groups().get(position).family();
      List<AggregateQuery.Column> measures = new ArrayList<>();
      for (int p : parts) {
        for (PresplitMeasure m : presplits) {
          measures.add(new AggregateQuery.Column(family, m.parts().get(p).sumColumn()));
        }
        measures.add(new AggregateQuery.Column(family, presplits.get(0).parts().get(p).countColumn()));
      }
      List<AggregateQuery.Column> others = new ArrayList<>(query.groups());
      others.remove(position);
      return new SplayedPass(parts, new AggregateQuery(measures, others, countsRows, query.nullGroups()));
    }
  }

  /** One region pass of a splayed grouping: the parts it adds and the query that adds them. */
  private record SplayedPass(List<Integer> parts, AggregateQuery query) {}

  /** The splayed grouping of {@code query}, or null if no group column presplits every measure. */
  private SplayedGrouping splayedGrouping(AggregateQuery query) throws IOException {
    if (query.measures().isEmpty()) {
      return null;
    }
    for (int i = 0; i < query.groups().size(); i++) {
      AggregateQuery.Column group = query.groups().get(i);
      List<PresplitMeasure> presplits = new ArrayList<>();
      for (AggregateQuery.Column m : query.measures()) {
        PresplitMeasure presplit = codec.expansion(m.family()).presplit(m.qualifier()).orElse(null);
        if (presplit != null && Bytes.equals(m.family(), group.family())
            && presplit.dimension().equals(Bytes.toString(group.qualifier()))) {
          presplits.add(presplit);
        }
      }
      if (presplits.size() == query.measures().size()) {
        return new SplayedGrouping(i, presplits);
      }
    }
    return null;
  }

  /**
   * A splayed grouping: per part of the dimension and value of the other group columns, each
   * measure's sum is its part's sum column and the count (of the measure, and of rows) the part's
   * count column, as a dimension is written with all the measures it splays; the rows lacking the
   * dimension, when asked for, are the counted rows less those of every part.
   */
  private List<AggregateGroup> runSplayed(Scan scan, AggregateQuery query, SplayedGrouping splayed,
      StoredRange range) throws IOException {
    int d = splayed.position();
    int perPart = query.measures().size() + 1;
    List<PresplitMeasure.Part> parts = splayed.presplits().get(0).parts();
    byte[] family = query.groups().get(d).family();
    Map<List<ByteBuffer>, Long> counted = new LinkedHashMap<>();
    Map<List<ByteBuffer>, Long> inParts = new LinkedHashMap<>();
    Map<List<ByteBuffer>, AggregateGroup> out = new LinkedHashMap<>();
    for (SplayedPass pass : splayed.passes(query)) {
      Scan rows = pass.parts().size() == 1 && parts.get(pass.parts().get(0)).rows().isPresent()
          ? partRows(scan, family, parts.get(pass.parts().get(0))) : scan;
      for (AggregateGroup g : run(rows, pass.query(), range)) {
        if (pass.query().countsRows()) {
          counted.merge(wrap(g.key()), g.rows(), Long::sum);
        }
        for (int j = 0; j < pass.parts().size(); j++) {
          long count = g.measures().get(j * perPart + perPart - 1).sum();
          if (count == 0) {
            continue;
          }
          List<AggregateResult> sums = new ArrayList<>();
          for (int m = 0; m < perPart - 1; m++) {
            sums.add(new AggregateResult(g.measures().get(j * perPart + m).sum(), count));
          }
          List<byte[]> key = new ArrayList<>(g.key());
          key.add(d, Bytes.toBytes(parts.get(pass.parts().get(j)).value()));
          out.merge(wrap(key), new AggregateGroup(key, sums, query.countsRows() ? count : 0), AggregateGroup::plus);
          inParts.merge(wrap(g.key()), count, Long::sum);
        }
      }
    }
    for (Map.Entry<List<ByteBuffer>, Long> e : counted.entrySet()) {
      long missing = e.getValue() - inParts.getOrDefault(e.getKey(), 0L);
      if (missing > 0) {
        List<byte[]> key = new ArrayList<>();
        e.getKey().forEach(b -> key.add(b == null ? null : b.array()));
        key.add(d, null);
        out.put(wrap(key), new AggregateGroup(key,
            query.measures().stream().map(m -> new AggregateResult(0, 0)).toList(), missing));
      }
    }
    List<AggregateGroup> groups = new ArrayList<>(out.values());
    groups.sort(KEY_ORDER);
    return groups;
  }

  /** The sum of the part's sum column, the count as the sum of its count column, over the part's rows. */
  private AggregateResult presplit(Scan scan, byte[] family, PresplitMeasure.Part part, StoredRange range)
      throws IOException {
    Scan rows = partRows(scan, family, part);
    AggregateQuery both = AggregateQuery.of(family, part.sumColumn()).alsoSumming(family, part.countColumn());
    List<AggregateGroup> sums = run(rows, both, range);
    return sums.isEmpty() ? new AggregateResult(0, 0)
        : new AggregateResult(sums.get(0).measures().get(0).sum(), sums.get(0).measures().get(1).sum());
  }

  /**
   * {@code scan} narrowed to the part's rows, if it has a condition: an equality on a stored column,
   * which the scan's filter encoding puts on ciphertext like any other (rows without it do not pass).
   */
  private static Scan partRows(Scan scan, byte[] family, PresplitMeasure.Part part) throws IOException {
    if (part.rows().isEmpty()) {
      return scan;
    }
    PresplitMeasure.RowCondition c = part.rows().get();
    SingleColumnValueFilter holds = new SingleColumnValueFilter(family, c.column(), CompareOperator.EQUAL, c.value());
    holds.setFilterIfMissing(true);
    Filter rest = scan.getFilter();
    return new Scan(scan).setFilter(rest == null ? holds : new FilterList(FilterList.Operator.MUST_PASS_ALL, rest, holds));
  }

  /** A top-level {@code dimension EQUAL value} on the dimension that presplits the measure. */
  private record PresplitCondition(PresplitMeasure measure, String value, Filter rest) {}

  private PresplitCondition presplitCondition(Filter filter, byte[] family, byte[] measure) throws IOException {
    PresplitMeasure presplit = codec.expansion(family).presplit(measure).orElse(null);
    if (presplit == null || filter == null) {
      return null;
    }
    String dimension = presplit.dimension();
    if (isDimensionEquality(filter, family, dimension)) {
      return new PresplitCondition(presplit, operand(filter), null);
    }
    if (filter instanceof FilterList && ((FilterList) filter).getOperator() == FilterList.Operator.MUST_PASS_ALL) {
      List<Filter> children = ((FilterList) filter).getFilters();
      for (int i = 0; i < children.size(); i++) {
        if (isDimensionEquality(children.get(i), family, dimension)) {
          List<Filter> rest = new ArrayList<>(children);
          rest.remove(i);
          return new PresplitCondition(presplit, operand(children.get(i)),
              rest.isEmpty() ? null : new FilterList(FilterList.Operator.MUST_PASS_ALL, rest));
        }
      }
    }
    return null;
  }

  private static boolean isDimensionEquality(Filter f, byte[] family, String dimension) {
    if (!(f instanceof SingleColumnValueFilter) || f instanceof SingleColumnValueExcludeFilter) {
      return false;
    }
    SingleColumnValueFilter s = (SingleColumnValueFilter) f;
    return Bytes.equals(s.getFamily(), family) && dimension.equals(Bytes.toString(s.getQualifier()))
        && s.getCompareOperator() == CompareOperator.EQUAL && s.getComparator() instanceof BinaryComparator;
  }

  private static String operand(Filter f) {
    return Bytes.toString(((SingleColumnValueFilter) f).getComparator().getValue());
  }

  /** {@code query} in one region-side pass per region: every measure, the row count and the groups together. */
  private List<AggregateGroup> run(Scan scan, AggregateQuery query, StoredRange range) throws IOException {
    List<AdditiveAggregation> additives = check(scan, query);
    if (!regions.hasObserver(RegionSupport.REGION_OBSERVER)) {
      throw new UnsupportedSecureOperationException(codec.table(), describe(query),
          "sums run in the region servers' observer " + RegionSupport.REGION_OBSERVER + ", which this table lacks"
              + " (createTable installs it only where a column's box works in the regions); add it to the table,"
              + " e.g. in the HBase shell: alter '" + codec.table() + "', METHOD => 'table_att', 'coprocessor' => '|"
              + RegionSupport.REGION_OBSERVER + "|1073741823|'");
    }
    Scan server = serverScan(scan);
    if (range.start().length > 0 || range.stop().length > 0) {
      server = RegionFanOut.within(server, range.start(), range.stop());
      if (server == null) {
        return List.of();
      }
    }
    AggregationRequest request = request(query, additives);
    server.setAttribute(RegionRequests.ATTRIBUTE, RegionRequests.encode(request));
    if (server.getFilter() == null) {
      readOnlyWhatCounts(server, request);
    }

    Map<List<ByteBuffer>, List<List<byte[]>>> partials = new LinkedHashMap<>();
    int slots = request.rowCountSlot() + 1;
    for (Result r : regions.scanEachRegion(server)) {
      for (Cell c : r.rawCells()) {
        AggregationRequest.ResponseKey key = responseKey(request, CellUtil.cloneQualifier(c));
        List<List<byte[]>> bySlot = partials.computeIfAbsent(wrap(key.group()), k -> emptySlots(slots));
        bySlot.get(key.slot()).add(CellUtil.cloneValue(c));
      }
    }
    Map<List<ByteBuffer>, AggregateGroup> out = new LinkedHashMap<>();
    for (Map.Entry<List<ByteBuffer>, List<List<byte[]>>> e : partials.entrySet()) {
      List<AggregateResult> sums = new ArrayList<>();
      for (int i = 0; i < additives.size(); i++) {
        sums.add(decrypt(additives.get(i), query.measures().get(i), e.getValue().get(i)));
      }
      long rows = 0;
      for (byte[] count : e.getValue().get(request.rowCountSlot())) {
        rows += Bytes.toLong(count);
      }
      List<byte[]> key = decodeKey(query, e.getKey());
      // After a rotation one value is stored under several key versions: one group for all.
      out.merge(wrap(key), new AggregateGroup(key, sums, rows), AggregateGroup::plus);
    }
    List<AggregateGroup> groups = new ArrayList<>(out.values());
    groups.sort(KEY_ORDER);
    return groups;
  }

  /** The region request of {@code query}, its columns as stored. */
  private AggregationRequest request(AggregateQuery query, List<AdditiveAggregation> additives) throws IOException {
    List<AggregationRequest.Measure> measures = new ArrayList<>();
    for (int i = 0; i < additives.size(); i++) {
      measures.add(new AggregationRequest.Measure(mode(additives.get(i)), stored(query.measures().get(i))));
    }
    List<AggregationRequest.Column> groups = new ArrayList<>();
    for (AggregateQuery.Column g : query.groups()) {
      groups.add(stored(g));
    }
    return new AggregationRequest(measures, groups, query.countsRows(), query.nullGroups());
  }

  private AggregationRequest.Column stored(AggregateQuery.Column c) throws IOException {
    return new AggregationRequest.Column(c.family(), codec.encodeQualifier(c.family(), c.qualifier()));
  }

  /**
   * Without a filter, the regions need read only the columns that are added or group (SPLASHE rows
   * hold many cells); a row count needs every row, so it reads the first cell of each when that is
   * all it needs (not through an SSE search, which selects rows by their index cells), and whole
   * rows otherwise (a row lacking every asked column still counts).
   */
  private static void readOnlyWhatCounts(Scan server, AggregationRequest request) {
    if (!request.countsRows()) {
      for (AggregationRequest.Measure m : request.measures()) {
        server.addColumn(m.column().family(), m.column().qualifier());
      }
      for (AggregationRequest.Column g : request.groups()) {
        server.addColumn(g.family(), g.qualifier());
      }
    } else if (request.measures().isEmpty() && request.groups().isEmpty()
        && server.getAttribute(RegionRequests.SEARCH_ATTRIBUTE) == null) { // a search reads its rows itself
      server.setFilter(new FirstKeyOnlyFilter());
    }
  }

  private static List<List<byte[]>> emptySlots(int slots) {
    List<List<byte[]>> out = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      out.add(new ArrayList<>());
    }
    return out;
  }

  /** A group key as a map key (null stays null: a null group). */
  private static List<ByteBuffer> wrap(List<byte[]> key) {
    List<ByteBuffer> out = new ArrayList<>();
    for (byte[] k : key) {
      out.add(k == null ? null : ByteBuffer.wrap(k));
    }
    return out;
  }

  private List<byte[]> decodeKey(AggregateQuery query, List<ByteBuffer> stored) throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < stored.size(); i++) {
      AggregateQuery.Column g = query.groups().get(i);
      out.add(stored.get(i) == null ? null : codec.decodeValue(new byte[0], g.family(), g.qualifier(), stored.get(i).array()));
    }
    return out;
  }

  private AggregateResult decrypt(AdditiveAggregation additive, AggregateQuery.Column measure, List<byte[]> partials)
      throws IOException {
    if (partials.isEmpty()) {
      return new AggregateResult(0, 0);
    }
    try {
      AdditiveAggregation.Sum sum = additive.decryptSum(partials);
      return new AggregateResult(sum.value(), sum.count());
    } catch (GeneralSecurityException ex) {
      throw new CellDecodingException(codec.table(), "(aggregate)",
          codec.describeColumn(measure.family(), measure.qualifier()), ex.getMessage());
    }
  }

  /** Each measure's addition, once the measures, the group columns and the filter are checked. */
  private List<AdditiveAggregation> check(Scan scan, AggregateQuery query) throws IOException {
    if (query.measures().size() > AggregationRequest.MAX_COLUMNS || query.groups().size() > AggregationRequest.MAX_COLUMNS) {
      throw new UnsupportedSecureOperationException(codec.table(), query.describe(), "a region adds at most "
          + AggregationRequest.MAX_COLUMNS + " measure columns (a splayed dimension's values each count as one per"
          + " measure, plus one) by at most " + AggregationRequest.MAX_COLUMNS + " group columns in one pass");
    }
    List<AdditiveAggregation> additives = new ArrayList<>();
    for (AggregateQuery.Column m : query.measures()) {
      additives.add(codec.additive(m.family(), m.qualifier()).orElseThrow(() -> refusal(m.family(), m.qualifier(),
          "sums run on the region servers only for ASHE (encrypted) and PLAIN columns; a "
              + kindOf(m.family(), m.qualifier()) + " column must be fetched and summed on the client")));
    }
    for (AggregateQuery.Column g : query.groups()) {
      requireGroupable(g.family(), g.qualifier());
    }
    requireNotMigrating(scan, query.measures(), query.groups());
    return additives;
  }

  private void requireNotMigrating(Scan scan, List<AggregateQuery.Column> measures, List<AggregateQuery.Column> groups)
      throws IOException {
    List<AggregateQuery.Column> read = new ArrayList<>(measures);
    read.addAll(groups);
    for (AggregateQuery.Column c : read) {
      if (codec.isMigrating(c.family(), c.qualifier())) {
        throw migrating(c);
      }
    }
    if (MigratingColumns.touchedBy(scan.getFilter(), codec)) {
      throw migrating(read.isEmpty() ? null : read.get(0));
    }
  }

  private UnsupportedSecureOperationException migrating(AggregateQuery.Column c) {
    String why = "the aggregation reads or filters a column being migrated, whose stored"
        + " cells are in two forms the region servers cannot combine; retry when the migration is done";
    return c == null ? new UnsupportedSecureOperationException(codec.table(), "row count", why)
        : refusal(c.family(), c.qualifier(), why);
  }

  private String describe(AggregateQuery query) {
    if (query.measures().isEmpty()) {
      return "row count";
    }
    AggregateQuery.Column m = query.measures().get(0);
    try {
      return codec.describeColumn(m.family(), m.qualifier());
    } catch (UnsupportedSecureOperationException e) {
      return query.describe();
    }
  }

  private AggregationRequest.ResponseKey responseKey(AggregationRequest request, byte[] responseQualifier)
      throws CellDecodingException {
    try {
      return request.responseKey(responseQualifier);
    } catch (IllegalArgumentException e) {
      throw new CellDecodingException(codec.table(), "(aggregate)", "region partial sum", e.getMessage());
    }
  }

  private void requireGroupable(byte[] groupFamily, byte[] groupQualifier) throws IOException {
    if (codec.capability(groupFamily, groupQualifier, EqualityOnCiphertext.class).isPresent()) {
      return;
    }
    if (codec.capability(groupFamily, groupQualifier, OrderOnCiphertext.class).isPresent()) {
      throw refusal(groupFamily, groupQualifier,
          "an OPE column with a companion stores equal values as different bytes; it cannot group");
    }
    throw refusal(groupFamily, groupQualifier,
        "group-by needs equal values to be stored as equal bytes (DET, OPE or PLAIN), not "
            + kindOf(groupFamily, groupQualifier));
  }

  /** The encoded scan, made to return only each region's aggregate. */
  private Scan serverScan(Scan scan) throws IOException {
    Scan server = serverPlan(scan).serverScan();
    // The region must read every column the filter needs; the aggregate is all that returns.
    server.setFamilyMap(new TreeMap<>(Bytes.BYTES_COMPARATOR));
    server.setCacheBlocks(false);
    server.setLimit(-1);
    return RegionFanOut.forward(server);
  }

  /** The plan of {@code scan}, refused if any of it would run on the client. */
  private ScanPlan serverPlan(Scan scan) throws IOException {
    ScanPlan plan = planner.plan(scan);
    if (plan.evaluatesOnClient()) {
      throw new UnsupportedSecureOperationException(codec.table(), "aggregation",
          "aggregates run on the region servers, but this scan needs client-side evaluation ("
              + plan.clientSideReason() + ")");
    }
    return plan;
  }

  /** The region-side addition the measure's box asks for, as the protocol names it (alike). */
  private static AggregationRequest.Mode mode(AdditiveAggregation additive) {
    return AggregationRequest.Mode.valueOf(additive.regionAddition().name());
  }

  private String kindOf(byte[] family, byte[] qualifier) {
    try {
      return codec.policy(family, qualifier).box().toString();
    } catch (UnsupportedSecureOperationException e) {
      return "unknown";
    }
  }

  private UnsupportedSecureOperationException refusal(byte[] family, byte[] qualifier, String why) {
    String column;
    try {
      column = codec.describeColumn(family, qualifier);
    } catch (UnsupportedSecureOperationException e) {
      return e;
    }
    return new UnsupportedSecureOperationException(codec.table(), column, why);
  }
}
