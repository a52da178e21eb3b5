package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Optional;

/**
 * Capability of a box whose values are found through the region servers' entry index (SSE): each
 * stored value has an index entry ({@link ValueIndex}) whose key only the search tokens of a
 * condition it satisfies reach. The box decides everything that depends on the scheme: which
 * index a value's entry goes under, which indexes a condition reaches, and whether a decrypted
 * value satisfies it. The client supplies the keyless rest, the same for every such box: entry
 * numbers from the counter service, index cells beside the values, and the walk in the regions.
 *
 * <p><b>Leaks</b> are each box's to state in its {@link BoxRules}; at least, per search, the
 * tokens and which stored rows they reach, and per insert which counter moved.
 */
public interface IndexedSearch {

  /**
   * The index a new entry of {@code plaintext} goes under: the primary key's.
   *
   * @param column unambiguous bytes naming the column (table, family, qualifier), so equal values
   *     of different columns share nothing
   */
  ValueIndex writeIndex(byte[] plaintext, byte[] column) throws GeneralSecurityException;

  /**
   * The indexes a search for {@code condition} covers: those of every value that satisfies it,
   * under every key this box reads (entries written before a rotation keep their old keys), or
   * empty if this box's index cannot answer {@code condition}.
   */
  Optional<List<ValueIndex>> searchIndexes(ValueCondition condition, byte[] column) throws GeneralSecurityException;

  /**
   * Whether {@code plaintext} satisfies {@code condition}, for a condition {@link #searchIndexes}
   * answers. The client checks every row a search returns with it: index cells are not bound to
   * their rows, so a server can return any row.
   */
  boolean satisfies(ValueCondition condition, byte[] plaintext);
}
