package dev.cryptoworker.cryptobox.search;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A GGM tree over {@value #ENTRY_BITS}-bit entry numbers (Goldreich, Goldwasser, Micali), used as a
 * range-constrained PRF, as in Diana (Bost, Minaud, Ohrimenko, CCS 2017): leaf {@code c} is the
 * index key of a value's c-th entry, and the nodes covering {@code [0, n)} let a region server
 * compute the keys of the first n entries, and of no later one.
 *
 * <p>Two shapes, each fixed by a table's stored format because stored entries are keyed by their
 * leaves:
 *
 * <ul>
 *   <li>{@link #BINARY} (formats 1 and 2): 32 levels of 2 children, both halves of
 *       HMAC-SHA256(seed, empty message).
 *   <li>{@link #WIDE} (formats 3 and 4): 8 levels of 16 children; children 2p and 2p+1 are the halves of
 *       HMAC-SHA256(seed, one byte p). A new value's first leaf costs 8 HMACs instead of 32, and
 *       expanding a node about half an HMAC per leaf instead of one. A search sends at most 15
 *       tokens per level instead of 1: at most 120.
 * </ul>
 *
 * <p>Each node is a 16-byte seed. Keyless: region servers run {@link #expand}; clients also derive
 * leaves and covers from a secret root.
 */
public final class CounterTree {
  /** Bits of an entry number: entry numbers are below 2^ENTRY_BITS. */
  public static final int ENTRY_BITS = 32;
  /** The largest number of entries one value's index can hold. */
  public static final long MAX_ENTRIES = 1L << ENTRY_BITS;
  /** Bytes of every node's seed, leaves included. */
  public static final int SEED_BYTES = 16;

  /** 32 levels of 2 children (stored formats 1 and 2). */
  public static final CounterTree BINARY = new CounterTree(1);
  /** 8 levels of 16 children (stored formats 3 and 4). */
  public static final CounterTree WIDE = new CounterTree(4);

  private static final int BLOCK_BYTES = 64;
  private static final byte IPAD = 0x36;
  private static final byte OPAD = 0x5c;
  private static final ThreadLocal<Sha256> SHA256 = ThreadLocal.withInitial(Sha256::new);

  /** One thread's SHA-256 and buffers: a node costs two digests and one 32-byte allocation. */
  private static final class Sha256 {
    final MessageDigest digest;
    final byte[] block = new byte[BLOCK_BYTES];
    final byte[] inner = new byte[32];

    Sha256() {
      try {
        digest = MessageDigest.getInstance("SHA-256");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("this JDK has no SHA-256", e);
      }
    }
  }

  /** Bits of an entry number each level consumes: log2 of the children per node. */
  private final int digitBits;
  private final int levels;
  /** The last path of each thread's {@value #REMEMBERED_PATHS} most recent roots in this tree. */
  private final ThreadLocal<Map<PrfOutput, Path>> paths;

  private CounterTree(int digitBits) {
    this.digitBits = digitBits;
    this.levels = ENTRY_BITS / digitBits;
    this.paths = ThreadLocal.withInitial(() -> new LinkedHashMap<>(REMEMBERED_PATHS * 2, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<PrfOutput, Path> eldest) {
        return size() > REMEMBERED_PATHS;
      }
    });
  }

  /** Children per node. */
  public int arity() {
    return 1 << digitBits;
  }

  /**
   * Whether a node {@code height} levels of bits above the leaves (it reaches 2^height leaves) is
   * a node of this tree.
   */
  boolean hasNodeOfHeight(int height) {
    return height >= 0 && height <= ENTRY_BITS && height % digitBits == 0;
  }

  /**
   * Children {@code 2 * pair} and {@code 2 * pair + 1} of a node, written out from RFC 2104 for a
   * key shorter than a block (SHA-256((K ^ opad) || SHA-256((K ^ ipad) || message))), because a
   * {@code Mac.init} per node cost more than the two digests; tests check it against {@code
   * javax.crypto.Mac}. The binary tree's message is empty, the wide tree's the pair's number.
   */
  private byte[] pair(byte[] seed, int pair) {
    return digitBits > 1 ? hmac(seed, new byte[] {(byte) pair}) : hmac(seed, new byte[0]);
  }

  /**
   * HMAC-SHA256({@code seed}, {@code message}): 32 bytes. Besides the nodes, it derives secrets kept
   * apart from the tree under a root ({@link dev.cryptoworker.cryptobox.ValueIndex#lane writer
   * lanes}); their messages are longer than one byte, so they are never a node's.
   */
  public static byte[] prf(byte[] seed, byte[] message) {
    if (message.length < 2) {
      throw new IllegalArgumentException("messages of at most one byte derive tree nodes");
    }
    return hmac(seed, message);
  }

  private static byte[] hmac(byte[] seed, byte[] message) {
    Sha256 sha = SHA256.get();
    try {
      pad(sha.block, seed, IPAD);
      sha.digest.update(sha.block);
      sha.digest.update(message);
      sha.digest.digest(sha.inner, 0, sha.inner.length);
      pad(sha.block, seed, OPAD);
      sha.digest.update(sha.block);
      sha.digest.update(sha.inner);
      return sha.digest.digest();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    } finally {
      Arrays.fill(sha.block, (byte) 0);
      Arrays.fill(sha.inner, (byte) 0);
    }
  }

  private static void pad(byte[] block, byte[] key, byte pad) {
    for (int i = 0; i < key.length; i++) {
      block[i] = (byte) (key[i] ^ pad);
    }
    Arrays.fill(block, key.length, block.length, pad);
  }

  private static byte[] half(byte[] both, int which) {
    return Arrays.copyOfRange(both, which * SEED_BYTES, (which + 1) * SEED_BYTES);
  }

  private byte[] child(byte[] seed, int digit) {
    return half(pair(seed, digit >>> 1), digit & 1);
  }

  /** The digit of {@code entry} that picks a child at {@code level} below the root. */
  private int digit(long entry, int level) {
    return (int) ((entry >>> (ENTRY_BITS - (level + 1) * digitBits)) & (arity() - 1));
  }

  /**
   * Leaf {@code index} below {@code root}. A writer numbers a value's entries one after the other,
   * so each thread keeps the path to the last leaf of its {@value #REMEMBERED_PATHS} most recent
   * roots: the next leaf shares all but about one or two of its nodes.
   */
  public byte[] leaf(byte[] root, long index) {
    if (index < 0 || index >= MAX_ENTRIES) {
      throw new IllegalArgumentException("entry number " + index + " outside [0, 2^" + ENTRY_BITS + ")");
    }
    Map<PrfOutput, Path> byRoot = paths.get();
    PrfOutput key = PrfOutput.copyOf(root);
    Path path = byRoot.get(key);
    if (path == null) {
      path = new Path(root);
      byRoot.put(key, path);
    }
    return path.leaf(index).clone();
  }

  /** How many roots' last paths each thread keeps per tree (at most about 550 bytes each). */
  static final int REMEMBERED_PATHS = 256;

  /** The nodes from a root down to its last leaf asked for: {@code nodes[d]} is at level d. */
  private final class Path {
    private final byte[][] nodes = new byte[levels + 1][];
    private long index = -1;

    Path(byte[] root) {
      nodes[0] = root.clone();
    }

    byte[] leaf(long wanted) {
      // The levels above the first digit in which the two numbers differ are shared.
      int keep = index < 0 ? 0
          : Math.min(levels, (Long.numberOfLeadingZeros(index ^ wanted) - (Long.SIZE - ENTRY_BITS)) / digitBits);
      for (int d = keep; d < levels; d++) {
        nodes[d + 1] = child(nodes[d], digit(wanted, d));
      }
      index = wanted;
      return nodes[levels];
    }
  }

  /**
   * The fewest nodes whose leaves are exactly {@code [0, count)}: per level, one per unit of
   * count's digit there (the root alone for 2^ENTRY_BITS).
   */
  public List<SubtreeToken> cover(byte[] root, long count) {
    if (count < 0 || count > MAX_ENTRIES) {
      throw new IllegalArgumentException("count " + count + " outside [0, 2^" + ENTRY_BITS + "]");
    }
    List<SubtreeToken> out = new ArrayList<>();
    if (count == MAX_ENTRIES) {
      out.add(new SubtreeToken(this, ENTRY_BITS, 0, root.clone()));
      return out;
    }
    byte[] node = root;
    long first = 0;
    for (int level = 0; level < levels && first < count; level++) {
      int height = ENTRY_BITS - (level + 1) * digitBits;
      int digit = digit(count, level);
      byte[] both = null;
      for (int j = 0; j <= digit; j++) {
        if ((j & 1) == 0) {
          both = pair(node, j >>> 1);
        }
        byte[] child = half(both, j & 1);
        if (j < digit) {
          out.add(new SubtreeToken(this, height, first + ((long) j << height), child));
        } else {
          node = child;
        }
      }
      first += (long) digit << height;
    }
    return out;
  }

  /**
   * A token that reaches exactly the entry keyed {@code key}: a node of height 0, whose seed is
   * the key itself (format 5's first entry, keyed apart from the tree).
   */
  public SubtreeToken singleEntry(byte[] key) {
    if (key.length != SEED_BYTES) {
      throw new IllegalArgumentException("an entry key has " + SEED_BYTES + " bytes");
    }
    return new SubtreeToken(this, 0, 0, key.clone());
  }

  /** Hands every leaf below {@code token} to {@code leaves}, in leaf order. */
  public static void expand(SubtreeToken token, Consumer<byte[]> leaves) {
    token.tree().expand(token.seed(), token.height(), leaves);
  }

  private void expand(byte[] seed, int height, Consumer<byte[]> leaves) {
    if (height == 0) {
      leaves.accept(seed);
      return;
    }
    for (int p = 0; p < arity() / 2; p++) {
      byte[] both = pair(seed, p);
      expand(half(both, 0), height - digitBits, leaves);
      expand(half(both, 1), height - digitBits, leaves);
    }
  }

  @Override
  public String toString() {
    return "CounterTree[" + arity() + "-ary, " + levels + " levels]";
  }
}
