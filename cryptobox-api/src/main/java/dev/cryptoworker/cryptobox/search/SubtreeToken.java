package dev.cryptoworker.cryptobox.search;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A node of a {@link CounterTree}: whoever holds it can compute the leaves {@code [firstLeaf,
 * firstLeaf + 2^height)} and nothing else. This is what a search sends to the region servers.
 *
 * <p>Wire form ({@link #toBytes}): {@code height (1) || firstLeaf (8) || seed (16)}.
 */
public final class SubtreeToken {
  /** Length of the wire form. */
  public static final int BYTES = 1 + 8 + CounterTree.SEED_BYTES;

  private final int height;
  private final long firstLeaf;
  private final byte[] seed;

  SubtreeToken(int height, long firstLeaf, byte[] seed) {
    this.height = height;
    this.firstLeaf = firstLeaf;
    this.seed = seed;
  }

  /** Leaves below this node: 2^height. */
  public int height() {
    return height;
  }

  public long firstLeaf() {
    return firstLeaf;
  }

  /** How many leaves this token reaches. */
  public long leafCount() {
    return 1L << height;
  }

  byte[] seed() {
    return seed;
  }

  public byte[] toBytes() {
    return ByteBuffer.allocate(BYTES).put((byte) height).putLong(firstLeaf).put(seed).array();
  }

  /**
   * Parses a token.
   *
   * @throws IllegalArgumentException if it is not a well-formed token of a {@link CounterTree}
   */
  public static SubtreeToken parse(byte[] bytes) {
    if (bytes.length != BYTES) {
      throw new IllegalArgumentException("a search token has " + BYTES + " bytes, not " + bytes.length);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int height = b.get();
    long first = b.getLong();
    if (height < 0 || height > CounterTree.DEPTH || first < 0 || first > CounterTree.MAX_ENTRIES - (1L << height)
        || (first & ((1L << height) - 1)) != 0) {
      throw new IllegalArgumentException("malformed search token (height " + height + ", first leaf " + first + ")");
    }
    return new SubtreeToken(height, first, Arrays.copyOfRange(bytes, 9, BYTES));
  }

  @Override
  public String toString() {
    return "SubtreeToken[leaves " + firstLeaf + ".." + (firstLeaf + leafCount() - 1) + "]";
  }
}
