package dev.cryptoworker.client.aggregate;

import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.cell.RegionFanOut;
import dev.cryptoworker.client.cell.ScanPlan;
import dev.cryptoworker.client.cell.ScanPlanner;
import dev.cryptoworker.client.codec.PresplitMeasure;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.migrate.MigratingColumns;
import dev.cryptoworker.cryptobox.AdditiveAggregation;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
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
    PresplitCondition c = presplitCondition(scan.getFilter(), family, qualifier);
    if (c != null) {
      // no row can hold a value outside the declared ones
      Optional<PresplitMeasure.Part> part = c.measure().part(c.value());
      return part.isEmpty() ? new AggregateResult(0, 0) : presplit(new Scan(scan).setFilter(c.rest()), family, part.get());
    }
    NavigableMap<byte[], AggregateResult> all = run(scan, family, qualifier, null, null);
    return all.isEmpty() ? new AggregateResult(0, 0) : all.firstEntry().getValue();
  }

  /** Grouped aggregates; grouping a presplit measure by its dimension sums the stored parts. */
  public NavigableMap<byte[], AggregateResult> aggregateBy(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) throws IOException {
    PresplitMeasure presplit = codec.expansion(family).presplit(qualifier).orElse(null);
    if (presplit != null && Bytes.equals(family, groupFamily)
        && presplit.dimension().equals(Bytes.toString(groupQualifier))) {
      NavigableMap<byte[], AggregateResult> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      for (PresplitMeasure.Part part : presplit.parts()) {
        AggregateResult r = presplit(scan, family, part);
        if (r.count() > 0) {
          out.put(Bytes.toBytes(part.value()), r);
        }
      }
      return out;
    }
    return run(scan, family, qualifier, groupFamily, groupQualifier);
  }

  /** The sum of the part's sum column, the count as the sum of its count column. */
  private AggregateResult presplit(Scan scan, byte[] family, PresplitMeasure.Part part) throws IOException {
    NavigableMap<byte[], AggregateResult> sum = run(scan, family, part.sumColumn(), null, null);
    NavigableMap<byte[], AggregateResult> count = run(scan, family, part.countColumn(), null, null);
    return new AggregateResult(sum.isEmpty() ? 0 : sum.firstEntry().getValue().sum(),
        count.isEmpty() ? 0 : count.firstEntry().getValue().sum());
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
      byte[] groupQualifier) throws IOException {
    AdditiveAggregation additive = codec.additive(family, qualifier).orElseThrow(() -> refusal(family, qualifier,
        "sums run on the region servers only for ASHE (encrypted) and PLAIN columns; a "
            + kindOf(family, qualifier) + " column must be fetched and summed on the client"));
    if (groupFamily != null) {
      requireGroupable(groupFamily, groupQualifier);
    }
    if (codec.isMigrating(family, qualifier) || (groupFamily != null && codec.isMigrating(groupFamily, groupQualifier))
        || MigratingColumns.touchedBy(scan.getFilter(), codec)) {
      throw refusal(family, qualifier, "the aggregation reads or filters a column being migrated, whose stored"
          + " cells are in two forms the region servers cannot combine; retry when the migration is done");
    }
    Scan server = serverScan(scan);
    AggregationRequest request = new AggregationRequest(mode(additive), family,
        codec.encodeQualifier(family, qualifier),
        groupFamily == null ? new byte[0] : groupFamily,
        groupFamily == null ? new byte[0] : codec.encodeQualifier(groupFamily, groupQualifier));
    server.setAttribute(RegionRequests.ATTRIBUTE, RegionRequests.encode(request));

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
    ScanPlan plan = planner.plan(scan);
    if (plan.evaluatesOnClient()) {
      throw new UnsupportedSecureOperationException(codec.table(), "aggregation",
          "aggregates run on the region servers, but this scan needs client-side evaluation ("
              + plan.clientSideReason() + ")");
    }
    Scan server = plan.serverScan();
    // The region must read every column the filter needs; the aggregate is all that returns.
    server.setFamilyMap(new TreeMap<>(Bytes.BYTES_COMPARATOR));
    server.setCacheBlocks(false);
    server.setLimit(-1);
    if (server.isReversed()) { // a sum has no order; regions are cut in forward order
      byte[] start = server.getStartRow();
      boolean startInclusive = server.includeStartRow();
      server.setReversed(false);
      server.withStartRow(server.getStopRow(), server.includeStopRow()).withStopRow(start, startInclusive);
    }
    return server;
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
