package dev.cryptoworker.sharing;

import java.util.Set;

/**
 * A decoded value and the shares found corrupt on the way, by index: the caller repairs those. They
 * are the shares left out before decoding as erasures because they are malformed ({@code
 * ShareHeader.usable}: a header not of this scheme or naming another index, a coded length that
 * disagrees with the majority, a size that does not fit that length), and, when more shares than
 * the minimum were given, those that disagreed with the others in decoding. Empty when every share
 * given was well formed and agreed.
 */
public record Reconstruction(byte[] value, Set<Integer> corruptShares) {
  public Reconstruction {
    corruptShares = Set.copyOf(corruptShares);
  }
}
