package dev.cryptoworker.cryptobox.expansion;

import java.io.IOException;
import java.util.List;

/**
 * Named counters every writer of a table shares (threads, processes, machines), for an expansion
 * whose stored form balances counts across writers ({@link FamilyStore#sharedCounts}). The client
 * keeps them in its counter table under names a keyed PRF derives, so they show the server only
 * numbers: the counts the expansion asks it to keep.
 */
public interface SharedCounts {
  /**
   * Adds {@code deltas[i]} to the counter of {@code names.get(i)} in one atomic step (deltas of 0
   * read) and returns the counts after it, in the same order.
   */
  long[] add(List<String> names, long[] deltas) throws IOException;
}
