package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.cell.RegionFanOut;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.region.AggregationRequest;
import dev.cryptoworker.region.RegionRequests;
import dev.cryptoworker.sharing.PrimeShareSum;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.ShareDecodingException;
import dev.cryptoworker.sharing.ShareSums;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Sums of a SHARED table's column on the region servers, for schemes whose shares are linear over
 * a prime field ({@link SecretSharing#sums()}: SHAMIR_P127). Each cluster's regions add that
 * cluster's shares of the column over the selected rows (an {@link AggregationRequest} of mode
 * SHAMIR_P127, through the same region observer and {@link RegionFanOut} as CELL tables' sums),
 * keyless; the client adds each cluster's region partials and interpolates the clusters' partials
 * at 0 ({@link ShareSums#combine}).
 *
 * <p>What a malicious cluster can do: with exactly z + 1 clusters answering, any one of them can
 * make the sum any value it chooses (its partial is one point of the interpolation), undetected,
 * and can drop or add rows to its count only where the others' counts do not disagree. With more
 * answering, every answer must lie on one polynomial of degree z and all must have counted as many
 * shares: a lying cluster is refused with {@link CellDecodingException}, and named when at least two
 * answers are spare; z + 1 colluding clusters can agree on a wrong sum when at most as many honest
 * ones as spares answer. Clusters that hold different rows (a cluster that missed writes and is not
 * yet repaired, or a write or delete running beside the sum: each cluster sums the newest versions
 * it holds, with no common snapshot) look the same: refused alike with spare answers or different
 * counts, a wrong sum at exactly z + 1 answers.
 * What each cluster learns: the rows selected and how many hold the column, as for a scan; its
 * partial sum is one share of the sum, uniformly random to any z clusters.
 */
final class SharedSums {
  private final TableCodec codec;
  private final SharedTableLayout spec;
  private final ColumnSchemes schemes;
  private final List<RegionFanOut> regions;
  private final ClusterCalls calls;

  SharedSums(TableCodec codec, SharedTableLayout spec, ColumnSchemes schemes, List<Table> tables,
      ExecutorService pool, ClusterCalls calls) {
    this.codec = codec;
    this.spec = spec;
    this.schemes = schemes;
    this.regions = tables.stream().map(t -> new RegionFanOut(t, pool)).toList();
    this.calls = calls;
  }

  /**
   * The sum and count of {@code query}'s column over the rows of {@code stored} (the scan's stored
   * form: row range and time range) in [{@code storedStart}, {@code storedStop}) (empty:
   * unbounded); an empty map when no row holds the column.
   */
  List<AggregateGroup> sum(Scan scan, Scan stored, AggregateQuery query, byte[] storedStart, byte[] storedStop)
      throws IOException {
    AggregateQuery.Column measure = measure(query);
    byte[] storedQualifier = codec.encodeQualifier(measure.family(), measure.qualifier());
    SecretSharing sharing = schemes.of(measure.family(), storedQualifier);
    ShareSums sums = check(scan, query, sharing);
    Scan server = regionScan(stored, measure.family(), storedQualifier);
    if (storedStart.length > 0 || storedStop.length > 0) {
      server = RegionFanOut.within(server, storedStart, storedStop);
      if (server == null) {
        return List.of();
      }
    }
    Scan request = server;
    ClusterCalls.Outcomes<PrimeShareSum> outcomes = calls.onEvery(i -> clusterSum(i, request, measure));
    Map<Integer, PrimeShareSum> partials = new LinkedHashMap<>();
    for (int i = 0; i < spec.clusters().size(); i++) {
      if (outcomes.answered(i)) {
        partials.put(i, outcomes.result(i));
      }
    }
    int needed = Math.max(sharing.threshold(), spec.parameters().r() + 1);
    if (partials.size() < needed) {
      throw new IOException("table " + codec.table() + ", " + codec.describeColumn(measure.family(), measure.qualifier())
          + ": a sum needs " + needed + " clusters' partial sums (the threshold, and more than r so that one holds"
          + " every acknowledged write), " + partials.size() + " answered. Failed: "
          + outcomes.describeFailures(spec.clusters()));
    }
    BigInteger total;
    try {
      total = sums.combine(partials);
    } catch (ShareDecodingException e) {
      throw new CellDecodingException(codec.table(), "(aggregate)", codec.describeColumn(measure.family(),
          measure.qualifier()), "the clusters' partial sums disagree: " + e.getMessage() + " (store i is cluster i of "
          + spec.clusters() + "); a cluster answered wrongly, missed writes (repair it), or a write ran beside"
          + " the sum (retry)");
    }
    long count = partials.values().iterator().next().count();
    // AggregateResult's contract: a long, wrapping as Java's addition does; the field's sum is exact.
    return count == 0 ? List.of()
        : List.of(new AggregateGroup(List.of(), List.of(new AggregateResult(total.longValue(), count)), 0));
  }

  /**
   * The query's one measure.
   *
   * @throws UnsupportedSecureOperationException for several measures or a row count: a SHARED table
   *     sums one column per aggregate
   */
  private AggregateQuery.Column measure(AggregateQuery query) throws UnsupportedSecureOperationException {
    if (query.measures().size() != 1 || query.countsRows()) {
      throw new UnsupportedSecureOperationException(codec.table(), "aggregate (" + query.describe() + ")", "a SHARED"
          + " table sums one column per aggregate on the region servers: ask each column's sum alone");
    }
    return query.measures().get(0);
  }

  /** Cluster {@code i}'s sum: its regions' partials added. */
  private PrimeShareSum clusterSum(int i, Scan request, AggregateQuery.Column measure) throws IOException {
    RegionFanOut cluster = regions.get(i);
    if (!cluster.hasObserver(RegionSupport.REGION_OBSERVER)) {
      throw new UnsupportedSecureOperationException(codec.table(), codec.describeColumn(measure.family(),
          measure.qualifier()), "sums run in the region servers' observer " + RegionSupport.REGION_OBSERVER
          + ", which this table lacks on cluster " + spec.clusters().get(i));
    }
    PrimeShareSum sum = new PrimeShareSum();
    for (Result r : cluster.scanEachRegion(request)) {
      for (Cell c : r.rawCells()) {
        try {
          sum = sum.plus(PrimeShareSum.parse(CellUtil.cloneValue(c)));
        } catch (IllegalArgumentException e) {
          throw new CellDecodingException(codec.table(), "(aggregate)", codec.describeColumn(measure.family(),
              measure.qualifier()), "cluster " + spec.clusters().get(i) + " answered a malformed partial sum: "
              + e.getMessage());
        }
      }
    }
    return sum;
  }

  /**
   * The scheme's sums, once the query and scan are ones the servers can answer.
   *
   * @throws UnsupportedSecureOperationException naming the table, column and reason: a scheme over
   *     GF(2^8), a group-by, several measures or a row count, or a filter
   */
  private ShareSums check(Scan scan, AggregateQuery query, SecretSharing sharing) throws IOException {
    AggregateQuery.Column measure = measure(query);
    String column = codec.describeColumn(measure.family(), measure.qualifier());
    ShareSums sums = sharing.sums().orElseThrow(() -> new UnsupportedSecureOperationException(codec.table(), column,
        "sums on the region servers need shares that are linear over a prime field (scheme SHAMIR_P127: the table's"
            + " scheme, or the layout's summed columns); this column's values are shared with " + sharing.kind()
            + ", over GF(2^8), where adding shares XORs the values: scan and sum on the client"));
    if (query.grouped()) {
      throw new UnsupportedSecureOperationException(codec.table(), column, "a SHARED table cannot group on the region"
          + " servers: the group column's stored values are shares, different for equal values");
    }
    if (scan.getFilter() != null) {
      throw new UnsupportedSecureOperationException(codec.table(), column, "the clusters hold shares, which no filter"
          + " can read on the region servers: a SHARED table's sum selects rows by row range only");
    }
    return sums;
  }

  /** {@code stored} made to return each region's partial sum of the stored column. */
  private static Scan regionScan(Scan stored, byte[] family, byte[] storedQualifier) throws IOException {
    Scan server = new Scan(stored);
    server.setFamilyMap(new TreeMap<>(Bytes.BYTES_COMPARATOR));
    server.addColumn(family, storedQualifier);
    server.setCacheBlocks(false);
    server.setLimit(-1);
    RegionFanOut.forward(server);
    server.setAttribute(RegionRequests.ATTRIBUTE, RegionRequests.encode(AggregationRequest.ofOneMeasure(
        AggregationRequest.Mode.SHAMIR_P127, family, storedQualifier, new byte[0], new byte[0])));
    return server;
  }

  /** How {@link #sum} would run, refusing what it refuses. */
  QueryPlan plan(Scan scan, Scan stored, AggregateQuery query) throws IOException {
    AggregateQuery.Column measure = measure(query);
    SecretSharing sharing = schemes.of(measure.family(), codec.encodeQualifier(measure.family(), measure.qualifier()));
    check(scan, query, sharing);
    boolean ranged = stored.getStartRow().length > 0 || stored.getStopRow().length > 0;
    List<QueryPlan.Step> steps = new ArrayList<>();
    steps.add(QueryPlan.Step.onServers("each of clusters " + spec.clusters() + " runs " + (ranged ? "a row-range scan"
        : "a full scan") + " in which each region adds its " + sharing.kind() + " shares of "
        + codec.describeColumn(measure.family(), measure.qualifier()) + " mod 2^127 - 1 and returns one partial sum",
        "to each cluster, the rows selected and how many hold the column; each partial sum is a share of the sum,"
            + " uniformly random to any z = " + spec.parameters().z() + " clusters"));
    steps.add(QueryPlan.Step.onClient("adds each cluster's region partials, checks that every cluster's answer lies on"
        + " one polynomial of degree z = " + spec.parameters().z() + " (with more than " + sharing.threshold()
        + " answers) and interpolates the sum at 0"));
    return new QueryPlan(codec.table(), steps, null);
  }
}
