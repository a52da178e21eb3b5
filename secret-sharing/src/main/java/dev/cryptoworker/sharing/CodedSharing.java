package dev.cryptoworker.sharing;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What every scheme here shares: bytes to code (the value, or a package made from it) cut into k
 * chunks, z chunks of fresh randomness, and n shares from one {@link LinearCode}, each behind its
 * {@link ShareHeader}; and the way back, with the shares checked against each other.
 */
abstract class CodedSharing implements SecretSharing {
  private static final ThreadLocal<AesCtrRandom> RANDOM = ThreadLocal.withInitial(AesCtrRandom::new);

  private final SharingKind kind;
  private final SharingParameters parameters;
  private final LinearCode code;

  CodedSharing(SharingKind kind, SharingParameters parameters, LinearCode code) {
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

  /** The n shares of {@code coded}. */
  byte[][] disperse(byte[] coded) {
    int chunk = code.chunkFor(coded.length);
    // A copy only where padding is needed (the caller's array is read, never changed or cleared).
    boolean padded = coded.length != code.dataChunks() * chunk;
    byte[] data = padded ? Arrays.copyOf(coded, code.dataChunks() * chunk) : coded;
    AesCtrRandom randomness = RANDOM.get();
    if (padded) {
      // Random, not zeros: systematic shares carry the data as is, and a run of zeros would show
      // where the coded bytes end. Readers cut the padding off at the header's coded length.
      randomness.nextBytes(data, coded.length, data.length - coded.length);
    }
    byte[] random = new byte[(code.threshold() - code.dataChunks()) * chunk];
    randomness.nextBytes(random, 0, random.length);
    // One id per split, in every share's header: shares of two writes stored at one place never join.
    byte[] splitId = new byte[ShareHeader.SPLIT_ID_LENGTH];
    randomness.nextBytes(splitId, 0, splitId.length);
    byte[][] shares = new byte[parameters.n()][];
    for (int i = 0; i < shares.length; i++) {
      shares[i] = new byte[ShareHeader.LENGTH + chunk];
      ShareHeader.write(shares[i], kind, i, coded.length, splitId);
    }
    code.encodeShares(data, random, chunk, shares, ShareHeader.LENGTH);
    if (padded) {
      Arrays.fill(data, (byte) 0);
    }
    Arrays.fill(random, (byte) 0);
    return shares;
  }

  /**
   * The coded bytes from {@code shares}, and the shares found corrupt: those that disagree with
   * the decoding, and those left out before it (a foreign header, a minority length, a wrong size).
   */
  Reconstruction gather(Map<Integer, byte[]> shares) throws ShareDecodingException {
    ShareHeader.Checked checked = usable(shares);
    CodedShares.Decoded decoded = CodedShares.decode(code, checked, code.chunkFor(checked.codedLength()));
    byte[] data = decoded.data(); // fresh: the padding is cut off only where there is some
    Set<Integer> corrupt = new HashSet<>(decoded.corrupt());
    corrupt.addAll(checked.unusable().keySet());
    return new Reconstruction(data.length == checked.codedLength() ? data : Arrays.copyOf(data, checked.codedLength()),
        corrupt);
  }

  private ShareHeader.Checked usable(Map<Integer, byte[]> shares) throws ShareDecodingException {
    return ShareHeader.usable(shares, kind, parameters.n(), code.threshold(), code::chunkFor);
  }

  @Override
  public byte[] regenerate(Map<Integer, byte[]> shares, int index) throws ShareDecodingException {
    ShareHeader.Checked checked = usable(shares);
    return CodedShares.regenerate(code, checked, code.chunkFor(checked.codedLength()), index);
  }
}
