package dev.cryptoworker.client.aggregate;

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
    NavigableMap<byte[], AggregateResult> all = aggregateRange(scan, AggregateQuery.of(family, qualifier), ALL, ALL);
    return all.isEmpty() ? new AggregateResult(0, 0) : all.firstEntry().getValue();
  }

  /** Grouped aggregates; grouping a presplit measure by its dimension sums the stored parts. */
  public NavigableMap<byte[], AggregateResult> aggregateBy(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) throws IOException {
    return aggregateRange(scan, AggregateQuery.groupedBy(family, qualifier, groupFamily, groupQualifier), ALL, ALL);
  }

  /**
   * {@code query} over the rows of {@code scan} stored in [{@code storedStart}, {@code storedStop})
   * (empty: unbounded), per group (the empty key without a group column); no entry for a group
   * without rows.
   */
  public NavigableMap<byte[], AggregateResult> aggregateRange(Scan scan, AggregateQuery query, byte[] storedStart,
      byte[] storedStop) throws IOException {
    byte[] family = query.family();
    StoredRange range = new StoredRange(storedStart, storedStop);
    NavigableMap<byte[], AggregateResult> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    PresplitMeasure presplit = presplitGrouping(query);
    if (presplit != null) {
      for (PresplitMeasure.Part part : presplit.parts()) {
        AggregateResult r = presplit(scan, family, part, range);
        if (r.count() > 0) {
          out.put(Bytes.toBytes(part.value()), r);
        }
      }
      return out;
    }
    PresplitCondition c = query.grouped() ? null : presplitCondition(scan.getFilter(), family, query.qualifier());
    if (c != null) {
      // no row can hold a value outside the declared ones
      Optional<PresplitMeasure.Part> part = c.measure().part(c.value());
      AggregateResult r = part.isEmpty() ? new AggregateResult(0, 0)
          : presplit(new Scan(scan).setFilter(c.rest()), family, part.get(), range);
      if (r.count() > 0) {
        out.put(new byte[0], r);
      }
      return out;
    }
    return run(scan, family, query.qualifier(), query.groupFamily(), query.groupQualifier(), range);
  }

  /**
   * How {@code query} would run: the refusals of {@link #aggregateRange}, then the scan's server
   * part, the addition in each region and the decryption in the client.
   */
  public QueryPlan plan(Scan scan, AggregateQuery query) throws IOException {
    PresplitMeasure presplit = presplitGrouping(query);
    PresplitCondition c = query.grouped() ? null : presplitCondition(scan.getFilter(), query.family(), query.qualifier());
    Scan rows = c == null ? scan : new Scan(scan).setFilter(c.rest());
    Optional<PresplitMeasure.Part> asked = c == null ? Optional.empty() : c.measure().part(c.value());
    if (asked.isPresent()) {
      rows = partRows(rows, query.family(), asked.get());
    }
    String adds;
    if (presplit != null || c != null) {
      requireNotMigrating(rows, query.family(), query.qualifier(), null, null);
      adds = "adds the parts of the measure stored presplit by the dimension's "
          + (presplit != null ? "values (one sum per value)" : "value");
    } else {
      check(rows, query.family(), query.qualifier(), query.groupFamily(), query.groupQualifier());
      adds = query.grouped() ? "adds the measure per stored group value" : "adds the measure";
    }
    QueryPlan rowsPlan = serverPlan(rows).toQueryPlan(codec.table());
    List<QueryPlan.Step> steps = new ArrayList<>(rowsPlan.stepsAt(QueryPlan.Site.REGION_SERVERS));
    steps.add(QueryPlan.Step.onServers("each region " + adds + " over ciphertext and returns one partial sum"
        + (query.grouped() ? " per group" : ""), "how many of the selected rows have the measure"
        + (query.grouped() ? ", per stored group value (equal group values are seen as equal)" : "")
        + "; the sums stay encrypted"));
    steps.add(QueryPlan.Step.onClient("combines the partial sums and decrypts them"
        + (query.grouped() ? " and the group keys" : "")));
    return new QueryPlan(codec.table(), steps, null);
  }

  /** A stored key range (empty arrays: unbounded). */
  private record StoredRange(byte[] start, byte[] stop) {}

  private static final byte[] ALL = new byte[0];

  /** The presplit measure {@code query} groups by its own SPLASHE dimension, or null. */
  private PresplitMeasure presplitGrouping(AggregateQuery query) throws IOException {
    if (!query.grouped()) {
      return null;
    }
    PresplitMeasure presplit = codec.expansion(query.family()).presplit(query.qualifier()).orElse(null);
    return presplit != null && Bytes.equals(query.family(), query.groupFamily())
        && presplit.dimension().equals(Bytes.toString(query.groupQualifier())) ? presplit : null;
  }

  /** The sum of the part's sum column, the count as the sum of its count column, over the part's rows. */
  private AggregateResult presplit(Scan scan, byte[] family, PresplitMeasure.Part part, StoredRange range)
      throws IOException {
    Scan rows = partRows(scan, family, part);
    NavigableMap<byte[], AggregateResult> sum = run(rows, family, part.sumColumn(), null, null, range);
    NavigableMap<byte[], AggregateResult> count = run(rows, family, part.countColumn(), null, null, range);
    return new AggregateResult(sum.isEmpty() ? 0 : sum.firstEntry().getValue().sum(),
        count.isEmpty() ? 0 : count.firstEntry().getValue().sum());
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

  /** Aggregates by group (null group column: one group with an empty key). */
  private NavigableMap<byte[], AggregateResult> run(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier, StoredRange range) throws IOException {
    AdditiveAggregation additive = check(scan, family, qualifier, groupFamily, groupQualifier);
    if (!regions.hasObserver(RegionSupport.REGION_OBSERVER)) {
      throw new UnsupportedSecureOperationException(codec.table(), codec.describeColumn(family, qualifier),
          "sums run in the region servers' observer " + RegionSupport.REGION_OBSERVER + ", which this table lacks"
              + " (createTable installs it only where a column's box works in the regions); add it to the table,"
              + " e.g. in the HBase shell: alter '" + codec.table() + "', METHOD => 'table_att', 'coprocessor' => '|"
              + RegionSupport.REGION_OBSERVER + "|1073741823|'");
    }
    Scan server = serverScan(scan);
    if (range.start().length > 0 || range.stop().length > 0) {
      server = RegionFanOut.within(server, range.start(), range.stop());
      if (server == null) {
        return new TreeMap<>(Bytes.BYTES_COMPARATOR);
      }
    }
    AggregationRequest request = new AggregationRequest(mode(additive), family,
        codec.encodeQualifier(family, qualifier),
        groupFamily == null ? new byte[0] : groupFamily,
        groupFamily == null ? new byte[0] : codec.encodeQualifier(groupFamily, groupQualifier));
    server.setAttribute(RegionRequests.ATTRIBUTE, RegionRequests.encode(request));
    if (server.getFilter() == null) {
      // Nothing else to read: the regions skip the row's other cells (SPLASHE rows hold many).
      server.addColumn(request.family(), request.qualifier());
      if (request.grouped()) {
        server.addColumn(request.groupFamily(), request.groupQualifier());
      }
    }

    Map<ByteBuffer, List<byte[]>> partials = new LinkedHashMap<>();
    for (Result r : regions.scanEachRegion(server)) {
      for (Cell c : r.rawCells()) {
        byte[] group = groupOf(request, CellUtil.cloneQualifier(c));
        partials.computeIfAbsent(ByteBuffer.wrap(group), k -> new ArrayList<>()).add(CellUtil.cloneValue(c));
      }
    }
    NavigableMap<byte[], AggregateResult> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (Map.Entry<ByteBuffer, List<byte[]>> e : partials.entrySet()) {
      AdditiveAggregation.Sum sum;
      try {
        sum = additive.decryptSum(e.getValue());
      } catch (GeneralSecurityException ex) {
        throw new CellDecodingException(codec.table(), "(aggregate)", codec.describeColumn(family, qualifier),
            ex.getMessage());
      }
      byte[] storedGroup = e.getKey().array();
      byte[] group = groupFamily == null || storedGroup.length == 0
          ? storedGroup
          : codec.decodeValue(new byte[0], groupFamily, groupQualifier, storedGroup);
      // After a rotation one value is stored under several key versions: one group for all.
      out.merge(group, new AggregateResult(sum.value(), sum.count()),
          (a, b) -> new AggregateResult(a.sum() + b.sum(), a.count() + b.count()));
    }
    return out;
  }

  /** The measure's addition, once the measure, the group column and the filter are checked. */
  private AdditiveAggregation check(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) throws IOException {
    AdditiveAggregation additive = codec.additive(family, qualifier).orElseThrow(() -> refusal(family, qualifier,
        "sums run on the region servers only for ASHE (encrypted) and PLAIN columns; a "
            + kindOf(family, qualifier) + " column must be fetched and summed on the client"));
    if (groupFamily != null) {
      requireGroupable(groupFamily, groupQualifier);
    }
    requireNotMigrating(scan, family, qualifier, groupFamily, groupQualifier);
    return additive;
  }

  private void requireNotMigrating(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) throws IOException {
    if (codec.isMigrating(family, qualifier) || (groupFamily != null && codec.isMigrating(groupFamily, groupQualifier))
        || MigratingColumns.touchedBy(scan.getFilter(), codec)) {
      throw refusal(family, qualifier, "the aggregation reads or filters a column being migrated, whose stored"
          + " cells are in two forms the region servers cannot combine; retry when the migration is done");
    }
  }

  private byte[] groupOf(AggregationRequest request, byte[] responseQualifier) throws CellDecodingException {
    try {
      return request.groupOf(responseQualifier);
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
