package dev.cryptoworker.sharing;

import dev.cryptoworker.cryptobox.CryptoBox;
import java.util.Objects;

/**
 * Builds the schemes. Share i sits at field point i + 1; the schemes' other points (where packed
 * Shamir keeps its values and randomness) follow n.
 */
public final class SecretSharings {
  private SecretSharings() {}

  /**
   * The scheme {@code kind} with {@code parameters}.
   *
   * @param keyed the authenticated box AES_RS encrypts with (a key from the key provider); null for
   *     the other schemes
   * @throws IllegalArgumentException if the parameters do not fit the scheme, or AES_RS has no box
   */
  public static SecretSharing create(SharingKind kind, SharingParameters parameters, CryptoBox keyed) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(parameters, "parameters");
    int n = parameters.n();
    int r = parameters.r();
    int z = parameters.z();
    switch (kind) {
      case SHAMIR:
        requirePrivacy(kind, z);
        return new LinearSecretSharing(kind, parameters, new LinearCode(shamir(n, z), 1, z), false);
      case PACKED_SHAMIR:
        requirePrivacy(kind, z);
        return new LinearSecretSharing(kind, parameters,
            new LinearCode(packedShamir(n, n - r - z, z), n - r - z, z), false);
      case SECURE_RAID:
        requirePrivacy(kind, z);
        return new LinearSecretSharing(kind, parameters, new LinearCode(secureRaid(n, r, z), n - r - z, z), true);
      case AONT_RS:
        return EncryptedDispersal.allOrNothing(parameters, new LinearCode(reedSolomon(n, n - r), n - r, 0));
      case AES_RS:
        if (keyed == null) {
          throw new IllegalArgumentException("AES_RS encrypts under a key from the key provider: give its box");
        }
        return EncryptedDispersal.encrypted(parameters, new LinearCode(reedSolomon(n, n - r), n - r, 0), keyed);
      case SHAMIR_P127:
        requirePrivacy(kind, z);
        return new PrimeShamir(parameters);
      default:
        throw new IllegalArgumentException("unknown scheme " + kind);
    }
  }

  private static void requirePrivacy(SharingKind kind, int z) {
    if (z < 1) {
      throw new IllegalArgumentException(kind + " needs z >= 1 (with z = 0 it is mere replication or coding;"
          + " use AES_RS or AONT_RS for confidentiality without colluder privacy)");
    }
  }

  private static int[] points(int from, int count) {
    int[] p = new int[count];
    for (int i = 0; i < count; i++) {
      p[i] = from + i;
    }
    return p;
  }

  /** Shamir: inputs (secret, z coefficients) to the polynomial's values at 1..n (Vandermonde). */
  static GfMatrix shamir(int n, int z) {
    int[][] a = new int[n][z + 1];
    for (int i = 0; i < n; i++) {
      int x = i + 1;
      int power = 1;
      for (int j = 0; j <= z; j++) {
        a[i][j] = power;
        power = Gf256.mul(power, x);
      }
    }
    return GfMatrix.of(a);
  }

  /**
   * Packed Shamir: k values at points n+1..n+k and z random ones at n+k+1..n+k+z define a
   * polynomial of degree below k + z; shares are its values at 1..n.
   */
  static GfMatrix packedShamir(int n, int k, int z) {
    int[] from = points(n + 1, k + z);
    return GfMatrix.lagrange(from, points(1, n));
  }

  /**
   * Systematic Reed-Solomon (n, k): shares 0..k-1 are the data chunks (values of a polynomial at
   * 1..k), the others its values at k+1..n.
   */
  static GfMatrix reedSolomon(int n, int k) {
    return GfMatrix.identity(k).stack(GfMatrix.lagrange(points(1, k), points(k + 1, n - k)));
  }

  /**
   * Secure RAID (Huang and Jiang, as in Shor's thesis), inputs (k data, z keys) with k = n - r - z:
   * the keys' codeword of the (n - r, z) Reed-Solomon code (the polynomial of degree below z taking
   * the keys at 1..z, at 1..n - r) is added to (0..0, data), and the result coded by the systematic
   * (n, n - r) code of the same points. The first code is a subcode of the second, so any z shares
   * see the keys through an invertible map and learn nothing of the data; share z + j is data chunk
   * j plus z key terms, so one chunk is read from z + 1 shares.
   */
  static GfMatrix secureRaid(int n, int r, int z) {
    int k = n - r - z;
    GfMatrix keyCode = GfMatrix.lagrange(points(1, z), points(z + 1, k)); // k x z
    int[][] inner = new int[n - r][k + z];
    for (int l = 0; l < z; l++) {
      inner[l][k + l] = 1;
    }
    for (int j = 0; j < k; j++) {
      inner[z + j][j] = 1;
      for (int l = 0; l < z; l++) {
        inner[z + j][k + l] = keyCode.get(j, l);
      }
    }
    return reedSolomon(n, n - r).times(GfMatrix.of(inner));
  }
}
