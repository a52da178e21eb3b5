package dev.cryptoworker.region;

/**
 * One piece of work a client asks every region of a scan to do next to the data, on stored bytes
 * and without keys. It travels in the Scan attribute {@link RegionRequests#ATTRIBUTE}; the region
 * server's dispatching observer answers the scan with the work's result instead of its rows.
 */
public sealed interface RegionRequest permits AggregationRequest, SearchRequest, CounterTakeRequest,
    IndexUpkeepRequest, LaneCountRequest {

  /** Which handler serves the request; its byte is part of the wire form. */
  enum Kind {
    /** Sums and counts per group ({@link AggregationRequest}). */
    AGGREGATE((byte) 1),
    /** Row selection through the encrypted search index ({@link SearchRequest}). */
    SEARCH((byte) 2),
    /** Many counter increments in one region write ({@link CounterTakeRequest}). */
    TAKE((byte) 3),
    /** The search index's size, and its compaction ({@link IndexUpkeepRequest}). */
    INDEX_UPKEEP((byte) 4),
    /** The logged lanes of counter names ({@link LaneCountRequest}, stored format 7). */
    LANE_COUNTS((byte) 5);

    private final byte code;

    Kind(byte code) {
      this.code = code;
    }

    byte code() {
      return code;
    }
  }

  Kind kind();

  /** The request's body, without the kind byte. */
  byte[] toBytes();
}
