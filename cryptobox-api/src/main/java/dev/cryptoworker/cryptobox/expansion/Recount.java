package dev.cryptoworker.cryptobox.expansion;

import dev.cryptoworker.cryptobox.expansion.FamilyExpansion.CellValue;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.List;

/**
 * A re-count of the counts an expansion shares ({@link FamilyStore#sharedCounts}) from what is
 * stored, for when they drifted from it (overwrites, deletes, failed writes): the client gives it
 * every stored cell of {@link #qualifiers} in the family, then {@link #finish} sets the counts.
 */
public interface Recount {
  /** The stored qualifiers whose cells it counts. */
  List<byte[]> qualifiers();

  /**
   * Counts one stored cell of one of {@link #qualifiers}, of row {@code row} (for messages).
   *
   * @throws GeneralSecurityException if the cell does not decrypt
   */
  void add(byte[] row, CellValue stored) throws IOException, GeneralSecurityException;

  /** Sets the shared counts to those counted; returns by how much they moved, in all. */
  long finish() throws IOException;
}
