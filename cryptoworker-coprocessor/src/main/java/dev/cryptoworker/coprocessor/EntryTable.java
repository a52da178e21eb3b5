package dev.cryptoworker.coprocessor;

import java.util.Arrays;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The storage of a region's entry map ({@link RegionSearchIndex}): entry key (two longs) to row,
 * write number and compaction pass, held in primitive arrays, with each entry's row copied into a
 * byte arena. Open addressing with linear probing, split into segments with a lock each.
 *
 * <p>Why not a {@code ConcurrentHashMap}: a map of objects (four per entry) cost the region
 * servers' collectors half of the map's CPU in a 1 M-row load (async-profiler: young collections
 * copying each entry's objects until tenured, full collections marking them). Here an entry is no
 * object at all: writing one stores numbers into arrays the collector neither copies nor scans.
 *
 * <p>Memory: 36 bytes per slot (35% to 70% of the slots used) plus the row's bytes; rows of
 * removed or overwritten entries stay in their arena until the arena is compacted (when they are
 * half of it, and at every resize).
 */
final class EntryTable {
  /** A power of two: segments are chosen by the key's top bits. */
  private static final int SEGMENTS = 64;
  private static final int SEGMENT_SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(SEGMENTS);

  private final Segment[] segments = new Segment[SEGMENTS];

  EntryTable() {
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment();
    }
  }

  /** Receives entries; {@code arena[offset, offset + length)} is the row, valid during the call only. */
  interface Visitor {
    void visit(long high, long low, byte[] arena, int offset, int length, long writeNumber);
  }

  private Segment segment(long high) {
    return segments[(int) (high >>> SEGMENT_SHIFT)];
  }

  /** Stores (or replaces) the entry {@code (high, low)}: {@code row[offset, offset + length)}, write number, pass 0. */
  void put(long high, long low, byte[] row, int offset, int length, long writeNumber) {
    Segment s = segment(high);
    synchronized (s) {
      s.put(high, low, row, offset, length, writeNumber, 0);
    }
  }

  /** Changes an entry's row, under its segment's lock ({@link #update}). */
  interface RowUpdate {
    /**
     * @param arena holds the entry's row at {@code offset, length}; null, with offset -1, if the
     *     entry is absent
     * @return the entry's new row, or null to keep the row (which this may have changed in place)
     */
    byte[] update(byte[] arena, int offset, int length);
  }

  /** Stores what {@code update} makes of entry {@code (high, low)}'s row (write number and pass 0). */
  void update(long high, long low, RowUpdate update) {
    Segment s = segment(high);
    synchronized (s) {
      int slot = s.find(high, low);
      byte[] row = slot < 0 ? update.update(null, -1, 0)
          : update.update(s.arena, Segment.offset(s.refs[slot]), Segment.length(s.refs[slot]));
      if (row != null) {
        s.put(high, low, row, 0, row.length, 0, 0);
      }
    }
  }

  /** The row of entry {@code (high, low)}, or null. */
  byte[] row(long high, long low) {
    Segment s = segment(high);
    synchronized (s) {
      int slot = s.find(high, low);
      return slot < 0 ? null : s.rowCopy(slot);
    }
  }

  /** Removes entry {@code (high, low)} if it points at {@code row} and its write number is at most {@code readPoint}. */
  void removeIfCovered(long high, long low, byte[] row, long readPoint) {
    Segment s = segment(high);
    synchronized (s) {
      int slot = s.find(high, low);
      if (slot >= 0 && s.writeNumbers[slot] <= readPoint && s.rowEquals(slot, row, 0, row.length)) {
        s.removeAt(slot);
      }
    }
  }

  /**
   * Marks entry {@code (high, low)}, found in the index cell of {@code row}, as current in compaction
   * pass {@code pass}: a missing entry is added (visible to every scanner), one pointing elsewhere
   * is pointed at {@code row}.
   *
   * @return 1 if the entry was missing, else 0
   */
  int mark(long high, long low, byte[] row, int offset, int length, int pass) {
    Segment s = segment(high);
    synchronized (s) {
      int slot = s.find(high, low);
      if (slot >= 0 && s.rowEquals(slot, row, offset, length)) {
        s.passes[slot] = pass;
        return 0;
      }
      s.put(high, low, row, offset, length, RegionSearchIndex.VISIBLE_TO_ALL, pass);
      return slot < 0 ? 1 : 0;
    }
  }

  /**
   * Removes the entries not marked in {@code pass} whose write number is at most {@code readPoint}
   * (a write in flight keeps its entries), one segment at a time.
   *
   * @return how many were removed
   */
  long removeUnmarked(int pass, long readPoint) {
    long removed = 0;
    for (Segment s : segments) {
      synchronized (s) {
        removed += s.rebuild(s.capacity(), pass, readPoint);
      }
    }
    return removed;
  }

  /** Visits every entry, one segment at a time (each under its lock). */
  void forEach(Visitor visitor) {
    for (Segment s : segments) {
      synchronized (s) {
        for (int i = 0; i < s.refs.length; i++) {
          if (s.refs[i] != 0) {
            visitor.visit(s.highs[i], s.lows[i], s.arena, Segment.offset(s.refs[i]), Segment.length(s.refs[i]),
                s.writeNumbers[i]);
          }
        }
      }
    }
  }

  int size() {
    int n = 0;
    for (Segment s : segments) {
      synchronized (s) {
        n += s.size;
      }
    }
    return n;
  }

  /** One segment's arrays; every method runs under the segment's lock. */
  private static final class Segment {
    private static final int INITIAL_CAPACITY = 64;
    private static final int INITIAL_ARENA = 1024;
    private static final int MAX_ROW = 0xffff;

    long[] highs = new long[INITIAL_CAPACITY];
    long[] lows = new long[INITIAL_CAPACITY];
    long[] writeNumbers = new long[INITIAL_CAPACITY];
    /** The row's place in the arena: (offset + 1) in the high bits, its length in the low 16; 0 for an empty slot. */
    long[] refs = new long[INITIAL_CAPACITY];
    int[] passes = new int[INITIAL_CAPACITY];
    byte[] arena = new byte[INITIAL_ARENA];
    int arenaUsed;
    /** Arena bytes no entry points at. */
    int garbage;
    int size;

    int capacity() {
      return refs.length;
    }

    static int offset(long ref) {
      return (int) (ref >>> 16) - 1;
    }

    static int length(long ref) {
      return (int) (ref & MAX_ROW);
    }

    /** The home slot of a key: keys are PRF outputs, mixed all the same so no bit pattern can cluster them. */
    private int home(long high, long low) {
      long h = (high ^ Long.rotateLeft(low, 32)) * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 29)) & (refs.length - 1);
    }

    int find(long high, long low) {
      int mask = refs.length - 1;
      for (int i = home(high, low); refs[i] != 0; i = (i + 1) & mask) {
        if (highs[i] == high && lows[i] == low) {
          return i;
        }
      }
      return -1;
    }

    boolean rowEquals(int slot, byte[] row, int offset, int length) {
      long ref = refs[slot];
      return Bytes.equals(arena, offset(ref), length(ref), row, offset, length);
    }

    byte[] rowCopy(int slot) {
      long ref = refs[slot];
      return Arrays.copyOfRange(arena, offset(ref), offset(ref) + length(ref));
    }

    void put(long high, long low, byte[] row, int offset, int length, long writeNumber, int pass) {
      if (length < 1 || length > MAX_ROW) {
        throw new IllegalArgumentException("row length " + length + " outside 1.." + MAX_ROW);
      }
      int slot = find(high, low);
      if (slot < 0 || !rowEquals(slot, row, offset, length)) {
        // Resizes and arena compactions move every slot: do them before taking one. An absent key
        // stays absent through them; a present one is looked up again if they ran.
        if (slot < 0 && (size + 1) * 10L > refs.length * 7L) {
          rebuild(refs.length * 2, -1, Long.MAX_VALUE);
        }
        if (reserve(length) && slot >= 0) {
          slot = find(high, low);
        }
        if (slot < 0) {
          int mask = refs.length - 1;
          slot = home(high, low);
          while (refs[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          highs[slot] = high;
          lows[slot] = low;
          size++;
        } else {
          garbage += length(refs[slot]);
        }
        refs[slot] = appendReserved(row, offset, length);
      }
      writeNumbers[slot] = writeNumber;
      passes[slot] = pass;
    }

    /**
     * Makes room for {@code length} more arena bytes: compacts the arena if half of it is garbage,
     * else grows it.
     *
     * @return whether the slots moved (the arena was compacted)
     */
    private boolean reserve(int length) {
      if (arenaUsed + length <= arena.length) {
        return false;
      }
      boolean compacted = garbage > arenaUsed / 2;
      if (compacted) {
        rebuild(refs.length, -1, Long.MAX_VALUE);
      }
      if (arenaUsed + length > arena.length) {
        arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + length));
      }
      return compacted;
    }

    private long appendReserved(byte[] row, int offset, int length) {
      System.arraycopy(row, offset, arena, arenaUsed, length);
      long ref = ((long) (arenaUsed + 1) << 16) | length;
      arenaUsed += length;
      return ref;
    }

    /** Removes the entry at {@code slot}, shifting back the entries after it that probed past it. */
    void removeAt(int slot) {
      int mask = refs.length - 1;
      garbage += length(refs[slot]);
      int hole = slot;
      for (int j = (slot + 1) & mask; refs[j] != 0; j = (j + 1) & mask) {
        int home = home(highs[j], lows[j]);
        boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
        if (!stays) {
          highs[hole] = highs[j];
          lows[hole] = lows[j];
          writeNumbers[hole] = writeNumbers[j];
          refs[hole] = refs[j];
          passes[hole] = passes[j];
          hole = j;
        }
      }
      refs[hole] = 0;
      size--;
    }

    /**
     * Copies the entries into fresh arrays of {@code capacity} slots and a compacted arena,
     * leaving out those not marked in {@code pass} with a write number at most {@code readPoint}
     * ({@code pass} -1: none left out).
     *
     * @return how many were left out
     */
    int rebuild(int capacity, int pass, long readPoint) {
      long[] oldHighs = highs;
      long[] oldLows = lows;
      long[] oldWriteNumbers = writeNumbers;
      long[] oldRefs = refs;
      int[] oldPasses = passes;
      byte[] oldArena = arena;
      highs = new long[capacity];
      lows = new long[capacity];
      writeNumbers = new long[capacity];
      refs = new long[capacity];
      passes = new int[capacity];
      arena = new byte[Math.max(INITIAL_ARENA, arenaUsed - garbage + (arenaUsed - garbage) / 2)];
      arenaUsed = 0;
      garbage = 0;
      size = 0;
      int left = 0;
      int mask = capacity - 1;
      for (int i = 0; i < oldRefs.length; i++) {
        long ref = oldRefs[i];
        if (ref == 0) {
          continue;
        }
        if (pass >= 0 && oldPasses[i] != pass && oldWriteNumbers[i] <= readPoint) {
          left++;
          continue;
        }
        int slot = home(oldHighs[i], oldLows[i]);
        while (refs[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        highs[slot] = oldHighs[i];
        lows[slot] = oldLows[i];
        writeNumbers[slot] = oldWriteNumbers[i];
        passes[slot] = oldPasses[i];
        refs[slot] = appendReserved(oldArena, offset(ref), length(ref));
        size++;
      }
      return left;
    }
  }
}
