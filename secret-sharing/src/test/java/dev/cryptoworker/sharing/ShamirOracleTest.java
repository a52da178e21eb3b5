package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.codahale.shamir.Scheme;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Shamir against an independent implementation (codahale's shamir, the same field and points x = 1..n):
 * shares made here decode there and the other way round.
 */
class ShamirOracleTest {
  @Test
  void interoperatesWithAnIndependentImplementation() throws Exception {
    SecureRandom random = new SecureRandom();
    for (int[] p : new int[][] {{3, 1, 1}, {5, 1, 3}, {7, 2, 2}}) {
      int n = p[0];
      int z = p[2];
      SecretSharing ours = SecretSharings.create(SharingKind.SHAMIR, new SharingParameters(n, p[1], z), null);
      Scheme theirs = new Scheme(random, n, z + 1);
      for (int length : new int[] {1, 16, 333}) {
        byte[] secret = new byte[length];
        random.nextBytes(secret);
        byte[][] shares = ours.split(secret, null);
        Map<Integer, byte[]> bodies = new HashMap<>();
        for (int i = 0; i < z + 1; i++) {
          int index = n - 1 - i; // any z + 1 of them
          bodies.put(index + 1, Arrays.copyOfRange(shares[index], ShareHeader.LENGTH, shares[index].length));
        }
        assertArrayEquals(secret, theirs.join(bodies), "ours split, theirs joined");

        Map<Integer, byte[]> theirShares = theirs.split(secret);
        Map<Integer, byte[]> withHeaders = new HashMap<>();
        for (int x = 1; x <= z + 1; x++) {
          byte[] share = new byte[ShareHeader.LENGTH + length];
          ShareHeader.write(share, SharingKind.SHAMIR, x - 1, length, new byte[ShareHeader.SPLIT_ID_LENGTH]);
          System.arraycopy(theirShares.get(x), 0, share, ShareHeader.LENGTH, length);
          withHeaders.put(x - 1, share);
        }
        assertArrayEquals(secret, ours.join(withHeaders, null).value(), "theirs split, ours joined");
      }
    }
  }
}
