package dev.cryptoworker.sharing;

import java.util.Map;
import java.util.Optional;

/**
 * The information-theoretic schemes (Shamir, packed Shamir, Secure RAID): the value itself is coded,
 * with z chunks of fresh randomness. Any z shares are uniformly random whatever the value (the
 * code's random columns restricted to any z rows are invertible); any threshold of them decode.
 */
final class LinearSecretSharing extends CodedSharing {
  private final Optional<PartialReads> partialReads;

  LinearSecretSharing(SharingKind kind, SharingParameters parameters, LinearCode code, boolean systematic) {
    super(kind, parameters, code);
    this.partialReads = systematic ? Optional.of(new SystematicReads(code, kind, parameters.n())) : Optional.empty();
  }

  @Override
  public Optional<PartialReads> partialReads() {
    return partialReads;
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
