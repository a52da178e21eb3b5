package dev.cryptoworker.sharing;

import java.util.Map;

/**
 * Reading part of a value from fewer shares than a join needs, where the scheme stores data chunks
 * systematically (Secure RAID: share z + j is data chunk j plus a combination of the z key shares
 * 0..z-1): bytes of chunk j need only the key shares and share z + j. Obtained from {@link
 * SecretSharing#partialReads()}.
 *
 * <p>Nothing is cross-checked: with exactly the shares it needs, a partial read cannot detect a
 * corrupt share (a join with spare shares can). Thread-safe.
 */
public interface PartialReads {
  /** The shares every partial read needs: the z key shares. */
  int[] keyShares();

  /**
   * The data shares holding bytes [{@code offset}, {@code offset + length}) of the value that
   * {@code anyShare} (a share of it: its header tells the value's length) belongs to; empty if the
   * range starts at or beyond the value's end.
   *
   * @throws ShareDecodingException if {@code anyShare} is not a share of this scheme
   */
  int[] dataSharesFor(byte[] anyShare, int offset, int length) throws ShareDecodingException;

  /**
   * Bytes [{@code offset}, {@code offset + length}) of the value, fewer where it ends first, from
   * its key shares and the data shares {@link #dataSharesFor} names (others given are ignored).
   *
   * @throws ShareDecodingException naming a share that is missing, malformed, or of another value
   */
  byte[] read(Map<Integer, byte[]> shares, int offset, int length) throws ShareDecodingException;
}
