package dev.cryptoworker.sharing;

import java.math.BigInteger;
import java.util.Map;

/**
 * Sums over shares, for schemes whose shares are linear over a prime field ({@link
 * SharingKind#SHAMIR_P127}): each store adds its shares of many values ({@link PrimeShareSum},
 * keyless) and the partial sums of enough stores decode to the sum of the values. Obtained from
 * {@link SecretSharing#sums()}.
 *
 * <p>Integrity: with exactly {@link SecretSharing#threshold()} partials, any store can shift the
 * result to any value it likes (its partial is one point of the interpolation) and nothing detects
 * it. With more, the partials must lie on one polynomial of degree threshold - 1: a store that
 * lies is detected, and located when at least two partials are spare; z + 1 colluding stores (with
 * exactly the spares' worth of shares) can still agree on a wrong sum.
 */
public interface ShareSums {
  /**
   * The sum of the values whose shares the stores added, from each store's partial (share index to
   * partial): exact, a signed integer of at most 127 bits.
   *
   * @throws ShareDecodingException if fewer than the threshold are given, a partial is under
   *     another index, the stores counted different numbers of values, or the partials do not lie
   *     on one polynomial (naming the store that alone disagrees, when one does)
   */
  BigInteger combine(Map<Integer, PrimeShareSum> partials) throws ShareDecodingException;
}
