package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.ashe.AggregationRequest;
import dev.cryptoworker.cryptobox.ashe.AsheBox;
import dev.cryptoworker.cryptobox.ashe.AsheSum;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import dev.cryptoworker.schema.FamilySchema;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;

/**
 * Sums, counts and averages through the region-side Process step: the scan (row range and
 * server-side filters, encoded as for any scan) is split per region, each region aggregates its
 * rows in the coprocessor, in parallel, and the client merges the partial sums and decrypts once.
 */
final class AggregationRunner {
  private final Table raw;
  private final TableCodec codec;
  private final ScanPlanner planner;
  private final ExecutorService pool;

  AggregationRunner(Table raw, TableCodec codec, ScanPlanner planner, ExecutorService pool) {
    this.raw = raw;
    this.codec = codec;
    this.planner = planner;
    this.pool = pool;
  }

  /** Sum, count and average; SPLASHE-aware (see {@link #splayedCondition}). */
  AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    SplayedCondition c = splayedCondition(scan.getFilter(), family, qualifier);
    if (c != null) {
      Scan rest = new Scan(scan).setFilter(c.rest());
      return splayed(rest, family, qualifier, c.dimension(), c.value());
    }
    NavigableMap<byte[], AggregateResult> all = run(scan, family, qualifier, null, null);
    return all.isEmpty() ? new AggregateResult(0, 0) : all.firstEntry().getValue();
  }

  /** Grouped aggregates; grouping a splayed measure by its SPLASHE dimension reads the splayed columns. */
  NavigableMap<byte[], AggregateResult> aggregateBy(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) throws IOException {
    FamilySchema f = codec.familySchema(family);
    String dimension = f.splayedBy(Bytes.toString(qualifier)).orElse(null);
    if (dimension != null && Bytes.equals(family, groupFamily) && dimension.equals(Bytes.toString(groupQualifier))) {
      NavigableMap<byte[], AggregateResult> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      for (String v : f.policyFor(dimension).values()) {
        AggregateResult r = splayed(scan, family, qualifier, dimension, v);
        if (r.count() > 0) {
          out.put(Bytes.toBytes(v), r);
        }
      }
      return out;
    }
    return run(scan, family, qualifier, groupFamily, groupQualifier);
  }

  /** SPLASHE: sum(measure where dimension = v) is the sum of column measure|v; the count, of dimension|v. */
  private AggregateResult splayed(Scan scan, byte[] family, byte[] measure, String dimension, String value)
      throws IOException {
    if (!codec.familySchema(family).policyFor(dimension).values().contains(value)) {
      return new AggregateResult(0, 0); // no row can hold a value outside the declared ones
    }
    NavigableMap<byte[], AggregateResult> sum =
        run(scan, family, SplayedColumns.qualifier(Bytes.toString(measure), value), null, null);
    NavigableMap<byte[], AggregateResult> count =
        run(scan, family, SplayedColumns.qualifier(dimension, value), null, null);
    return new AggregateResult(
        sum.isEmpty() ? 0 : sum.firstEntry().getValue().sum(), count.isEmpty() ? 0 : count.firstEntry().getValue().sum());
  }

  /** A top-level {@code dimension EQUAL value} on the SPLASHE dimension that splays the measure. */
  private record SplayedCondition(String dimension, String value, Filter rest) {}

  private SplayedCondition splayedCondition(Filter filter, byte[] family, byte[] measure) throws IOException {
    String dimension = codec.familySchema(family).splayedBy(Bytes.toString(measure)).orElse(null);
    if (dimension == null || filter == null) {
      return null;
    }
    if (isDimensionEquality(filter, family, dimension)) {
      return new SplayedCondition(dimension, operand(filter), null);
    }
    if (filter instanceof FilterList && ((FilterList) filter).getOperator() == FilterList.Operator.MUST_PASS_ALL) {
      List<Filter> children = ((FilterList) filter).getFilters();
      for (int i = 0; i < children.size(); i++) {
        if (isDimensionEquality(children.get(i), family, dimension)) {
          List<Filter> rest = new ArrayList<>(children);
          rest.remove(i);
          return new SplayedCondition(dimension, operand(children.get(i)),
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
  NavigableMap<byte[], AggregateResult> run(Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) throws IOException {
    BoxKind box = codec.policy(family, qualifier).box();
    if (box != BoxKind.ASHE && box != BoxKind.PLAIN) {
      throw new UnsupportedSecureOperationException(codec.table(), codec.describeColumn(family, qualifier),
          "sums run on the region servers only for ASHE (encrypted) and PLAIN columns; a " + box
              + " column must be fetched and summed on the client");
    }
    if (groupFamily != null) {
      BoxKind groupBox = codec.policy(groupFamily, groupQualifier).box();
      if (groupBox != BoxKind.DET && groupBox != BoxKind.PLAIN && groupBox != BoxKind.OPE) {
        throw new UnsupportedSecureOperationException(codec.table(), codec.describeColumn(groupFamily, groupQualifier),
            "group-by needs equal values to be stored as equal bytes (DET, OPE or PLAIN), not " + groupBox);
      }
      if (groupBox == BoxKind.OPE && codec.orderPreservingBox(groupFamily, groupQualifier).hasCompanion()) {
        throw new UnsupportedSecureOperationException(codec.table(), codec.describeColumn(groupFamily, groupQualifier),
            "an OPE column with a companion stores equal values as different bytes; it cannot group");
      }
    }
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
    if (server.isReversed()) { // a sum has no order; regions are cut in forward order below
      byte[] start = server.getStartRow();
      boolean startInclusive = server.includeStartRow();
      server.setReversed(false);
      server.withStartRow(server.getStopRow(), server.includeStopRow()).withStopRow(start, startInclusive);
    }
    byte[] storedGroupQualifier = groupFamily == null ? new byte[0] : codec.encodeQualifier(groupFamily, groupQualifier);
    server.setAttribute(AggregationRequest.ATTRIBUTE, new AggregationRequest(
        box == BoxKind.ASHE ? AggregationRequest.Mode.ASHE : AggregationRequest.Mode.PLAIN,
        family, codec.encodeQualifier(family, qualifier),
        groupFamily == null ? new byte[0] : groupFamily, storedGroupQualifier).toBytes());

    List<Future<List<Result>>> parts = new ArrayList<>();
    for (Scan regionScan : perRegion(server)) {
      parts.add(pool.submit(() -> {
        List<Result> out = new ArrayList<>();
        try (ResultScanner s = raw.getScanner(regionScan)) {
          for (Result r = s.next(); r != null; r = s.next()) {
            out.add(r);
          }
        }
        return out;
      }));
    }
    Map<ByteBuffer, AsheSum> ashe = new HashMap<>();
    Map<ByteBuffer, long[]> plain = new HashMap<>();
    for (Future<List<Result>> part : parts) {
      for (Result r : await(part)) {
        for (Cell c : r.rawCells()) {
          byte[] q = CellUtil.cloneQualifier(c);
          byte[] v = CellUtil.cloneValue(c);
          if (box == BoxKind.ASHE) {
            AsheSum s = parseSum(v);
            ByteBuffer group = ByteBuffer.wrap(Arrays.copyOf(q, q.length - 4));
            AsheSum merged = ashe.get(ByteBuffer.wrap(q));
            if (merged == null) {
              ashe.put(ByteBuffer.wrap(q), s);
            } else {
              merged.add(s);
            }
            plain.computeIfAbsent(group, k -> new long[2]);
          } else {
            long[] acc = plain.computeIfAbsent(ByteBuffer.wrap(q), k -> new long[2]);
            ByteBuffer b = ByteBuffer.wrap(v);
            acc[0] += b.getLong();
            acc[1] += b.getLong();
          }
        }
      }
    }
    if (box == BoxKind.ASHE) {
      AsheBox asheBox = codec.asheBox(family, qualifier);
      for (Map.Entry<ByteBuffer, AsheSum> e : ashe.entrySet()) {
        byte[] q = e.getKey().array();
        long[] acc = plain.get(ByteBuffer.wrap(Arrays.copyOf(q, q.length - 4)));
        try {
          acc[0] += asheBox.decrypt(e.getValue());
        } catch (GeneralSecurityException ex) {
          throw new CellDecodingException(codec.table(), "(aggregate)", codec.describeColumn(family, qualifier),
              ex.getMessage());
        }
        acc[1] += e.getValue().count();
      }
    }
    NavigableMap<byte[], AggregateResult> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (Map.Entry<ByteBuffer, long[]> e : plain.entrySet()) {
      byte[] storedGroup = e.getKey().array();
      byte[] group = groupFamily == null || storedGroup.length == 0
          ? storedGroup
          : codec.decodeValue(new byte[0], groupFamily, groupQualifier, storedGroup);
      out.put(group, new AggregateResult(e.getValue()[0], e.getValue()[1]));
    }
    return out;
  }

  private AsheSum parseSum(byte[] v) throws IOException {
    try {
      return AsheSum.parse(v);
    } catch (IllegalArgumentException e) {
      throw new CellDecodingException(codec.table(), "(aggregate)", "region partial sum", e.getMessage());
    }
  }

  /** The scan cut at region boundaries, one per region it touches. */
  private List<Scan> perRegion(Scan scan) throws IOException {
    List<Scan> out = new ArrayList<>();
    byte[] start = scan.getStartRow();
    byte[] stop = scan.getStopRow();
    try (RegionLocator locator = raw.getRegionLocator()) {
      for (HRegionLocation location : locator.getAllRegionLocations()) {
        byte[] regionStart = location.getRegion().getStartKey();
        byte[] regionEnd = location.getRegion().getEndKey();
        boolean beforeStop = stop.length == 0 || Bytes.compareTo(regionStart, stop) < 0
            || (scan.includeStopRow() && Bytes.compareTo(regionStart, stop) == 0);
        boolean afterStart = regionEnd.length == 0 || Bytes.compareTo(regionEnd, start) > 0;
        if (!beforeStop || !afterStart) {
          continue;
        }
        Scan s = new Scan(scan);
        if (Bytes.compareTo(regionStart, start) > 0) {
          s.withStartRow(regionStart, true);
        }
        if (regionEnd.length > 0 && (stop.length == 0 || Bytes.compareTo(regionEnd, stop) < 0)) {
          s.withStopRow(regionEnd, false);
        }
        out.add(s);
      }
    }
    return out;
  }

  private static <T> T await(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while aggregating");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException) {
        throw (IOException) e.getCause();
      }
      throw new IOException(e.getCause());
    }
  }
}
