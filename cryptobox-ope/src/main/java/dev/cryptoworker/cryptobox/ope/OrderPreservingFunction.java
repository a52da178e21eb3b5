package dev.cryptoworker.cryptobox.ope;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;

/**
 * A keyed random order-preserving function from 64-bit unsigned integers to 128-bit unsigned
 * integers, sampled lazily as in Boldyreva, Chenette, Lee and O'Neill (EUROCRYPT 2009).
 *
 * <p>The range [0, 2^128) is split at its middle; how many of the M domain points of the current
 * node map below the split is drawn from the hypergeometric distribution HGD(N, M, N/2) with coins
 * from a PRF of the node; the walk recurses into the half holding the plaintext (or, to decrypt,
 * the ciphertext) until one domain point is left, whose ciphertext is then drawn uniformly from
 * the node's range. About 64 nodes are visited per operation.
 *
 * <p>Node identity: range nodes are dyadic intervals, so the first point of a node's upper half
 * ({@code label}) names the node uniquely and is the PRF input. Every node with the same label has
 * the same domain count in every run, so encryption and decryption of different values agree on
 * the nodes they share.
 *
 * <p>Sampling HGD(N, M, N/2): the range stays about 2^64 times larger than the domain at every node,
 * so the finite-population factor (N-M)/(N-1) differs from 1 by less than 2^-60 and HGD equals
 * Binomial(M, 1/2) to that precision. It is drawn exactly, as the number of ones among M PRF bits,
 * when M is at most {@value #EXACT_LIMIT}, and above that by the normal approximation N(M/2, M/4)
 * through an inverse-CDF of 53 PRF bits (Berry-Esseen bounds the distance by 0.4/sqrt(M) < 1.3%
 * per node, and only where M > 1024). The approximation affects only how closely the function
 * follows the ideal random order-preserving function; order, determinism and invertibility are
 * exact whatever is drawn, since every draw is clamped to the feasible counts.
 *
 * <p>Nodes already drawn are remembered ({@link #WAYS} per depth, by label and tweak): values
 * close together share the upper part of their walks, so the next of a run of increasing values (row
 * keys, timestamps, a string's common prefix) draws only the nodes below where the two walks part.
 * The function is the same; only repeated PRF calls are saved.
 *
 * <p>Not thread-safe: one instance per thread (it holds JCE ciphers).
 */
final class OrderPreservingFunction {
  static final int EXACT_LIMIT = 1024;
  private static final int BLOCK = 16;

  private final Cipher treeCoins;
  private final Cipher bitCoins;
  private final byte[] in = new byte[BLOCK];
  private final byte[] out = new byte[BLOCK];
  private final long[] bitBlocks = new long[2 * (EXACT_LIMIT / 128)];
  private long tweakHi;
  private long tweakLo;

  /** Remembered nodes per depth: a string's chunks walk under different tweaks, and each keeps its own way. */
  private static final int WAY_BITS = 2;
  static final int WAYS = 1 << WAY_BITS;
  /** Walks end by depth 127 (the loop stops once a node holds one point). */
  private static final int DEPTHS = 128;
  /** Per remembered node: range start (two longs), tweak (two longs), draw; one node's fields side by side. */
  private static final int STRIDE = 5;
  /**
   * No node at depth 127 or above starts at an odd point, so a range start whose low long is 1
   * marks a slot that holds no node yet.
   */
  private static final long EMPTY = 1;
  private final long[] nodes = new long[DEPTHS * WAYS * STRIDE];
  /** Nodes drawn (not remembered) so far: what the memory saves, for tests. */
  long nodesDrawn;

  OrderPreservingFunction() {
    forgetNodes();
    try {
      treeCoins = Cipher.getInstance("AES/ECB/NoPadding");
      bitCoins = Cipher.getInstance("AES/ECB/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES is not available", e);
    }
  }

  /**
   * Selects an independent function under the same keys: every PRF input is XORed with the
   * tweak. Chunks of a string use a tweak chained from their prefix, which makes them independent
   * functions without re-keying AES (labels of two tweaks collide with probability about
   * 2^12 / 2^128).
   */
  void tweak(long hi, long lo) {
    tweakHi = hi;
    tweakLo = lo;
  }

  /** Keys the function: two independent AES-128 keys (tree coins, bit coins); tweak zero. */
  void init(SecretKey treeKey, SecretKey bitKey) {
    try {
      treeCoins.init(Cipher.ENCRYPT_MODE, treeKey);
      bitCoins.init(Cipher.ENCRYPT_MODE, bitKey);
      tweakHi = 0;
      tweakLo = 0;
      forgetNodes(); // the previous keys' function
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot key AES", e);
    }
  }

  /** Encrypts {@code m} (unsigned); writes the 128-bit ciphertext big-endian into {@code dst}. */
  void encrypt(long m, byte[] dst, int offset) {
    long dlo = 0;
    long mMinus1 = -1L; // M - 1, unsigned: the root holds all 2^64 points
    long rhi = 0;
    long rlo = 0;
    int depth = 0; // the node's range has 2^(128 - depth) points
    while (mMinus1 != 0) {
      long lhi = labelHi(rhi, depth);
      long llo = labelLo(rlo, depth);
      long x = left(mMinus1, depth, rhi, rlo, lhi, llo);
      if (Long.compareUnsigned(m - dlo, x) < 0) {
        mMinus1 = x - 1;
      } else {
        dlo += x;
        mMinus1 -= x;
        rhi = lhi;
        rlo = llo;
      }
      depth++;
    }
    leaf(rhi, rlo, depth);
    writeLong(dst, offset, leafHi);
    writeLong(dst, offset + 8, leafLo);
  }

  /**
   * Decrypts the 128-bit big-endian ciphertext at {@code src}.
   *
   * @throws GeneralSecurityException if it is not the image of any plaintext under this key (a
   *     random or altered ciphertext, or another key's, is caught with probability 1 - 2^-64)
   */
  long decrypt(byte[] src, int offset) throws GeneralSecurityException {
    long chi = readLong(src, offset);
    long clo = readLong(src, offset + 8);
    long dlo = 0;
    long mMinus1 = -1L;
    long rhi = 0;
    long rlo = 0;
    int depth = 0;
    while (mMinus1 != 0) {
      long lhi = labelHi(rhi, depth);
      long llo = labelLo(rlo, depth);
      long x = left(mMinus1, depth, rhi, rlo, lhi, llo);
      boolean below = Long.compareUnsigned(chi, lhi) < 0 || (chi == lhi && Long.compareUnsigned(clo, llo) < 0);
      if (below) {
        if (x == 0) {
          throw notACiphertext();
        }
        mMinus1 = x - 1;
      } else {
        if (x - 1 == mMinus1) { // x == M: the upper half holds no plaintext
          throw notACiphertext();
        }
        dlo += x;
        mMinus1 -= x;
        rhi = lhi;
        rlo = llo;
      }
      depth++;
    }
    leaf(rhi, rlo, depth);
    if (leafHi != chi || leafLo != clo) {
      throw notACiphertext();
    }
    return dlo;
  }

  private static GeneralSecurityException notACiphertext() {
    return new GeneralSecurityException(
        "not an OPE ciphertext of this column's key (altered, moved from another column, or another key)");
  }

  /** High half of the node label: the node's range start with bit (127 - depth) set. */
  private static long labelHi(long rhi, int depth) {
    return depth < 64 ? rhi | (1L << (63 - depth)) : rhi;
  }

  private static long labelLo(long rlo, int depth) {
    return depth < 64 ? rlo : rlo | (1L << (127 - depth));
  }

  /**
   * {@link #sampleLeft} of the node at {@code depth} starting at {@code (rhi, rlo)}, remembered: a
   * node's label and the tweak fix its draw (and its M), so a remembered draw is the draw.
   */
  private long left(long mMinus1, int depth, long rhi, long rlo, long lhi, long llo) {
    int way = (int) ((tweakHi ^ tweakLo) * 0x9E3779B97F4A7C15L >>> (Long.SIZE - WAY_BITS));
    int i = (depth * WAYS + way) * STRIDE;
    if (nodes[i + 1] == rlo && nodes[i] == rhi && nodes[i + 2] == tweakHi && nodes[i + 3] == tweakLo) {
      return nodes[i + 4];
    }
    long x = sampleLeft(mMinus1, depth, lhi, llo);
    nodesDrawn++;
    nodes[i] = rhi;
    nodes[i + 1] = rlo;
    nodes[i + 2] = tweakHi;
    nodes[i + 3] = tweakLo;
    nodes[i + 4] = x;
    return x;
  }

  private void forgetNodes() {
    for (int i = 1; i < nodes.length; i += STRIDE) {
      nodes[i] = EMPTY;
    }
  }

  /**
   * How many of the node's M points map to its lower half: HGD(N, M, N/2), clamped to the feasible
   * counts max(0, M - cap) <= x <= min(M, cap), where each half holds cap = 2^(127 - depth) points.
   */
  private long sampleLeft(long mMinus1, int depth, long lhi, long llo) {
    long x;
    if (Long.compareUnsigned(mMinus1, EXACT_LIMIT) < 0) {
      x = binomialHalf((int) mMinus1 + 1, lhi, llo);
    } else {
      coin(treeCoins, lhi, llo);
      double u = ((readLong(out, 0) >>> 11) + 0.5) * 0x1.0p-53;
      double m = unsignedToDouble(mMinus1) + 1.0;
      long delta = Math.round(0.5 * Math.sqrt(m) * InverseNormal.quantile(u));
      long half = (mMinus1 >>> 1) + (mMinus1 & 1); // floor(M / 2)
      if (delta < 0 && Long.compareUnsigned(-delta, half) > 0) {
        x = 0;
      } else {
        x = half + delta;
        if (mMinus1 != -1L && Long.compareUnsigned(x, mMinus1 + 1) > 0) {
          x = mMinus1 + 1;
        }
      }
    }
    if (depth >= 64) { // capacity below 2^64: it may bind
      long cap = 1L << (127 - depth); // 2^63 at depth 64: compare unsigned
      if (Long.compareUnsigned(x, cap) > 0) {
        x = cap;
      }
      if (Long.compareUnsigned(mMinus1, cap) >= 0) { // M > cap
        long lowest = mMinus1 + 1 - cap;
        if (Long.compareUnsigned(x, lowest) < 0) {
          x = lowest;
        }
      }
    }
    return x;
  }

  /** Binomial(M, 1/2), exactly: ones among M PRF bits of this node. */
  private long binomialHalf(int m, long lhi, long llo) {
    coin(bitCoins, lhi, llo);
    long seedHi = readLong(out, 0);
    long seedLo = readLong(out, 8);
    int blocks = (m + 127) / 128;
    bitBlocks[0] = seedHi;
    bitBlocks[1] = seedLo;
    for (int i = 1; i < blocks; i++) {
      coin(bitCoins, seedHi, seedLo ^ i);
      bitBlocks[2 * i] = readLong(out, 0);
      bitBlocks[2 * i + 1] = readLong(out, 8);
    }
    int count = 0;
    int fullWords = m / 64;
    for (int w = 0; w < fullWords; w++) {
      count += Long.bitCount(bitBlocks[w]);
    }
    int rest = m % 64;
    if (rest > 0) {
      count += Long.bitCount(bitBlocks[fullWords] >>> (64 - rest));
    }
    return count;
  }

  private long leafHi;
  private long leafLo;

  /** The ciphertext of the single point of a node: uniform in its range (PRF of the node). */
  private void leaf(long rhi, long rlo, int depth) {
    int free = 128 - depth; // low bits free to choose
    if (free == 0) {
      leafHi = rhi;
      leafLo = rlo;
      return;
    }
    coin(treeCoins, labelHi(rhi, depth), labelLo(rlo, depth));
    long r1 = readLong(out, 0);
    long r2 = readLong(out, 8);
    if (free >= 64) {
      long mask = free == 128 ? -1L : (1L << (free - 64)) - 1;
      leafHi = rhi | (r1 & mask);
      leafLo = r2;
    } else {
      leafHi = rhi;
      leafLo = rlo | (r2 & ((1L << free) - 1));
    }
  }

  private void coin(Cipher cipher, long hi, long lo) {
    writeLong(in, 0, hi ^ tweakHi);
    writeLong(in, 8, lo ^ tweakLo);
    try {
      cipher.update(in, 0, BLOCK, out, 0); // ECB without padding: update is a whole operation
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES failed", e);
    }
  }

  private static double unsignedToDouble(long v) {
    double d = (double) (v >>> 1) * 2.0;
    return d + (v & 1);
  }

  static long readLong(byte[] b, int o) {
    return (long) LONGS.get(b, o);
  }

  static void writeLong(byte[] b, int o, long v) {
    LONGS.set(b, o, v);
  }

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
}
