package dev.cryptoworker.cryptobox.ope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.SplittableRandom;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class OrderPreservingFunctionTest {
  private static OrderPreservingFunction function(int seed) {
    OrderPreservingFunction f = new OrderPreservingFunction();
    byte[] k1 = new byte[16];
    byte[] k2 = new byte[16];
    Arrays.fill(k1, (byte) seed);
    Arrays.fill(k2, (byte) (seed + 100));
    f.init(new SecretKeySpec(k1, "AES"), new SecretKeySpec(k2, "AES"));
    return f;
  }

  private static byte[] enc(OrderPreservingFunction f, long m) {
    byte[] c = new byte[16];
    f.encrypt(m, c, 0);
    return c;
  }

  @Test
  void strictlyMonotoneAndInvertibleOnRandomAndEdgeValues() throws Exception {
    OrderPreservingFunction f = function(1);
    SplittableRandom r = new SplittableRandom(5);
    long[] values = new long[3000];
    for (int i = 0; i < values.length; i++) {
      values[i] = switch (i % 6) {
        case 0 -> r.nextLong();
        case 1 -> r.nextLong(1000);            // small, dense
        case 2 -> -1L - r.nextLong(1000);      // top of the unsigned range
        case 3 -> (1L << 63) + r.nextLong(-500, 500);
        default -> r.nextLong() >>> r.nextInt(64);
      };
    }
    values[0] = 0;
    values[1] = -1L;
    values[2] = Long.MIN_VALUE;
    values[3] = Long.MAX_VALUE;
    values[4] = 1;
    long[] sorted = values.clone();
    Arrays.sort(sorted); // signed sort; compare by unsigned below
    Long[] boxed = Arrays.stream(values).boxed().distinct().sorted(Long::compareUnsigned).toArray(Long[]::new);
    byte[] previous = null;
    for (long v : boxed) {
      byte[] c = enc(f, v);
      assertEquals(v, f.decrypt(c, 0), "decrypt inverts encrypt");
      assertArrayEquals(c, enc(f, v), "deterministic");
      if (previous != null) {
        assertTrue(Arrays.compareUnsigned(previous, c) < 0, "order at " + Long.toUnsignedString(v));
      }
      previous = c;
    }
  }

  @Test
  void consecutiveValuesStayOrdered() throws Exception {
    OrderPreservingFunction f = function(2);
    for (long base : new long[] {0, 1L << 40, -2000L, Long.MAX_VALUE - 1000}) {
      byte[] prev = enc(f, base);
      for (long v = base + 1; v < base + 1000; v++) {
        byte[] c = enc(f, v);
        assertTrue(Arrays.compareUnsigned(prev, c) < 0);
        assertEquals(v, f.decrypt(c, 0));
        prev = c;
      }
    }
  }

  @Test
  void differentKeysGiveUnrelatedCiphertexts() {
    OrderPreservingFunction a = function(3);
    OrderPreservingFunction b = function(4);
    int equalPrefixBytes = 0;
    for (long v = 0; v < 100; v++) {
      byte[] ca = enc(a, v * 7919);
      byte[] cb = enc(b, v * 7919);
      int i = Arrays.mismatch(ca, cb);
      equalPrefixBytes += Math.max(i, 0);
    }
    // Ciphertexts of small values all start near 0 for both keys (order leaks the magnitude), but
    // beyond the first bytes they are unrelated.
    assertTrue(equalPrefixBytes < 100 * 10, "average shared prefix " + equalPrefixBytes / 100.0 + " bytes");
  }

  @Test
  void randomOrAlteredCiphertextsAreRejected() {
    OrderPreservingFunction f = function(5);
    SplittableRandom r = new SplittableRandom(9);
    int rejected = 0;
    for (int i = 0; i < 200; i++) {
      byte[] c = enc(f, r.nextLong());
      c[r.nextInt(16)] ^= (byte) (1 << r.nextInt(8));
      try {
        f.decrypt(c, 0);
      } catch (GeneralSecurityException e) {
        rejected++;
      }
    }
    assertEquals(200, rejected);
    assertThrows(GeneralSecurityException.class, () -> function(6).decrypt(enc(f, 42), 0));
  }

  @Test
  void splitsFollowTheBinomialAtTheRoot() {
    // The first bit of a ciphertext says which half of the range the value fell in: about half
    // of uniformly drawn values must fall in each half, and the split point sits near 2^63.
    OrderPreservingFunction f = function(7);
    SplittableRandom r = new SplittableRandom(1);
    int upper = 0;
    for (int i = 0; i < 4000; i++) {
      if ((enc(f, r.nextLong())[0] & 0x80) != 0) {
        upper++;
      }
    }
    assertTrue(Math.abs(upper - 2000) < 200, "upper half got " + upper + " of 4000");
  }

  @Test
  void rememberedNodesChangeNoCiphertext() throws Exception {
    OrderPreservingFunction warm = function(11);
    SplittableRandom r = new SplittableRandom(12);
    long[][] tweaks = {{0, 0}, {r.nextLong(), r.nextLong()}, {r.nextLong(), r.nextLong()}, {r.nextLong(), r.nextLong()},
        {r.nextLong(), r.nextLong()}, {r.nextLong(), r.nextLong()}};
    long base = r.nextLong();
    for (int i = 0; i < 3000; i++) {
      long[] t = tweaks[r.nextInt(tweaks.length)]; // more tweaks than ways: they evict each other
      long m = switch (i % 3) {
        case 0 -> base + i; // a run of increasing values
        case 1 -> r.nextLong();
        default -> r.nextLong(100);
      };
      warm.tweak(t[0], t[1]);
      byte[] c = enc(warm, m);
      OrderPreservingFunction cold = function(11);
      cold.tweak(t[0], t[1]);
      assertArrayEquals(enc(cold, m), c, "value " + Long.toUnsignedString(m));
      assertEquals(m, warm.decrypt(c, 0));
    }
    // New keys on the same instance: nothing of the old function's nodes is used.
    warm.init(new SecretKeySpec(new byte[16], "AES"), new SecretKeySpec(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15, 16}, "AES"));
    OrderPreservingFunction fresh = new OrderPreservingFunction();
    fresh.init(new SecretKeySpec(new byte[16], "AES"), new SecretKeySpec(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15, 16}, "AES"));
    assertArrayEquals(enc(fresh, base + 1), enc(warm, base + 1));
  }

  @Test
  void aRunOfIncreasingValuesDrawsOnlyTheNodesWhereTheirWalksPart() {
    OrderPreservingFunction f = function(13);
    enc(f, 1L << 40);
    long first = f.nodesDrawn;
    for (long v = (1L << 40) + 1; v <= (1L << 40) + 1000; v++) {
      enc(f, v);
    }
    long perValue = (f.nodesDrawn - first) / 1000;
    assertTrue(first >= 60, "a first walk draws every node: " + first);
    assertTrue(perValue <= 8, "nodes drawn per value of an increasing run: " + perValue + " (a walk has " + first + ")");
  }
}
