package dev.cryptoworker.region;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a client asks each region to aggregate: the measure column, how to add it, and an optional
 * group-by column (all as stored). Plain bytes (no protobuf), parsed defensively: a malformed
 * request is refused, never guessed.
 *
 * <p>Encoding: {@code version (1) || mode (1) || family || qualifier || groupFamily ||
 * groupQualifier}, each byte string with a 4-byte length (empty group: no grouping).
 *
 * <p>Response: the scan returns, per region, one row whose cells are the partial results, in the
 * measure's family. Qualifier: the group's stored bytes (empty without grouping), then for ASHE the
 * 4-byte key id ({@link #responseQualifier}, {@link #groupOf}). Value: for ASHE the keyless sum
 * ({@code AsheSum.toBytes()}), for PLAIN {@code sum (8) || count (8)}, for SHAMIR_P127 {@code
 * PrimeShareSum.toBytes()} ({@code index (1) || sum (16) || count (8)}).
 */
public record AggregationRequest(Mode mode, byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier)
    implements RegionRequest {
  private static final byte VERSION = 1;
  private static final int MAX_PART = 1 << 16;

  /** How values of the measure column are added. */
  public enum Mode {
    /** ASHE ciphertexts: added mod 2^64, identifier sets united (no key on the server). */
    ASHE,
    /** Plaintext 8-byte longs (or 4-byte ints): for unprotected columns and baselines. */
    PLAIN,
    /**
     * Shares of secret-sharing's SHAMIR_P127 (a SHARED table's cluster): their field elements added
     * mod 2^127 - 1 into one partial sum ({@code PrimeShareSum}), no key anywhere.
     */
    SHAMIR_P127
  }

  public boolean grouped() {
    return groupFamily.length > 0;
  }

  @Override
  public Kind kind() {
    return Kind.AGGREGATE;
  }

  /** The qualifier of a region's partial result for {@code group} under key version {@code keyId}. */
  public byte[] responseQualifier(byte[] group, int keyId) {
    if (mode != Mode.ASHE) {
      return group.clone();
    }
    return ByteBuffer.allocate(group.length + 4).put(group).putInt(keyId).array();
  }

  /**
   * The group's stored bytes in a response qualifier.
   *
   * @throws IllegalArgumentException if the qualifier is too short to be a response
   */
  public byte[] groupOf(byte[] responseQualifier) {
    if (mode != Mode.ASHE) {
      return responseQualifier.clone();
    }
    if (responseQualifier.length < 4) {
      throw new IllegalArgumentException("an ASHE partial's qualifier ends with a 4-byte key id");
    }
    return Arrays.copyOf(responseQualifier, responseQualifier.length - 4);
  }

  @Override
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
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("aggregation request truncated");
    }
  }
}
