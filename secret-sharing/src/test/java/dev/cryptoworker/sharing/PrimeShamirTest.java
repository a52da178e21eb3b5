package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * SHAMIR_P127 against properties checked with the test's own BigInteger arithmetic: shares are
 * points of one polynomial of degree z whose constant term is the value's residue mod 2^127 - 1,
 * any z + 1 decode, any z fit every value, sums of shares decode to exact sums, and a lying store is
 * found when partials are spare.
 */
class PrimeShamirTest {
  private static final BigInteger P = BigInteger.TWO.pow(127).subtract(BigInteger.ONE);
  private static final long[] EDGES = {0, 1, -1, 42, -42, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
  private static final int[][] PARAMETERS = {{3, 1, 1}, {4, 1, 1}, {5, 1, 2}, {6, 2, 2}, {8, 2, 3}};

  private static SecretSharing scheme(int n, int r, int z) {
    return SecretSharings.create(SharingKind.SHAMIR_P127, new SharingParameters(n, r, z), null);
  }

  private static byte[] bytes(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  private static BigInteger element(byte[] share) {
    byte[] body = new byte[16];
    System.arraycopy(share, ShareHeader.LENGTH, body, 0, 16);
    return new BigInteger(1, body);
  }

  /** The test's own interpolation at {@code x} through points (xs, ys): Lagrange with BigInteger.mod. */
  private static BigInteger interpolate(long x, long[] xs, BigInteger[] ys) {
    BigInteger out = BigInteger.ZERO;
    for (int i = 0; i < xs.length; i++) {
      BigInteger term = ys[i];
      for (int j = 0; j < xs.length; j++) {
        if (j != i) {
          term = term.multiply(BigInteger.valueOf(x - xs[j]))
              .multiply(BigInteger.valueOf(xs[i] - xs[j]).modInverse(P));
        }
      }
      out = out.add(term);
    }
    return out.mod(P);
  }

  private static Map<Integer, byte[]> pick(byte[][] shares, int... indexes) {
    Map<Integer, byte[]> out = new HashMap<>();
    for (int i : indexes) {
      out.put(i, shares[i]);
    }
    return out;
  }

  private static List<Long> values() {
    List<Long> out = new ArrayList<>();
    for (long v : EDGES) {
      out.add(v);
    }
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 20; i++) {
      out.add(random.nextLong());
    }
    return out;
  }

  @Test
  void sharesArePointsOfOnePolynomialOfDegreeZWithTheResidueAtZero() throws Exception {
    for (int[] p : PARAMETERS) {
      SecretSharing s = scheme(p[0], p[1], p[2]);
      for (long v : values()) {
        byte[][] shares = s.split(bytes(v), null);
        long[] xs = new long[shares.length];
        BigInteger[] ys = new BigInteger[shares.length];
        for (int i = 0; i < shares.length; i++) {
          assertEquals(ShareHeader.LENGTH + 16, shares[i].length);
          assertEquals(SharingKind.SHAMIR_P127.ordinal(), shares[i][1]);
          xs[i] = i + 1;
          ys[i] = element(shares[i]);
          assertTrue(ys[i].compareTo(P) < 0);
        }
        int k = p[2] + 1;
        long[] firstX = java.util.Arrays.copyOf(xs, k);
        BigInteger[] firstY = java.util.Arrays.copyOf(ys, k);
        assertEquals(BigInteger.valueOf(v).mod(P), interpolate(0, firstX, firstY), "residue of " + v);
        for (int i = k; i < xs.length; i++) {
          assertEquals(ys[i], interpolate(xs[i], firstX, firstY), "share " + i + " off the polynomial of degree z");
        }
      }
    }
  }

  @Test
  void anyZPlusOneSharesDecode() throws Exception {
    for (int[] p : PARAMETERS) {
      SecretSharing s = scheme(p[0], p[1], p[2]);
      assertEquals(p[2] + 1, s.threshold());
      for (long v : values()) {
        byte[][] shares = s.split(bytes(v), null);
        for (int[] subset : LinearCode.subsets(GfArithmeticTest.range(p[0]), s.threshold(), 60)) {
          Reconstruction back = s.join(pick(shares, subset), null);
          assertArrayEquals(bytes(v), back.value(), v + " from " + java.util.Arrays.toString(subset));
          assertEquals(Set.of(), back.corruptShares());
        }
        assertArrayEquals(bytes(v), s.join(pick(shares, GfArithmeticTest.range(p[0])), null).value());
      }
    }
  }

  /** Shares written by hand: f(x) = 5 + 7x, and f(x) = (p - 3) + 2x, whose values wrap around p. */
  @Test
  void knownAnswerSharesDecode() throws Exception {
    SecretSharing s = scheme(4, 1, 1);
    assertArrayEquals(bytes(5), s.join(handMade(5, 7), null).value());
    assertArrayEquals(bytes(-3), s.join(handMade(-3, 2), null).value());
    byte[][] wrapped = new byte[4][];
    handMade(-3, 2).forEach((i, share) -> wrapped[i] = share);
    assertEquals(P.subtract(BigInteger.ONE), element(wrapped[0]), "f(1) = p - 1");
    assertEquals(BigInteger.ONE, element(wrapped[1]), "f(2) = p + 1 = 1");
  }

  private static Map<Integer, byte[]> handMade(long constant, long slope) {
    Map<Integer, byte[]> out = new HashMap<>();
    byte[] splitId = new byte[ShareHeader.SPLIT_ID_LENGTH];
    for (int i = 0; i < 4; i++) {
      BigInteger y = BigInteger.valueOf(constant).add(BigInteger.valueOf(slope).multiply(BigInteger.valueOf(i + 1)))
          .mod(P);
      byte[] share = new byte[ShareHeader.LENGTH + 16];
      ShareHeader.write(share, SharingKind.SHAMIR_P127, i, 8, splitId);
      byte[] b = y.toByteArray();
      int length = Math.min(16, b.length);
      System.arraycopy(b, b.length - length, share, ShareHeader.LENGTH + 16 - length, length);
      out.put(i, share);
    }
    return out;
  }

  /**
   * Any z shares fit every value: through them and (0, any candidate) runs a polynomial of degree z,
   * and the other shares it gives decode, with the z real ones, to that candidate.
   */
  @Test
  void anyZSharesAreConsistentWithEveryValue() throws Exception {
    SecretSharing s = scheme(6, 2, 2);
    byte[][] shares = s.split(bytes(123_456_789L), null);
    long[] candidates = {0, -1, 123_456_790L, Long.MIN_VALUE, Long.MAX_VALUE};
    for (int[] seen : LinearCode.subsets(GfArithmeticTest.range(6), 2, 60)) {
      for (long candidate : candidates) {
        long[] xs = {0, seen[0] + 1, seen[1] + 1};
        BigInteger[] ys = {BigInteger.valueOf(candidate).mod(P), element(shares[seen[0]]), element(shares[seen[1]])};
        int other = 0;
        while (other == seen[0] || other == seen[1]) {
          other++;
        }
        byte[] forged = shares[other].clone();
        byte[] y = interpolate(other + 1, xs, ys).toByteArray();
        java.util.Arrays.fill(forged, ShareHeader.LENGTH, forged.length, (byte) 0);
        int length = Math.min(16, y.length);
        System.arraycopy(y, y.length - length, forged, forged.length - length, length);
        Map<Integer, byte[]> three = pick(shares, seen);
        three.put(other, forged);
        assertArrayEquals(bytes(candidate), s.join(three, null).value(),
            "shares " + java.util.Arrays.toString(seen) + " rule out " + candidate);
      }
    }
  }

  /** Each store adds its shares; the partials decode to the exact sum, beyond a long's range too. */
  @Test
  void sumsOfSharesAreSharesOfTheSum() throws Exception {
    SecretSharing s = scheme(5, 1, 2);
    ShareSums sums = s.sums().orElseThrow();
    PrimeShareSum[] stores = new PrimeShareSum[5];
    for (int i = 0; i < stores.length; i++) {
      stores[i] = new PrimeShareSum();
    }
    BigInteger expected = BigInteger.ZERO;
    List<Long> values = values();
    for (int round = 0; round < 40; round++) {
      for (long v : values) {
        byte[][] shares = s.split(bytes(v), null);
        for (int i = 0; i < stores.length; i++) {
          stores[i].add(shares[i]);
        }
        expected = expected.add(BigInteger.valueOf(v));
      }
      long[] big = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 5};
      for (long v : big) {
        byte[][] shares = s.split(bytes(v), null);
        for (int i = 0; i < stores.length; i++) {
          stores[i].add(shares[i]);
        }
        expected = expected.add(BigInteger.valueOf(v));
      }
    }
    assertTrue(expected.bitLength() > 63, "the test's sum leaves a long's range");
    Map<Integer, PrimeShareSum> all = new HashMap<>();
    for (int i = 0; i < stores.length; i++) {
      all.put(i, PrimeShareSum.parse(stores[i].toBytes()));
      assertEquals(i, all.get(i).index());
    }
    assertEquals(expected, sums.combine(all));
    for (int[] subset : LinearCode.subsets(GfArithmeticTest.range(5), 3, 60)) {
      Map<Integer, PrimeShareSum> some = new HashMap<>();
      for (int i : subset) {
        some.put(i, all.get(i));
      }
      assertEquals(expected, sums.combine(some), java.util.Arrays.toString(subset));
    }
    // Two regions of one store: their partials add up.
    PrimeShareSum a = new PrimeShareSum();
    PrimeShareSum b = new PrimeShareSum();
    byte[][] x = s.split(bytes(-7), null);
    byte[][] y = s.split(bytes(3), null);
    a.add(x[0]);
    b.add(y[0]);
    Map<Integer, PrimeShareSum> twoRows = new HashMap<>();
    for (int i = 0; i < 3; i++) {
      PrimeShareSum one = new PrimeShareSum();
      PrimeShareSum two = new PrimeShareSum();
      one.add(x[i]);
      two.add(y[i]);
      twoRows.put(i, one.plus(two).plus(new PrimeShareSum()));
    }
    assertEquals(BigInteger.valueOf(-4), sums.combine(twoRows));
    assertEquals(2, twoRows.get(0).count());
  }

  private static Map<Integer, PrimeShareSum> partialsOf(SecretSharing s, long... values) throws Exception {
    Map<Integer, PrimeShareSum> out = new HashMap<>();
    for (int i = 0; i < s.parameters().n(); i++) {
      out.put(i, new PrimeShareSum());
    }
    for (long v : values) {
      byte[][] shares = s.split(bytes(v), null);
      for (int i = 0; i < shares.length; i++) {
        out.get(i).add(shares[i]);
      }
    }
    return out;
  }

  /** A store that adds one to its partial's element: a lie the field allows. */
  private static PrimeShareSum lie(PrimeShareSum honest) {
    byte[] b = honest.toBytes();
    BigInteger forged = new BigInteger(1, java.util.Arrays.copyOfRange(b, 1, 17)).add(BigInteger.ONE).mod(P);
    byte[] e = forged.toByteArray();
    java.util.Arrays.fill(b, 1, 17, (byte) 0);
    int length = Math.min(16, e.length);
    System.arraycopy(e, e.length - length, b, 17 - length, length);
    return PrimeShareSum.parse(b);
  }

  @Test
  void aLyingStoreIsLocatedWithTwoSparePartialsDetectedWithOneAndUnseenAtTheThreshold() throws Exception {
    SecretSharing s = scheme(4, 1, 1); // threshold 2
    ShareSums sums = s.sums().orElseThrow();
    Map<Integer, PrimeShareSum> partials = partialsOf(s, 10, -20, 30);
    partials.put(2, lie(partials.get(2)));
    ShareDecodingException located = assertThrows(ShareDecodingException.class, () -> sums.combine(partials));
    assertTrue(located.getMessage().contains("store 2 disagrees"), located.getMessage());
    Map<Integer, PrimeShareSum> three = new HashMap<>(partials);
    three.remove(3);
    ShareDecodingException detected = assertThrows(ShareDecodingException.class, () -> sums.combine(three));
    assertTrue(detected.getMessage().contains("do not lie on one polynomial"), detected.getMessage());
    Map<Integer, PrimeShareSum> two = Map.of(0, partials.get(0), 2, partials.get(2));
    assertNotEquals(BigInteger.valueOf(20), sums.combine(two), "at the threshold a lie goes unseen (documented)");
  }

  @Test
  void partialsOfDifferentRowsOrIndexesAreRefused() throws Exception {
    SecretSharing s = scheme(4, 1, 1);
    ShareSums sums = s.sums().orElseThrow();
    Map<Integer, PrimeShareSum> partials = partialsOf(s, 1, 2);
    byte[][] extra = s.split(bytes(3), null);
    partials.get(1).add(extra[1]);
    ShareDecodingException counts = assertThrows(ShareDecodingException.class, () -> sums.combine(partials));
    assertTrue(counts.getMessage().contains("different numbers of shares"), counts.getMessage());
    Map<Integer, PrimeShareSum> moved = partialsOf(s, 1, 2);
    moved.put(3, moved.get(0));
    ShareDecodingException index = assertThrows(ShareDecodingException.class, () -> sums.combine(moved));
    assertTrue(index.getMessage().contains("store 3 returned a partial sum of share 0"), index.getMessage());
    PrimeShareSum store = new PrimeShareSum();
    store.add(extra[0]);
    IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class, () -> store.add(extra[1]));
    assertTrue(mixed.getMessage().contains("shares 0 and 1 in one store"), mixed.getMessage());
    byte[][] gf = SecretSharings.create(SharingKind.SHAMIR, new SharingParameters(4, 1, 1), null).split(bytes(3), null);
    IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class, () -> new PrimeShareSum().add(gf[0]));
    assertTrue(foreign.getMessage().contains("not a SHAMIR_P127 share"), foreign.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PrimeShareSum.parse(new byte[PrimeShareSum.LENGTH - 1]));
  }

  @Test
  void aCorruptShareIsCorrectedWithTwoSpareAndDetectedWithOne() throws Exception {
    SecretSharing s = scheme(4, 1, 1);
    byte[][] shares = s.split(bytes(-99), null);
    shares[1][shares[1].length - 1] ^= 1;
    Reconstruction back = s.join(pick(shares, 0, 1, 2, 3), null);
    assertArrayEquals(bytes(-99), back.value());
    assertEquals(Set.of(1), back.corruptShares());
    assertThrows(ShareDecodingException.class, () -> s.join(pick(shares, 0, 1, 2), null));
  }

  @Test
  void aMissingShareIsRegeneratedAsTheSplitMadeIt() throws Exception {
    SecretSharing s = scheme(5, 2, 2);
    byte[][] shares = s.split(bytes(Long.MIN_VALUE), null);
    for (int missing = 0; missing < 5; missing++) {
      Map<Integer, byte[]> others = pick(shares, GfArithmeticTest.range(5));
      others.remove(missing);
      assertArrayEquals(shares[missing], s.regenerate(others, missing), "share " + missing);
    }
  }

  @Test
  void onlyLongsAreSharedAndOtherSchemesOfferNoSums() throws Exception {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> scheme(4, 1, 1).split(new byte[4], null));
    assertTrue(e.getMessage().contains("8-byte signed longs"), e.getMessage());
    for (SecretSharing other : SecretSharingTest.allSchemes(4, 1, 1)) {
      assertTrue(other.sums().isEmpty(), other.kind() + " adds over GF(2^8): its sums would XOR the values");
    }
    assertThrows(IllegalArgumentException.class, () -> scheme(4, 1, 0));
  }
}
