package dev.cryptoworker.sharing;

import java.util.Set;

/**
 * A decoded value and the shares found corrupt on the way (empty unless more shares than the
 * minimum were given and some disagreed with the others): the caller repairs those.
 */
public record Reconstruction(byte[] value, Set<Integer> corruptShares) {
  public Reconstruction {
    corruptShares = Set.copyOf(corruptShares);
  }
}
