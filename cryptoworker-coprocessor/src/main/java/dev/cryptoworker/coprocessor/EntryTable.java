package dev.cryptoworker.coprocessor;

import java.util.Arrays;

/**
 * The map behind {@link RegionSearchIndex}: 128-bit entry key to the row that holds the entry, the
 * write number that put it there and the last compaction pass that found it. Open addressing in
 * arrays, split into segments that each have their own lock, so an entry costs one object (its
 * row) where a {@code ConcurrentHashMap} of records cost four. The map lives as long as its region
 * and grows with every write, and a region server's young collections copied each of those
 * objects until they were tenured: region-server CPU that grew with the rows written.
 *
 * <p>Keys are pseudorandom (PRF outputs), so their low bits place them. Thread-safe.
 */
final class EntryTable {
  private static final int SEGMENTS = 32;
  private final Segment[] segments = new Segment[SEGMENTS];

  /** What {@link #mark} found. */
  enum Marked {
    /** The entry was there, holding the same row: now marked with the pass. */
    CURRENT,
    /** The entry was there, holding another row: it now holds the marked row. */
    REPLACED,
    /** The entry was missing: it now holds the marked row. */
    ADDED
  }

  /** What {@link #sweep} decides for an entry. */
  @FunctionalInterface
  interface Sweep {
    boolean drop(long writeNumber, int pass);
  }

  EntryTable() {
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment();
    }
  }

  private Segment segment(long low) {
    return segments[(int) (low >>> 59)]; // the top 5 bits pick one of the 32 segments
  }

  /** The row of entry {@code (high, low)}, or null. */
  byte[] row(long high, long low) {
    Segment s = segment(low);
    synchronized (s) {
      int i = s.find(high, low);
      return i < 0 ? null : s.rows[i];
    }
  }

  /** Puts entry {@code (high, low)} in {@code row}, written at {@code writeNumber}; replaces what it held. */
  void put(long high, long low, byte[] row, long writeNumber) {
    Segment s = segment(low);
    synchronized (s) {
      s.put(high, low, row, writeNumber, 0);
    }
  }

  /**
   * Removes entry {@code (high, low)} if it holds {@code row} and was written at or before {@code
   * readPoint}; whether it did.
   */
  boolean removeIf(long high, long low, byte[] row, long readPoint) {
    Segment s = segment(low);
    synchronized (s) {
      int i = s.find(high, low);
      if (i < 0 || !Arrays.equals(s.rows[i], row) || s.writeNumbers[i] > readPoint) {
        return false;
      }
      s.deleteAt(i);
      return true;
    }
  }

  /**
   * Marks entry {@code (high, low)} as found in {@code row} by compaction pass {@code pass}: if it
   * holds another row or is missing, it then holds {@code row} with {@code writeNumber}.
   */
  Marked mark(long high, long low, byte[] row, long writeNumber, int pass) {
    Segment s = segment(low);
    synchronized (s) {
      int i = s.find(high, low);
      if (i >= 0 && Arrays.equals(s.rows[i], row)) {
        s.passes[i] = pass;
        return Marked.CURRENT;
      }
      s.put(high, low, row, writeNumber, pass);
      return i < 0 ? Marked.ADDED : Marked.REPLACED;
    }
  }

  /** Drops every entry {@code sweep} drops, one segment at a time; how many it dropped. */
  long sweep(Sweep sweep) {
    long dropped = 0;
    for (Segment s : segments) {
      synchronized (s) {
        dropped += s.sweep(sweep);
      }
    }
    return dropped;
  }

  long size() {
    long n = 0;
    for (Segment s : segments) {
      synchronized (s) {
        n += s.size;
      }
    }
    return n;
  }

  /** Linear probing over parallel arrays; a slot is empty when its row is null. Guarded by itself. */
  private static final class Segment {
    private static final int FIRST_CAPACITY = 16;
    long[] highs = new long[FIRST_CAPACITY];
    long[] lows = new long[FIRST_CAPACITY];
    long[] writeNumbers = new long[FIRST_CAPACITY];
    int[] passes = new int[FIRST_CAPACITY];
    byte[][] rows = new byte[FIRST_CAPACITY][];
    int size;

    private int home(long low) {
      return (int) low & (rows.length - 1);
    }

    int find(long high, long low) {
      int mask = rows.length - 1;
      for (int i = home(low); rows[i] != null; i = (i + 1) & mask) {
        if (lows[i] == low && highs[i] == high) {
          return i;
        }
      }
      return -1;
    }

    void put(long high, long low, byte[] row, long writeNumber, int pass) {
      if (2 * (size + 1) > rows.length) {
        resize(rows.length * 2);
      }
      int mask = rows.length - 1;
      int i = home(low);
      while (rows[i] != null && !(lows[i] == low && highs[i] == high)) {
        i = (i + 1) & mask;
      }
      if (rows[i] == null) {
        size++;
      }
      highs[i] = high;
      lows[i] = low;
      writeNumbers[i] = writeNumber;
      passes[i] = pass;
      rows[i] = row;
    }

    /** Empties slot {@code i}, moving back the entries after it that probing would no longer reach. */
    void deleteAt(int i) {
      int mask = rows.length - 1;
      int hole = i;
      for (int j = (hole + 1) & mask; rows[j] != null; j = (j + 1) & mask) {
        int home = home(lows[j]);
        // Entry j may move into the hole unless its home lies cyclically in (hole, j].
        boolean reachable = hole <= j ? hole < home && home <= j : hole < home || home <= j;
        if (!reachable) {
          highs[hole] = highs[j];
          lows[hole] = lows[j];
          writeNumbers[hole] = writeNumbers[j];
          passes[hole] = passes[j];
          rows[hole] = rows[j];
          hole = j;
        }
      }
      rows[hole] = null;
      size--;
    }

    long sweep(Sweep sweep) {
      byte[][] oldRows = rows;
      long[] oldHighs = highs;
      long[] oldLows = lows;
      long[] oldWriteNumbers = writeNumbers;
      int[] oldPasses = passes;
      int kept = 0;
      for (int i = 0; i < oldRows.length; i++) {
        if (oldRows[i] != null && !sweep.drop(oldWriteNumbers[i], oldPasses[i])) {
          kept++;
        }
      }
      long dropped = size - kept;
      if (dropped == 0) {
        return 0;
      }
      int capacity = FIRST_CAPACITY;
      while (2 * kept > capacity) {
        capacity *= 2;
      }
      allocate(capacity);
      for (int i = 0; i < oldRows.length; i++) {
        if (oldRows[i] != null && !sweep.drop(oldWriteNumbers[i], oldPasses[i])) {
          put(oldHighs[i], oldLows[i], oldRows[i], oldWriteNumbers[i], oldPasses[i]);
        }
      }
      return dropped;
    }

    private void resize(int capacity) {
      byte[][] oldRows = rows;
      long[] oldHighs = highs;
      long[] oldLows = lows;
      long[] oldWriteNumbers = writeNumbers;
      int[] oldPasses = passes;
      allocate(capacity);
      for (int i = 0; i < oldRows.length; i++) {
        if (oldRows[i] != null) {
          put(oldHighs[i], oldLows[i], oldRows[i], oldWriteNumbers[i], oldPasses[i]);
        }
      }
    }

    private void allocate(int capacity) {
      highs = new long[capacity];
      lows = new long[capacity];
      writeNumbers = new long[capacity];
      passes = new int[capacity];
      rows = new byte[capacity][];
      size = 0;
    }
  }
}
