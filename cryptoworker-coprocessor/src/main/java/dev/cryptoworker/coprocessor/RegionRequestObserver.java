package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.AggregationRequest;
import dev.cryptoworker.region.RegionRequest;
import dev.cryptoworker.region.RegionRequests;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * The Process step of CryptoWorker: a region observer that answers a Scan carrying a region
 * request ({@link RegionRequests#ATTRIBUTE}) with the request's result for that region, so one
 * small result per region crosses the network; regions answer in parallel when the client scans
 * them in parallel. Scans without the attribute are untouched.
 *
 * <p>One observer, one handler per {@link RegionRequest.Kind}: ASHE aggregation today; a new kind
 * of region-side work is a new request type and one more case in {@link #open}. Keyless by
 * construction: handlers see only stored bytes and the request; the module holds no key and no
 * code that encrypts or decrypts. Protobuf-free (a scan attribute instead of an endpoint), so the
 * same jar loads whatever protobuf the region server has. A region answers in one RPC: keep regions
 * to sizes HBase scans within its RPC timeout (millions of rows per minute).
 *
 * <p>Register it with {@code TableDescriptorBuilder.setCoprocessor(RegionRequestObserver.class
 * .getName())} (CryptoWorker's {@code SecureConnection.createTable} does, for schemas that need
 * region-side work).
 */
public class RegionRequestObserver implements RegionCoprocessor, RegionObserver {

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public RegionScanner postScannerOpen(
      ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan, RegionScanner scanner) throws IOException {
    byte[] request = scan.getAttribute(RegionRequests.ATTRIBUTE);
    byte[] legacy = scan.getAttribute(RegionRequests.LEGACY_AGGREGATION_ATTRIBUTE);
    if (request == null && legacy == null) {
      return scanner;
    }
    RegionRequest parsed;
    try {
      parsed = request != null ? RegionRequests.decode(request) : AggregationRequest.parse(legacy);
    } catch (IllegalArgumentException e) {
      scanner.close();
      throw new DoNotRetryIOException("refused region request: " + e.getMessage());
    }
    return open(scanner, parsed);
  }

  /** The scanner that answers {@code request} over the rows {@code scanner} selects. */
  static RegionScanner open(RegionScanner scanner, RegionRequest request) {
    switch (request.kind()) {
      case AGGREGATE:
        return new AggregatingRegionScanner(scanner, new RegionAggregator((AggregationRequest) request));
      default:
        throw new AssertionError("no handler for region request kind " + request.kind());
    }
  }
}
