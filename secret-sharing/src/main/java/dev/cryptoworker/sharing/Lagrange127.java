package dev.cryptoworker.sharing;

import java.math.BigInteger;

/**
 * Interpolation over the field of 2^127 - 1 ({@link Mersenne127}): the value at some x of the
 * polynomial of degree below k through k points, and whether more points lie on it.
 */
final class Lagrange127 {
  private Lagrange127() {}

  /**
   * The value at {@code x} of the polynomial of degree below {@code k} through the first {@code k}
   * points ({@code xs[i]}, {@code ys[i]}) (distinct xs).
   */
  static BigInteger at(long x, long[] xs, BigInteger[] ys, int k) {
    BigInteger out = BigInteger.ZERO;
    BigInteger bx = BigInteger.valueOf(x);
    for (int i = 0; i < k; i++) {
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      BigInteger xi = BigInteger.valueOf(xs[i]);
      for (int j = 0; j < k; j++) {
        if (j != i) {
          BigInteger xj = BigInteger.valueOf(xs[j]);
          num = Mersenne127.mul(num, Mersenne127.sub(bx.mod(Mersenne127.P), xj));
          den = Mersenne127.mul(den, Mersenne127.sub(xi, xj));
        }
      }
      out = Mersenne127.add(out, Mersenne127.mul(ys[i], Mersenne127.mul(num, Mersenne127.inverse(den))));
    }
    return out;
  }

  /** Whether every point lies on the polynomial of degree below {@code k} through the first {@code k}. */
  static boolean onOnePolynomial(long[] xs, BigInteger[] ys, int k) {
    for (int j = k; j < xs.length; j++) {
      if (!at(xs[j], xs, ys, k).equals(ys[j])) {
        return false;
      }
    }
    return true;
  }

  /**
   * Which point alone is off the polynomial of degree below {@code k} the others lie on: -1 if all
   * lie on one, the point's position if removing it (and no other one) leaves at least k + 1 points
   * on one polynomial.
   *
   * @throws ShareDecodingException {@code what} and why, if the points do not lie on one polynomial
   *     and no single point explains it
   */
  static int outlier(long[] xs, BigInteger[] ys, int k, String what) throws ShareDecodingException {
    if (onOnePolynomial(xs, ys, k)) {
      return -1;
    }
    int found = -1;
    if (xs.length - 1 > k) {
      for (int drop = 0; drop < xs.length; drop++) {
        if (onOnePolynomial(without(xs, drop), without(ys, drop), k)) {
          if (found >= 0) {
            found = -2;
            break;
          }
          found = drop;
        }
      }
    }
    if (found < 0) {
      throw new ShareDecodingException(what + ": the " + xs.length + " points do not lie on one polynomial of degree "
          + (k - 1) + (xs.length - 1 > k ? ", and no single one of them explains it" : " (one spare: detected, not"
          + " located)"));
    }
    return found;
  }

  static long[] without(long[] a, int drop) {
    long[] out = new long[a.length - 1];
    System.arraycopy(a, 0, out, 0, drop);
    System.arraycopy(a, drop + 1, out, drop, out.length - drop);
    return out;
  }

  static BigInteger[] without(BigInteger[] a, int drop) {
    BigInteger[] out = new BigInteger[a.length - 1];
    System.arraycopy(a, 0, out, 0, drop);
    System.arraycopy(a, drop + 1, out, drop, out.length - drop);
    return out;
  }
}
