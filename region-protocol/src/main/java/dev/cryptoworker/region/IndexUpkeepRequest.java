package dev.cryptoworker.region;

import java.nio.ByteBuffer;

/**
 * Asks each region of a scan about its search index, and, with {@code compact}, to compact it
 * first: drop the entries whose row no longer holds them (the row's value changed or the row was
 * deleted) and add any current entry missing. Each region answers with one cell whose value is
 * {@link Answer}'s encoding. Keyless: the region reads only its own index cells.
 *
 * <p>Encoding: {@code version (1) || compact (1)}.
 */
public record IndexUpkeepRequest(boolean compact) implements RegionRequest {
  /** The qualifier of answer cells, one no stored cell has. */
  public static final byte[] ANSWER_QUALIFIER = {0, 'i', 'n', 'd', 'e', 'x'};
  private static final byte VERSION = 1;

  /**
   * One region's answer.
   *
   * @param entriesBefore entries in the region's index when the request arrived
   * @param entriesAfter entries when it answered
   * @param removed stale entries the compaction dropped
   * @param added current entries it found missing and added
   */
  public record Answer(long entriesBefore, long entriesAfter, long removed, long added) {
    public byte[] toBytes() {
      return ByteBuffer.allocate(32).putLong(entriesBefore).putLong(entriesAfter).putLong(removed).putLong(added)
          .array();
    }

    /**
     * Parses an answer.
     *
     * @throws IllegalArgumentException if it is not 32 bytes
     */
    public static Answer parse(byte[] bytes) {
      if (bytes.length != 32) {
        throw new IllegalArgumentException("an index upkeep answer has 32 bytes, not " + bytes.length);
      }
      ByteBuffer b = ByteBuffer.wrap(bytes);
      return new Answer(b.getLong(), b.getLong(), b.getLong(), b.getLong());
    }
  }

  @Override
  public Kind kind() {
    return Kind.INDEX_UPKEEP;
  }

  @Override
  public byte[] toBytes() {
    return new byte[] {VERSION, (byte) (compact ? 1 : 0)};
  }

  /**
   * Parses a request.
   *
   * @throws IllegalArgumentException if malformed
   */
  public static IndexUpkeepRequest parse(byte[] bytes) {
    if (bytes.length != 2 || bytes[0] != VERSION || (bytes[1] != 0 && bytes[1] != 1)) {
      throw new IllegalArgumentException("malformed index upkeep request");
    }
    return new IndexUpkeepRequest(bytes[1] == 1);
  }
}
