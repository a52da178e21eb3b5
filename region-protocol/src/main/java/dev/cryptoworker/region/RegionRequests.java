package dev.cryptoworker.region;

import java.util.Arrays;

/**
 * The wire form of region requests: the Scan attribute {@value #ATTRIBUTE} holds {@code kind (1) ||
 * body}. Decoding is defensive: a malformed or unknown request is refused, never guessed.
 */
public final class RegionRequests {
  /** The Scan attribute that turns a scan into a region request. */
  public static final String ATTRIBUTE = "cryptoworker.region";
  /**
   * The Scan attribute that selects the scan's rows through the search index (a {@link
   * SearchRequest}); it composes with {@link #ATTRIBUTE}: an aggregation then adds only those rows.
   */
  public static final String SEARCH_ATTRIBUTE = "cryptoworker.search";
  /**
   * The attribute of earlier clients, which sent only aggregation requests (the body of an
   * {@link AggregationRequest}); still answered so that a client upgraded after the region
   * servers, or the other way round, keeps working.
   */
  public static final String LEGACY_AGGREGATION_ATTRIBUTE = "cryptoworker.aggregate";

  private RegionRequests() {}

  /** The attribute value for {@code request}. */
  public static byte[] encode(RegionRequest request) {
    byte[] body = request.toBytes();
    byte[] out = new byte[1 + body.length];
    out[0] = request.kind().code();
    System.arraycopy(body, 0, out, 1, body.length);
    return out;
  }

  /**
   * Parses an attribute value.
   *
   * @throws IllegalArgumentException naming what is wrong, if it is not a request this version
   *     serves
   */
  public static RegionRequest decode(byte[] attribute) {
    if (attribute == null || attribute.length == 0) {
      throw new IllegalArgumentException("empty region request");
    }
    byte[] body = Arrays.copyOfRange(attribute, 1, attribute.length);
    if (attribute[0] == RegionRequest.Kind.AGGREGATE.code()) {
      return AggregationRequest.parse(body);
    }
    if (attribute[0] == RegionRequest.Kind.SEARCH.code()) {
      return SearchRequest.parse(body);
    }
    if (attribute[0] == RegionRequest.Kind.TAKE.code()) {
      return CounterTakeRequest.parse(body);
    }
    if (attribute[0] == RegionRequest.Kind.INDEX_UPKEEP.code()) {
      return IndexUpkeepRequest.parse(body);
    }
    if (attribute[0] == RegionRequest.Kind.LANE_COUNTS.code()) {
      return LaneCountRequest.parse(body);
    }
    throw new IllegalArgumentException("unknown region request kind " + attribute[0]);
  }
}
