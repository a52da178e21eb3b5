package dev.cryptoworker.cryptobox.search;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A node of a {@link CounterTree}: whoever holds it can compute the leaves {@code [firstLeaf,
 * firstLeaf + 2^height)} and nothing else. This is what a search sends to the region servers.
 *
 * <p>Wire form ({@link #toBytes}): {@code tree and height (1) || firstLeaf (8) || seed (16)}; the
 * first byte is the height for the binary tree, and {@code 0x80 | height} for the wide one.
 */
public final class SubtreeToken {
  /** Length of the wire form. */
  public static final int BYTES = 1 + 8 + CounterTree.SEED_BYTES;
  private static final int WIDE_FLAG = 0x80;

  private final CounterTree tree;
  private final int height;
  private final long firstLeaf;
  private final byte[] seed;

  SubtreeToken(CounterTree tree, int height, long firstLeaf, byte[] seed) {
    this.tree = tree;
    this.height = height;
    this.firstLeaf = firstLeaf;
    this.seed = seed;
  }

  /** The tree this node belongs to. */
  public CounterTree tree() {
    return tree;
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
    return ByteBuffer.allocate(BYTES).put((byte) ((tree == CounterTree.WIDE ? WIDE_FLAG : 0) | height)).putLong(firstLeaf).put(seed).array();
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
    int first8 = b.get() & 0xff;
    CounterTree tree = (first8 & WIDE_FLAG) != 0 ? CounterTree.WIDE : CounterTree.BINARY;
    int height = first8 & ~WIDE_FLAG;
    long first = b.getLong();
    if (!tree.hasNodeOfHeight(height) || first < 0 || first > CounterTree.MAX_ENTRIES - (1L << height)
        || (first & ((1L << height) - 1)) != 0) {
      throw new IllegalArgumentException("malformed search token (" + tree + ", height " + height + ", first leaf "
          + first + ")");
    }
    return new SubtreeToken(tree, height, first, Arrays.copyOfRange(bytes, 9, BYTES));
  }

  @Override
  public String toString() {
    return "SubtreeToken[leaves " + firstLeaf + ".." + (firstLeaf + leafCount() - 1) + "]";
  }
}
