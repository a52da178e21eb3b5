package dev.cryptoworker.sharing;

import java.util.Map;

/**
 * The information-theoretic schemes (Shamir, packed Shamir, Secure RAID): the value itself is coded,
 * with z chunks of fresh randomness. Any z shares are uniformly random whatever the value (the
 * code's random columns restricted to any z rows are invertible); any threshold of them decode.
 */
final class LinearSecretSharing extends CodedSharing {
  LinearSecretSharing(SharingKind kind, SharingParameters parameters, LinearCode code) {
    super(kind, parameters, code);
  }

  @Override
  public byte[][] split(byte[] value, byte[] associatedData) {
    return disperse(value);
  }

  @Override
  public Reconstruction join(Map<Integer, byte[]> shares, byte[] associatedData) throws ShareDecodingException {
    return gather(shares);
  }
}
