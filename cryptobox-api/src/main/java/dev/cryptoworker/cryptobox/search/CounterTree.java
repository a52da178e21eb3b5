package dev.cryptoworker.cryptobox.search;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

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

  private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(() -> {
    try {
      return Mac.getInstance("HmacSHA256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK has no HmacSHA256", e);
    }
  });

  private CounterTree() {}

  /** Both children of a node: left seed then right seed. */
  private static byte[] children(byte[] seed) {
    Mac mac = HMAC.get();
    try {
      mac.init(new SecretKeySpec(seed, "HmacSHA256"));
    } catch (InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
    return mac.doFinal();
  }

  private static byte[] child(byte[] seed, boolean right) {
    byte[] both = children(seed);
    return right ? Arrays.copyOfRange(both, SEED_BYTES, 2 * SEED_BYTES) : Arrays.copyOf(both, SEED_BYTES);
  }

  /** Leaf {@code index} below {@code root}. */
  public static byte[] leaf(byte[] root, long index) {
    if (index < 0 || index >= MAX_ENTRIES) {
      throw new IllegalArgumentException("entry number " + index + " outside [0, 2^" + DEPTH + ")");
    }
    byte[] node = root;
    for (int h = DEPTH - 1; h >= 0; h--) {
      node = child(node, ((index >>> h) & 1) == 1);
    }
    return node;
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
