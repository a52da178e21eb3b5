package dev.cryptoworker.region;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks each counter region of a scan for the lanes it has logged of some counter names (stored
 * format 7, {@link CountLogCells}). Each region answers with one cell ({@link #ANSWER_QUALIFIER})
 * whose value is a count log of the highest-stamped count of every lane of those names its log
 * cells hold (no bytes if none). A search asks every counter region: a batch's log cell lands in
 * whichever holds its writer's prefix. Keyless: names and counts are PRF outputs and masked numbers to the region.
 *
 * <p>Encoding: {@code version (1) || names (4) || names, {@value CountLogCells#NAME_BYTES} bytes each}.
 */
public record LaneCountRequest(List<byte[]> names) implements RegionRequest {
  /** The qualifier of answer cells. */
  public static final byte[] ANSWER_QUALIFIER = {0, 'l', 'a', 'n', 'e', 's'};
  /** The most names one request asks for. */
  public static final int MAX_NAMES = 1 << 16;
  private static final byte VERSION = 1;

  public LaneCountRequest {
    names = List.copyOf(names);
    if (names.isEmpty() || names.size() > MAX_NAMES) {
      throw new IllegalArgumentException("a lane count request names 1 to " + MAX_NAMES + " counters, not " + names.size());
    }
    for (byte[] name : names) {
      if (name.length != CountLogCells.NAME_BYTES) {
        throw new IllegalArgumentException("a counter name has " + CountLogCells.NAME_BYTES + " bytes, not " + name.length);
      }
    }
  }

  @Override
  public Kind kind() {
    return Kind.LANE_COUNTS;
  }

  @Override
  public byte[] toBytes() {
    ByteBuffer out = ByteBuffer.allocate(1 + Integer.BYTES + names.size() * CountLogCells.NAME_BYTES)
        .put(VERSION).putInt(names.size());
    names.forEach(out::put);
    return out.array();
  }

  /**
   * Parses a request.
   *
   * @throws IllegalArgumentException if malformed
   */
  public static LaneCountRequest parse(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      if (in.get() != VERSION) {
        throw new IllegalArgumentException("unknown lane count request version " + bytes[0]);
      }
      int n = in.getInt();
      if (n < 1 || n > MAX_NAMES || in.remaining() != (long) n * CountLogCells.NAME_BYTES) {
        throw new IllegalArgumentException("malformed lane count request: " + n + " names in " + in.remaining() + " bytes");
      }
      List<byte[]> names = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        byte[] name = new byte[CountLogCells.NAME_BYTES];
        in.get(name);
        names.add(name);
      }
      return new LaneCountRequest(names);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("truncated lane count request");
    }
  }
}
