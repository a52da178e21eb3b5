package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.List;

/**
 * Capability of a box whose values are stored randomized and found through an encrypted index
 * (SSE): each stored value has an index entry whose key only the value's search tokens reach.
 *
 * <p><b>Leaks:</b> nothing about values at rest beyond the number of index entries; per search,
 * the tokens and which stored rows they reach; per insert, that one value's counter moved.
 */
public interface SearchableEquality {

  /**
   * The index of {@code plaintext} in one column under every key this box reads, primary first:
   * writes use the first; a search covers all, since entries written before a rotation keep their
   * old keys.
   *
   * @param column unambiguous bytes naming the column (table, family, qualifier), so equal values
   *     of different columns share nothing
   */
  List<ValueIndex> indexesOf(byte[] plaintext, byte[] column) throws GeneralSecurityException;

  /**
   * The index new entries of {@code plaintext} go under: the first of {@link #indexesOf}, which a
   * box derives alone so that writes after a key rotation do not pay for the older keys.
   */
  default ValueIndex writeIndexOf(byte[] plaintext, byte[] column) throws GeneralSecurityException {
    return indexesOf(plaintext, column).get(0);
  }
}
