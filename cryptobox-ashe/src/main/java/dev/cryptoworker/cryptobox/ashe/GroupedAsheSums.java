package dev.cryptoworker.cryptobox.ashe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The keyless ASHE sums of many groups, fed one value at a time in a region scan's order: what a
 * region adds for a {@code GROUP BY}. Past a few dozen groups, values are held in one buffer and
 * sorted into their groups' sums a batch at a time. Adding each straight to its group's sum
 * touched that group's identifier runs, which with a thousand groups were rarely in the CPU's
 * cache: about 200 ns per value, more than the region server spent reading the row.
 *
 * <p>Mutable and not thread-safe.
 */
public final class GroupedAsheSums {
  /** At most this many values held (28 bytes each): with 1,000 groups, about 30 per group a batch. */
  private static final int MAX_HELD = 32_768;
  /** Up to this many groups, values go straight to their sums: the sums' last runs stay in cache. */
  private static final int DIRECT_GROUPS = 32;

  private final List<AsheSum> sums = new ArrayList<>();
  /** The groups' key versions, apart from their sums: checked per value without touching the sum. */
  private int[] keyIds = new int[16];
  private int[] groups = new int[256];
  private long[] ciphertexts = new long[256];
  private long[] nonces = new long[256];
  private long[] ids = new long[256];
  private int held;

  /** Opens a group whose values are under key version {@code keyId}; returns its number. */
  public int newGroup(int keyId) {
    if (sums.size() == keyIds.length) {
      keyIds = Arrays.copyOf(keyIds, 2 * keyIds.length);
    }
    keyIds[sums.size()] = keyId;
    sums.add(new AsheSum(keyId));
    return sums.size() - 1;
  }

  /**
   * Adds one stored value to {@code group}.
   *
   * @throws IllegalArgumentException if the value is under another key version than the group's,
   *     or an identifier repeats (found now or when the values held are sorted in)
   */
  public void add(int group, AsheCell cell) {
    if (cell.keyId() != keyIds[group]) {
      throw new IllegalArgumentException(
          "cannot add values of key " + cell.keyId() + " to a sum of key " + keyIds[group]);
    }
    if (held == 0 && sums.size() <= DIRECT_GROUPS) {
      sums.get(group).add(cell.ciphertext(), cell.nonce(), cell.id());
      return;
    }
    if (held == groups.length) {
      if (held < MAX_HELD) {
        groups = Arrays.copyOf(groups, 2 * held);
        ciphertexts = Arrays.copyOf(ciphertexts, 2 * held);
        nonces = Arrays.copyOf(nonces, 2 * held);
        ids = Arrays.copyOf(ids, 2 * held);
      } else {
        sortIn();
      }
    }
    groups[held] = group;
    ciphertexts[held] = cell.ciphertext();
    nonces[held] = cell.nonce();
    ids[held++] = cell.id();
  }

  /**
   * The sum of {@code group}, every value added so far included.
   *
   * @throws IllegalArgumentException if an identifier repeats
   */
  public AsheSum sum(int group) {
    sortIn();
    return sums.get(group);
  }

  /** Adds the values held to their sums, group after group, each group's in the order they came. */
  private void sortIn() {
    if (held == 0) {
      return;
    }
    int[] next = new int[sums.size() + 1]; // counts, then each group's next place in order
    for (int i = 0; i < held; i++) {
      next[groups[i] + 1]++;
    }
    for (int g = 0; g < sums.size(); g++) {
      next[g + 1] += next[g];
    }
    int[] order = new int[held];
    for (int i = 0; i < held; i++) {
      order[next[groups[i]]++] = i;
    }
    int count = held;
    held = 0; // a repeated identifier throws below: the values held are then dropped, not added twice
    for (int k = 0; k < count; k++) {
      int i = order[k];
      sums.get(groups[i]).add(ciphertexts[i], nonces[i], ids[i]);
    }
  }
}
