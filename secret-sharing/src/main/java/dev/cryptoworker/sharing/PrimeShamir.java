package dev.cryptoworker.sharing;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link SharingKind#SHAMIR_P127}: Shamir's scheme over the field of p = 2^127 - 1 ({@link
 * Mersenne127}, where the choice of p is explained) for 8-byte signed longs. The value's residue is
 * the constant term of a polynomial of degree z whose other coefficients are uniformly random
 * field elements; share i is its value at x = i + 1, behind the usual {@link ShareHeader} (coded
 * length 8). Any z + 1 shares decode; any z are uniformly random whatever the value. Shares are
 * linear: the sums of shares of x and y are shares of x + y ({@link ShareSums}).
 */
final class PrimeShamir implements SecretSharing, ShareSums {
  private static final ThreadLocal<AesCtrRandom> RANDOM = ThreadLocal.withInitial(AesCtrRandom::new);
  private static final int SHARE_BODY = Mersenne127.BYTES;

  private final SharingParameters parameters;
  private final int threshold;

  PrimeShamir(SharingParameters parameters) {
    this.parameters = parameters;
    this.threshold = parameters.z() + 1;
  }

  @Override
  public SharingKind kind() {
    return SharingKind.SHAMIR_P127;
  }

  @Override
  public SharingParameters parameters() {
    return parameters;
  }

  @Override
  public int threshold() {
    return threshold;
  }

  @Override
  public Optional<ShareSums> sums() {
    return Optional.of(this);
  }

  /**
   * @throws IllegalArgumentException if {@code value} is not 8 bytes (a signed long, big-endian)
   */
  @Override
  public byte[][] split(byte[] value, byte[] associatedData) {
    if (value.length != Long.BYTES) {
      throw new IllegalArgumentException(kind() + " shares 8-byte signed longs, not values of " + value.length
          + " bytes");
    }
    long v = 0;
    for (byte b : value) {
      v = (v << 8) | (b & 0xff);
    }
    AesCtrRandom random = RANDOM.get();
    BigInteger[] coefficients = new BigInteger[threshold];
    coefficients[0] = Mersenne127.residue(v);
    for (int j = 1; j < threshold; j++) {
      coefficients[j] = randomElement(random);
    }
    byte[] splitId = new byte[ShareHeader.SPLIT_ID_LENGTH];
    random.nextBytes(splitId, 0, splitId.length);
    byte[][] shares = new byte[parameters.n()][];
    for (int i = 0; i < shares.length; i++) {
      shares[i] = new byte[ShareHeader.LENGTH + SHARE_BODY];
      ShareHeader.write(shares[i], kind(), i, Long.BYTES, splitId);
      Mersenne127.write(horner(coefficients, i + 1), shares[i], ShareHeader.LENGTH);
    }
    return shares;
  }

  /** A uniformly random element: 127 random bits, drawn again in the one case (all ones) that is p. */
  private static BigInteger randomElement(AesCtrRandom random) {
    byte[] b = new byte[Mersenne127.BYTES];
    BigInteger e;
    do {
      random.nextBytes(b, 0, b.length);
      b[0] &= 0x7f;
      e = new BigInteger(1, b);
    } while (e.equals(Mersenne127.P));
    return e;
  }

  private static BigInteger horner(BigInteger[] coefficients, long x) {
    BigInteger bx = BigInteger.valueOf(x);
    BigInteger y = BigInteger.ZERO;
    for (int j = coefficients.length - 1; j >= 0; j--) {
      y = Mersenne127.add(Mersenne127.mul(y, bx), coefficients[j]);
    }
    return y;
  }

  /** The usable shares as points, a lone disagreeing one (when located) left out and named. */
  private record Points(long[] xs, BigInteger[] ys, byte[] template, Set<Integer> corrupt) {}

  private Points points(Map<Integer, byte[]> shares) throws ShareDecodingException {
    ShareHeader.Checked checked = ShareHeader.usable(shares, kind(), parameters.n(), threshold,
        length -> length == Long.BYTES ? SHARE_BODY : -1);
    int m = checked.indexes().length;
    long[] xs = new long[m];
    BigInteger[] ys = new BigInteger[m];
    for (int i = 0; i < m; i++) {
      xs[i] = checked.indexes()[i] + 1L;
      try {
        ys[i] = Mersenne127.read(checked.shares()[i], ShareHeader.LENGTH);
      } catch (IllegalArgumentException e) {
        throw new ShareDecodingException("share " + checked.indexes()[i] + " holds " + e.getMessage());
      }
    }
    Set<Integer> corrupt = new TreeSet<>(checked.unusable().keySet());
    int outlier = Lagrange127.outlier(xs, ys, threshold, "shares " + Arrays.toString(checked.indexes()));
    if (outlier >= 0) {
      corrupt.add(checked.indexes()[outlier]);
      return new Points(Lagrange127.without(xs, outlier), Lagrange127.without(ys, outlier),
          checked.shares()[outlier == 0 ? 1 : 0], corrupt);
    }
    return new Points(xs, ys, checked.shares()[0], corrupt);
  }

  /**
   * With more than z + 1 shares, they must lie on one polynomial of degree z: one corrupt share is
   * corrected when at least two are spare (and named), otherwise disagreement is refused.
   */
  @Override
  public Reconstruction join(Map<Integer, byte[]> shares, byte[] associatedData) throws ShareDecodingException {
    Points p = points(shares);
    BigInteger value = Mersenne127.signed(Lagrange127.at(0, p.xs(), p.ys(), threshold));
    if (value.bitLength() > 63) {
      throw new ShareDecodingException("shares decode to " + value.bitLength() + " bits, not a signed long");
    }
    long v = value.longValue();
    byte[] out = new byte[Long.BYTES];
    for (int i = Long.BYTES - 1; i >= 0; i--, v >>= 8) {
      out[i] = (byte) v;
    }
    return new Reconstruction(out, p.corrupt());
  }

  @Override
  public byte[] regenerate(Map<Integer, byte[]> shares, int index) throws ShareDecodingException {
    if (index < 0 || index >= parameters.n()) {
      throw new IllegalArgumentException("share index " + index + " is outside [0, " + parameters.n() + ")");
    }
    Points p = points(shares);
    byte[] out = new byte[ShareHeader.LENGTH + SHARE_BODY];
    ShareHeader.writeLike(p.template(), out, index);
    Mersenne127.write(Lagrange127.at(index + 1L, p.xs(), p.ys(), threshold), out, ShareHeader.LENGTH);
    return out;
  }

  @Override
  public BigInteger combine(Map<Integer, PrimeShareSum> partials) throws ShareDecodingException {
    if (partials.size() < threshold) {
      throw new ShareDecodingException("need " + threshold + " partial sums, have " + partials.size());
    }
    long[] xs = new long[partials.size()];
    BigInteger[] ys = new BigInteger[xs.length];
    Long count = null;
    int m = 0;
    for (Map.Entry<Integer, PrimeShareSum> e : new TreeMap<>(partials).entrySet()) {
      PrimeShareSum s = e.getValue();
      if (s.count() > 0 && s.index() != e.getKey()) {
        throw new ShareDecodingException("store " + e.getKey() + " returned a partial sum of share " + s.index());
      }
      if (count != null && count != s.count()) {
        throw new ShareDecodingException("the stores added different numbers of shares (" + count + " and "
            + s.count() + " at store " + e.getKey() + "): they hold different rows or versions");
      }
      count = s.count();
      xs[m] = e.getKey() + 1L;
      ys[m++] = s.sum();
    }
    int outlier = Lagrange127.outlier(xs, ys, threshold, "the partial sums of stores " + partials.keySet());
    if (outlier >= 0) {
      throw new ShareDecodingException("the partial sum of store " + (xs[outlier] - 1)
          + " disagrees with the others, which lie on one polynomial: that store's answer is wrong");
    }
    return Mersenne127.signed(Lagrange127.at(0, xs, ys, threshold));
  }
}
