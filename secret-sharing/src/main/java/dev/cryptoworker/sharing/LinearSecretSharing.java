package dev.cryptoworker.sharing;

import java.util.Arrays;
import java.util.Map;

/**
 * The information-theoretic schemes (Shamir, packed Shamir, Secure RAID): the value cut into k
 * chunks, z chunks of fresh randomness, and n shares from one {@link LinearCode}. Any z shares are
 * uniformly random whatever the value (the code's random columns restricted to any z rows are
 * invertible); any n - r decode.
 */
final class LinearSecretSharing implements SecretSharing {
  private static final ThreadLocal<AesCtrRandom> RANDOM = ThreadLocal.withInitial(AesCtrRandom::new);

  private final SharingKind kind;
  private final SharingParameters parameters;
  private final LinearCode code;

  LinearSecretSharing(SharingKind kind, SharingParameters parameters, LinearCode code) {
    this.kind = kind;
    this.parameters = parameters;
    this.code = code;
  }

  @Override
  public SharingKind kind() {
    return kind;
  }

  @Override
  public SharingParameters parameters() {
    return parameters;
  }

  @Override
  public int threshold() {
    return code.threshold();
  }

  LinearCode code() {
    return code;
  }


  @Override
  public byte[][] split(byte[] value, byte[] associatedData) {
    int chunk = code.chunkFor(value.length);
    byte[] data = Arrays.copyOf(value, code.dataChunks() * chunk);
    byte[] random = new byte[(code.threshold() - code.dataChunks()) * chunk];
    RANDOM.get().nextBytes(random, 0, random.length);
    byte[][] shares = new byte[parameters.n()][];
    for (int i = 0; i < shares.length; i++) {
      shares[i] = new byte[ShareHeader.LENGTH + chunk];
      ShareHeader.write(shares[i], kind, i, value.length);
      code.encodeShare(i, data, random, chunk, shares[i], ShareHeader.LENGTH);
    }
    Arrays.fill(data, (byte) 0);
    Arrays.fill(random, (byte) 0);
    return shares;
  }

  @Override
  public Reconstruction join(Map<Integer, byte[]> shares, byte[] associatedData) throws ShareDecodingException {
    ShareHeader.Checked checked = ShareHeader.check(shares, kind, parameters.n(), code.threshold());
    CodedShares.Decoded decoded = CodedShares.decode(code, checked, code.chunkFor(checked.codedLength()));
    return new Reconstruction(Arrays.copyOf(decoded.data(), checked.codedLength()), decoded.corrupt());
  }
}
