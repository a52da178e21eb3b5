package dev.cryptoworker.sharing;

/** The schemes a SHARED layout can use (Shor's thesis names; see the module README). */
public enum SharingKind {
  /** Shamir: any z + 1 shares decode, any z learn nothing; every share as large as the value. */
  SHAMIR,
  /** Packed (ramp) Shamir: k = n - r - z values per polynomial; shares of 1/k the value. */
  PACKED_SHAMIR,
  /** Secure RAID: near-systematic, one field of a value read from z + 1 shares. */
  SECURE_RAID,
  /** AONT-RS: all-or-nothing transform with a random AES key, then Reed-Solomon. */
  AONT_RS,
  /** AES-GCM under a key from the key provider, then Reed-Solomon: the computational baseline. */
  AES_RS,
  /**
   * Shamir over the prime field of p = 2^127 - 1, for 8-byte signed longs: any z + 1 shares
   * decode, any z learn nothing; shares are linear, so region servers add them (sums over shares).
   */
  SHAMIR_P127;

  /**
   * Whether stores can add shares of this scheme into shares of the sum ({@link SecretSharing#sums()}):
   * only over a prime field; over GF(2^8) adding shares XORs the values.
   */
  public boolean sumsShares() {
    return this == SHAMIR_P127;
  }
}
