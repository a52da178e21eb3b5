package dev.cryptoworker.cryptobox.search;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A GGM tree of depth {@value #DEPTH} (Goldreich, Goldwasser, Micali), used as a range-constrained
 * PRF over entry numbers, as in Diana (Bost, Minaud, Ohrimenko, CCS 2017): leaf {@code c} is the
 * index key of a value's c-th entry, and the nodes covering {@code [0, n)} let a region server
 * compute the keys of the first n entries, and of no later one.
 *
 * <p>Each node is a 16-byte seed; its children are the two halves of HMAC-SHA256 keyed with the
 * seed over an empty message. Expanding a node of height h costs 2^h - 1 HMACs. Keyless: region
 * servers run {@link #expand}; clients also derive leaves and covers from a secret root.
 */
public final class CounterTree {
  /** Levels below the root: entry numbers are below 2^DEPTH. */
  public static final int DEPTH = 32;
  /** The largest number of entries one value's index can hold. */
  public static final long MAX_ENTRIES = 1L << DEPTH;
  /** Bytes of every node's seed, leaves included. */
  public static final int SEED_BYTES = 16;

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

  private CounterTree() {}

  /**
   * Both children of a node, left seed then right seed: HMAC-SHA256(seed, empty message), written
   * out from RFC 2104 for a key shorter than a block (SHA-256((K ^ opad) || SHA-256(K ^ ipad))),
   * because a {@code Mac.init} per node cost more than the two digests; tests check it against
   * {@code javax.crypto.Mac}.
   */
  private static byte[] children(byte[] seed) {
    Sha256 sha = SHA256.get();
    try {
      pad(sha.block, seed, IPAD);
      sha.digest.update(sha.block);
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

  private static byte[] child(byte[] seed, boolean right) {
    byte[] both = children(seed);
    return right ? Arrays.copyOfRange(both, SEED_BYTES, 2 * SEED_BYTES) : Arrays.copyOf(both, SEED_BYTES);
  }

  /**
   * Leaf {@code index} below {@code root}. A writer numbers a value's entries one after the other,
   * so each thread keeps the path to the last leaf of its {@value #REMEMBERED_PATHS} most recent
   * roots: the next leaf shares all but about two of its nodes.
   */
  public static byte[] leaf(byte[] root, long index) {
    if (index < 0 || index >= MAX_ENTRIES) {
      throw new IllegalArgumentException("entry number " + index + " outside [0, 2^" + DEPTH + ")");
    }
    Map<ByteBuffer, Path> paths = PATHS.get();
    ByteBuffer key = ByteBuffer.wrap(root.clone());
    Path path = paths.get(key);
    if (path == null) {
      path = new Path(root);
      paths.put(key, path);
    }
    return path.leaf(index).clone();
  }

  /** How many roots' last paths each thread keeps (about 550 bytes each). */
  static final int REMEMBERED_PATHS = 256;

  private static final ThreadLocal<Map<ByteBuffer, Path>> PATHS = ThreadLocal.withInitial(
      () -> new LinkedHashMap<>(REMEMBERED_PATHS * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Path> eldest) {
          return size() > REMEMBERED_PATHS;
        }
      });

  /** The nodes from a root down to its last leaf asked for: {@code nodes[d]} is at depth d. */
  private static final class Path {
    private final byte[][] nodes = new byte[DEPTH + 1][];
    private long index = -1;

    Path(byte[] root) {
      nodes[0] = root.clone();
    }

    byte[] leaf(long wanted) {
      // Depth of the first node that differs: below the longest common prefix of the two numbers.
      int keep = index < 0 ? 0 : Math.min(DEPTH, Long.numberOfLeadingZeros(index ^ wanted) - (Long.SIZE - DEPTH));
      for (int d = keep; d < DEPTH; d++) {
        nodes[d + 1] = child(nodes[d], ((wanted >>> (DEPTH - 1 - d)) & 1) == 1);
      }
      index = wanted;
      return nodes[DEPTH];
    }
  }

  /**
   * The fewest nodes whose leaves are exactly {@code [0, count)}: one per set bit of count, at
   * most {@value #DEPTH} (the root alone for 2^DEPTH).
   */
  public static List<SubtreeToken> cover(byte[] root, long count) {
    if (count < 0 || count > MAX_ENTRIES) {
      throw new IllegalArgumentException("count " + count + " outside [0, 2^" + DEPTH + "]");
    }
    List<SubtreeToken> out = new ArrayList<>();
    if (count == MAX_ENTRIES) {
      out.add(new SubtreeToken(DEPTH, 0, root.clone()));
      return out;
    }
    byte[] node = root;
    long first = 0;
    for (int h = DEPTH - 1; h >= 0 && first < count; h--) {
      byte[] both = children(node);
      byte[] left = Arrays.copyOf(both, SEED_BYTES);
      if (((count >>> h) & 1) == 1) {
        out.add(new SubtreeToken(h, first, left));
        node = Arrays.copyOfRange(both, SEED_BYTES, 2 * SEED_BYTES);
        first += 1L << h;
      } else {
        node = left;
      }
    }
    return out;
  }

  /** Hands every leaf below {@code token} to {@code leaves}, in leaf order. */
  public static void expand(SubtreeToken token, Consumer<byte[]> leaves) {
    expand(token.seed(), token.height(), leaves);
  }

  private static void expand(byte[] seed, int height, Consumer<byte[]> leaves) {
    if (height == 0) {
      leaves.accept(seed);
      return;
    }
    byte[] both = children(seed);
    expand(Arrays.copyOf(both, SEED_BYTES), height - 1, leaves);
    expand(Arrays.copyOfRange(both, SEED_BYTES, 2 * SEED_BYTES), height - 1, leaves);
  }
}
