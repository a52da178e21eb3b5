package dev.cryptoworker.coprocessor;

import dev.cryptoworker.cryptobox.ashe.AggregationRequest;
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
 * The Process step of CryptoWorker: a region observer that turns a Scan carrying {@link
 * AggregationRequest#ATTRIBUTE} into that region's aggregate (ASHE sum, count, identifier set, per
 * group), so one small result per region crosses the network. Regions answer in parallel when the
 * client scans them in parallel. Scans without the attribute are untouched.
 *
 * <p>Keyless by construction: it depends only on the keyless ASHE classes and can add ciphertexts
 * and unite identifier sets, nothing more. Register it with {@code
 * TableDescriptorBuilder.setCoprocessor(AsheAggregationObserver.class.getName())} (CryptoWorker's
 * {@code SecureConnection.createTable} does, for schemas with ASHE columns).
 *
 * <p>Protobuf-free (a scan attribute instead of an endpoint), so the same jar loads whatever
 * protobuf the region server has. A region is aggregated in one RPC: keep regions to sizes HBase
 * scans within its RPC timeout (millions of rows per minute).
 */
public final class AsheAggregationObserver implements RegionCoprocessor, RegionObserver {

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public RegionScanner postScannerOpen(
      ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan, RegionScanner scanner) throws IOException {
    byte[] spec = scan.getAttribute(AggregationRequest.ATTRIBUTE);
    if (spec == null) {
      return scanner;
    }
    AggregationRequest request;
    try {
      request = AggregationRequest.parse(spec);
    } catch (IllegalArgumentException e) {
      scanner.close();
      throw new DoNotRetryIOException("refused aggregation request: " + e.getMessage());
    }
    return new AggregatingRegionScanner(scanner, request);
  }
}
