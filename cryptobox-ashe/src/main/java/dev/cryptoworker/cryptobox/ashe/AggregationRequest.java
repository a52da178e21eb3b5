package dev.cryptoworker.cryptobox.ashe;

import java.nio.ByteBuffer;

/**
 * What a client asks the region to aggregate, carried in the Scan attribute {@value #ATTRIBUTE}:
 * the measure column, how to add it, and an optional group-by column. Plain bytes (no protobuf),
 * parsed defensively: a malformed request is refused, never guessed.
 *
 * <p>Encoding: {@code version (1) || mode (1) || family || qualifier || groupFamily ||
 * groupQualifier}, each byte string with a 4-byte length (empty group: no grouping).
 */
public record AggregationRequest(Mode mode, byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) {
  /** The Scan attribute that turns a scan into an aggregation. */
  public static final String ATTRIBUTE = "cryptoworker.aggregate";
  private static final byte VERSION = 1;
  private static final int MAX_PART = 1 << 16;

  /** How values of the measure column are added. */
  public enum Mode {
    /** ASHE ciphertexts: added mod 2^64, identifier sets united (no key on the server). */
    ASHE,
    /** Plaintext 8-byte longs (or 4-byte ints): for unprotected columns and baselines. */
    PLAIN
  }

  public boolean grouped() {
    return groupFamily.length > 0;
  }

  public byte[] toBytes() {
    ByteBuffer b = ByteBuffer.allocate(2 + 16 + family.length + qualifier.length + groupFamily.length + groupQualifier.length);
    b.put(VERSION).put((byte) mode.ordinal());
    for (byte[] part : new byte[][] {family, qualifier, groupFamily, groupQualifier}) {
      b.putInt(part.length).put(part);
    }
    return b.array();
  }

  /**
   * Parses a request.
   *
   * @throws IllegalArgumentException if malformed
   */
  public static AggregationRequest parse(byte[] bytes) {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      if (b.get() != VERSION) {
        throw new IllegalArgumentException("unsupported aggregation request version");
      }
      int mode = b.get();
      if (mode < 0 || mode >= Mode.values().length) {
        throw new IllegalArgumentException("unknown aggregation mode " + mode);
      }
      byte[][] parts = new byte[4][];
      for (int i = 0; i < 4; i++) {
        int n = b.getInt();
        if (n < 0 || n > MAX_PART || n > b.remaining()) {
          throw new IllegalArgumentException("bad length " + n + " in aggregation request");
        }
        parts[i] = new byte[n];
        b.get(parts[i]);
      }
      if (b.hasRemaining() || parts[0].length == 0 || parts[1].length == 0
          || (parts[2].length == 0) != (parts[3].length == 0)) {
        throw new IllegalArgumentException("malformed aggregation request");
      }
      return new AggregationRequest(Mode.values()[mode], parts[0], parts[1], parts[2], parts[3]);
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("aggregation request truncated");
    }
  }
}
