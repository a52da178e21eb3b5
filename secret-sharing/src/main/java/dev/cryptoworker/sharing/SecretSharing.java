package dev.cryptoworker.sharing;

import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Optional;

/**
 * Splits a value into n shares, one per independent store, and joins shares back; built by {@link
 * SecretSharings}. Implementations are thread-safe.
 *
 * <p>A share is a 15-byte header (format, scheme, share index, value length: public, as any
 * ciphertext's length is; and a random id of the split, the same in each of its shares) and the
 * share's bytes. Shares of different splits are never joined together: where two writes left
 * shares of one length at the same place, {@link #join} uses those of the split most shares belong
 * to and refuses a tie. Unkeyed schemes (all but {@link SharingKind#AES_RS})
 * authenticate nothing by themselves: a corrupted share is found only when more shares than the
 * threshold are given, by their disagreement (and AONT-RS also checks a canary inside the package).
 */
public interface SecretSharing {
  SharingKind kind();

  SharingParameters parameters();

  /**
   * The fewest shares that decode: z + 1 for Shamir (so more than r may be lost), n - r for the
   * other schemes.
   */
  int threshold();

  /**
   * The n shares of {@code value}; element i goes to store i.
   *
   * @param associatedData bound to the value by keyed schemes (AES_RS), ignored by the others
   */
  byte[][] split(byte[] value, byte[] associatedData) throws GeneralSecurityException;

  /**
   * The value from the shares at hand (share index to share), at least {@link #threshold()} of
   * them. With more, they are checked against each other, and
   * corrupt ones are corrected where the code allows (available - threshold >= 2 x corrupt).
   *
   * @throws ShareDecodingException naming the reason: too few shares, a malformed one, shares
   *     disagreeing beyond correction, or (keyed or canaried schemes) failed authentication
   */
  Reconstruction join(Map<Integer, byte[]> shares, byte[] associatedData) throws ShareDecodingException;

  /**
   * Share {@code index} as the split that made {@code shares} made it: for repairing a store that
   * missed a write or holds a corrupt share. A fresh split would not do (its randomness differs, and
   * shares of two splits do not decode together).
   *
   * @throws ShareDecodingException as {@link #join}, if the shares at hand do not decode
   */
  byte[] regenerate(Map<Integer, byte[]> shares, int index) throws ShareDecodingException;

  /**
   * How to read part of a value from fewer shares than {@link #threshold()}, for schemes that allow
   * it (Secure RAID); empty for the others, whose every share depends on the whole value.
   */
  default Optional<PartialReads> partialReads() {
    return Optional.empty();
  }

  /**
   * How stores add their shares of many values into a share of the sum, for schemes whose shares
   * are linear over a prime field (SHAMIR_P127); empty for the others: over GF(2^8), adding shares
   * XORs the values.
   */
  default Optional<ShareSums> sums() {
    return Optional.empty();
  }
}
