package dev.cryptoworker.cryptobox.ashe;

import java.util.Arrays;

/**
 * A set of ASHE identifiers as sorted, disjoint, non-adjacent runs {@code [start, end]}. Keyless:
 * the server unions the sets of the ciphertexts it adds. Runs of consecutive identifiers are what
 * make decryption cheap (two PRF calls per run), so writers allocate identifiers in blocks.
 *
 * <p>Mutable and not thread-safe. {@link #add} is amortised O(1): an identifier above every run
 * extends or follows the last run (the order a region scan sees them in when ids were allocated in
 * row order); one below is held apart and sorted into the runs, all at once, when the set is next
 * read. A region scan sees a table with DET row keys in an order unrelated to its identifiers, and
 * inserting each such identifier into the runs shifted them: 125,000 took 300 ms against 8 sorted.
 */
public final class IdSet {
  private static final long[] NONE = new long[0];

  private long[] starts = new long[4];
  private long[] ends = new long[4];
  private int runs;
  private long size;
  /** Identifiers added below the last run, not yet in the runs: {@link #settle} sorts them in. */
  private long[] pending = NONE;
  private int pendingCount;

  /** The number of runs. */
  public int runCount() {
    settle();
    return runs;
  }

  /** Start of run {@code i}. */
  public long runStart(int i) {
    settle();
    return starts[i];
  }

  /** End (inclusive) of run {@code i}. */
  public long runEnd(int i) {
    settle();
    return ends[i];
  }

  /** The number of identifiers. */
  public long size() {
    settle();
    return size;
  }

  /**
   * Adds {@code id} (identifiers are positive).
   *
   * @throws IllegalArgumentException if it is already present: an identifier used twice would make
   *     the sum undecryptable, so it is an error, never ignored. An identifier below the last run
   *     that repeats another such identifier added since the set was last read is caught when it is
   *     next read (any method but {@code add} and {@code addRun}), which then throws this and
   *     drops the identifiers added out of order since the last read.
   */
  public IdSet add(long id) {
    if (runs == 0 || id > ends[runs - 1] || id <= 0) {
      return addRun(id, id);
    }
    int i = Arrays.binarySearch(starts, 0, runs, id);
    if (i >= 0 || (i = -i - 1) > 0 && ends[i - 1] >= id) {
      throw duplicate(id); // in a run already: caught now; a repeat among those held apart, when settled
    }
    if (pendingCount == pending.length) {
      pending = Arrays.copyOf(pending, Math.max(16, pending.length * 2));
    }
    pending[pendingCount++] = id;
    return this;
  }

  /** Sorts the identifiers added out of order into the runs, in one pass over both. */
  private void settle() {
    if (pendingCount == 0) {
      return;
    }
    long[] sorted = Arrays.copyOf(pending, pendingCount);
    pending = NONE;
    pendingCount = 0;
    Arrays.sort(sorted);
    IdSet added = new IdSet();
    for (long id : sorted) {
      added.addRun(id, id); // increasing: appends, and a repeat is caught as overlapping the last run
    }
    merge(added);
  }

  /**
   * Adds every identifier of {@code other}; they must not overlap. Runs that interleave with this
   * set's (a group's rows spread over several regions) are merged in one pass, O(runs of both):
   * adding them one by one would shift this set's arrays for each.
   *
   * @throws IllegalArgumentException if an identifier is in both (this set is then unchanged)
   */
  public IdSet addAll(IdSet other) {
    settle();
    other.settle();
    return merge(other);
  }

  private IdSet merge(IdSet other) {
    if (other.runs == 0) {
      return this;
    }
    if (runs == 0 || other.starts[0] > ends[runs - 1]) {
      for (int i = 0; i < other.runs; i++) {
        addRun(other.starts[i], other.ends[i]); // appends: amortised O(1) each
      }
      return this;
    }
    long[] mergedStarts = new long[runs + other.runs];
    long[] mergedEnds = new long[runs + other.runs];
    int n = 0;
    for (int i = 0, j = 0; i < runs || j < other.runs; ) {
      boolean mine = j == other.runs || i < runs && starts[i] < other.starts[j];
      long start = mine ? starts[i] : other.starts[j];
      long end = mine ? ends[i++] : other.ends[j++];
      if (n > 0 && start <= mergedEnds[n - 1]) {
        throw duplicate(start); // sorted by start, so an overlap is a start within the last run
      }
      if (n > 0 && mergedEnds[n - 1] + 1 == start) {
        mergedEnds[n - 1] = end;
      } else {
        mergedStarts[n] = start;
        mergedEnds[n++] = end;
      }
    }
    starts = mergedStarts;
    ends = mergedEnds;
    runs = n;
    size += other.size;
    return this;
  }

  /** Adds the run {@code [start, end]}. */
  public IdSet addRun(long start, long end) {
    if (start <= 0 || end < start) {
      throw new IllegalArgumentException("bad identifier run [" + start + ", " + end + "]");
    }
    int i = runs;
    if (runs > 0 && start <= ends[runs - 1]) {
      i = Arrays.binarySearch(starts, 0, runs, start);
      if (i >= 0) {
        throw duplicate(start);
      }
      i = -i - 1; // first run starting after start
      if ((i > 0 && ends[i - 1] >= start) || (i < runs && starts[i] <= end)) {
        throw duplicate(start);
      }
    }
    boolean joinsLeft = i > 0 && ends[i - 1] + 1 == start;
    boolean joinsRight = i < runs && starts[i] == end + 1;
    if (joinsLeft && joinsRight) {
      ends[i - 1] = ends[i];
      System.arraycopy(starts, i + 1, starts, i, runs - i - 1);
      System.arraycopy(ends, i + 1, ends, i, runs - i - 1);
      runs--;
    } else if (joinsLeft) {
      ends[i - 1] = end;
    } else if (joinsRight) {
      starts[i] = start;
    } else {
      ensure(runs + 1);
      System.arraycopy(starts, i, starts, i + 1, runs - i);
      System.arraycopy(ends, i, ends, i + 1, runs - i);
      starts[i] = start;
      ends[i] = end;
      runs++;
    }
    size += end - start + 1;
    return this;
  }

  private static IllegalArgumentException duplicate(long id) {
    return new IllegalArgumentException("identifier " + id + " is already in the set (used twice)");
  }

  private void ensure(int n) {
    if (n > starts.length) {
      int cap = Math.max(n, starts.length * 2);
      starts = Arrays.copyOf(starts, cap);
      ends = Arrays.copyOf(ends, cap);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IdSet)) {
      return false;
    }
    IdSet s = (IdSet) o;
    settle();
    s.settle();
    return runs == s.runs && Arrays.equals(starts, 0, runs, s.starts, 0, runs)
        && Arrays.equals(ends, 0, runs, s.ends, 0, runs);
  }

  @Override
  public int hashCode() {
    settle();
    return Arrays.hashCode(Arrays.copyOf(starts, runs)) * 31 + Arrays.hashCode(Arrays.copyOf(ends, runs));
  }

  @Override
  public String toString() {
    settle();
    StringBuilder b = new StringBuilder("IdSet{");
    for (int i = 0; i < Math.min(runs, 8); i++) {
      b.append(i == 0 ? "" : ", ").append('[').append(starts[i]).append('-').append(ends[i]).append(']');
    }
    return b.append(runs > 8 ? ", ...}" : "}").toString();
  }
}
