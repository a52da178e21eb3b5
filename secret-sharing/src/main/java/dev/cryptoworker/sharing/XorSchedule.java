package dev.cryptoworker.sharing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A bit-sliced product {@code outputs = coefficients x sources} ({@link BitslicedKernel}'s layout)
 * as a list of packet XORs, built once per matrix. Taken bit by bit, each output packet would load
 * one source packet per set bit of its coefficients' bit matrices (about 4 per coefficient); here
 * each source's 8 packets form two groups of 4, and a group that enough output packets use gets a
 * table of the XORs of 2 or more of its packets, built by one operation (the "Four Russians"
 * method): each such output packet then loads one table entry for the group. Decoding Secure RAID's
 * data from its systematic shares, for one, takes 5 loads per output packet instead of about 9.
 * Thread-safe; the program is immutable, and the offsets of the last call's layout are cached.
 */
final class XorSchedule {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** Packets per group (a table has up to 2^4 entries). */
  private static final int GROUP = 4;
  /**
   * A group's table costs about as much as this many packet loads in outputs: one operation loads
   * the group's 4 packets once per word and stores all 11 sums of 2 or more of them.
   */
  private static final int TABLE_COST = 16;
  /** The sums a table operation stores, by which of the group's packets they take: all of 2 or more. */
  private static final int[] SUMS = {3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15};
  /** The arity of table operations (their 11 destinations, then the group's 4 packets). */
  private static final int TABLE = -1;
  /**
   * Packets of 4 KiB values with k = 8 get loops of this constant length, which C2 unrolls whole:
   * with a variable bound, loop overhead on 8 words was about a fifth of the decode (kernel alone,
   * Secure RAID k = 8: 1.7 us with the bound variable, 1.35-1.4 with it constant).
   */
  private static final int SMALL_PACKET = 64;
  /** Bytes of each packet coded per pass over the program, so tables stay in cache for large chunks. */
  private static final int STRIPE = 1024;

  /** References name their packet as slot << 16 | index: slots 0..sources-1 the sources, then the outputs, then the table. */
  private static final int INDEX_BITS = 16;
  private static final int INDEX_MASK = (1 << INDEX_BITS) - 1;

  private final int sources;
  private final int outputs;
  private final int tableEntries;
  /** Per output, the source it is a copy of (its row is a single 1), or -1: copied whole, not scheduled. */
  private final int[] copyOf;
  /** Per operation, its first reference (the destination; its sources follow); last, the end. */
  private final int[] opStart;
  private final int[] refs;
  /** Per reference, its slot (the array it is in). */
  private final int[] slot;
  /** The offsets for the last call's layout (immutable; a race only builds one twice). */
  private volatile Layout layout;
  /** Runs of consecutive operations of one arity (1 to 8 sources; 0 for others; TABLE): first operation and arity. */
  private final int[] runStart;
  private final int[] runArity;

  private XorSchedule(int sources, int outputs, int tableEntries, int[] copyOf, int[] opStart, int[] opArity,
      int[] refs) {
    this.sources = sources;
    this.outputs = outputs;
    this.tableEntries = tableEntries;
    this.copyOf = copyOf;
    this.opStart = opStart;
    this.refs = refs;
    this.slot = Arrays.stream(refs).map(ref -> ref >>> INDEX_BITS).toArray();
    List<Integer> starts = new ArrayList<>();
    List<Integer> arities = new ArrayList<>();
    for (int op = 0; op + 1 < opStart.length; op++) {
      int arity = opArity[op];
      if (arities.isEmpty() || arities.get(arities.size() - 1) != arity) {
        starts.add(op);
        arities.add(arity);
      }
    }
    starts.add(opStart.length - 1);
    this.runStart = starts.stream().mapToInt(Integer::intValue).toArray();
    this.runArity = arities.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The schedule for {@code coefficients} (outputs x sources, entries in GF(2^8)). */
  static XorSchedule of(int[][] coefficients) {
    return new Builder(coefficients).build();
  }

  /** Source packets loaded, over all output packets and table entries (for tests and tuning). */
  int loads() {
    int loads = 0;
    for (int run = 0; run < runArity.length; run++) {
      for (int op = runStart[run]; op < runStart[run + 1]; op++) {
        loads += runArity[run] == TABLE ? GROUP : opStart[op + 1] - opStart[op] - 1;
      }
    }
    return loads;
  }

  /**
   * {@code outputs[o][outputOffsets[o]..+chunk) = sum over j of coefficients[o][j] * sources[j][sourceOffsets[j]..+chunk)};
   * {@code chunk} must be a multiple of 64 and outputs must not overlap sources.
   */
  void run(byte[][] sourceChunks, int[] sourceOffsets, byte[][] outputChunks, int[] outputOffsets, int chunk) {
    if (sourceChunks.length != sources || outputChunks.length != outputs) {
      throw new IllegalArgumentException("schedule for " + sources + " sources and " + outputs + " outputs, given "
          + sourceChunks.length + " and " + outputChunks.length);
    }
    for (int o = 0; o < outputs; o++) {
      if (copyOf[o] >= 0) {
        System.arraycopy(sourceChunks[copyOf[o]], sourceOffsets[copyOf[o]], outputChunks[o], outputOffsets[o], chunk);
      }
    }
    int packet = chunk / 8;
    int stripe = Math.min(packet, STRIPE);
    int[] at = layoutFor(sourceOffsets, outputOffsets, chunk).at;
    byte[][] array = new byte[sources + outputs + 1][];
    System.arraycopy(sourceChunks, 0, array, 0, sources);
    System.arraycopy(outputChunks, 0, array, sources, outputs);
    // The table slides by a stripe per pass like the other slots (see Layout), hence its extra packet - stripe bytes.
    byte[] table = tableEntries == 0 ? null : new byte[tableEntries * stripe + packet - stripe];
    array[sources + outputs] = table;
    for (int done = 0; done < packet; done += stripe) {
      int length = Math.min(stripe, packet - done);
      for (int run = 0; run < runArity.length; run++) {
        runOps(array, at, done, runStart[run], runStart[run + 1], runArity[run], length);
      }
    }
    if (table != null) {
      Arrays.fill(table, (byte) 0); // sums of data and key packets
    }
  }

  // One method per source count, the sources' arrays and offsets in locals, one loop over 8-byte
  // words: a loop over a list of sources ran at about half the speed; operations are grouped by
  // source count so each group runs in one loop of calls to one method.

  /** An operation of any number of sources, in passes of 8 (the later ones adding to the destination). */
  private void xorMany(byte[][] array, int[] at, int done, int first, int end, int length) {
    boolean accumulate = false;
    for (int p = first + 1; p < end; ) {
      int n = Math.min(8, end - p);
      switch (n) {
        case 1 -> xor1(array, at, done, first, p, accumulate, length);
        case 2 -> xor2(array, at, done, first, p, accumulate, length);
        case 3 -> xor3(array, at, done, first, p, accumulate, length);
        case 4 -> xor4(array, at, done, first, p, accumulate, length);
        case 5 -> xor5(array, at, done, first, p, accumulate, length);
        case 6 -> xor6(array, at, done, first, p, accumulate, length);
        case 7 -> xor7(array, at, done, first, p, accumulate, length);
        default -> xor8(array, at, done, first, p, accumulate, length);
      }
      p += n;
      accumulate = true;
    }
  }

  /** Operations {@code from..to}, each of {@code arity} sources (0: any number, or none). */
  private void runOps(byte[][] array, int[] at, int done, int from, int to, int arity, int length) {
    switch (arity) {
      case TABLE -> {
        for (int op = from; op < to; op++) {
          table(array, at, done, opStart[op], length);
        }
      }
      case 1 -> {
        for (int op = from; op < to; op++) {
          xor1(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      case 2 -> {
        for (int op = from; op < to; op++) {
          xor2(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      case 3 -> {
        for (int op = from; op < to; op++) {
          xor3(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      case 4 -> {
        for (int op = from; op < to; op++) {
          xor4(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      case 5 -> {
        for (int op = from; op < to; op++) {
          xor5(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      case 6 -> {
        for (int op = from; op < to; op++) {
          xor6(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      case 7 -> {
        for (int op = from; op < to; op++) {
          xor7(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      case 8 -> {
        for (int op = from; op < to; op++) {
          xor8(array, at, done, opStart[op], opStart[op] + 1, false, length);
        }
      }
      default -> {
        for (int op = from; op < to; op++) {
          int first = opStart[op];
          if (opStart[op + 1] == first + 1) {
            int from0 = at[first] + done;
            Arrays.fill(array[slot[first]], from0, from0 + length, (byte) 0);
          } else {
            xorMany(array, at, done, first, opStart[op + 1], length);
          }
        }
      }
    }
  }

  /** The loop an operation of {@code n} sources runs in: 1 to 8, or 0 for none or more. */
  private static int arity(int n) {
    return n >= 1 && n <= 8 ? n : 0;
  }

  /** The layout of the last call (split and join call with one layout per size), or a new one. */
  private Layout layoutFor(int[] sourceOffsets, int[] outputOffsets, int chunk) {
    Layout last = layout;
    if (last != null && last.chunk == chunk && Arrays.equals(last.sourceOffsets, sourceOffsets)
        && Arrays.equals(last.outputOffsets, outputOffsets)) {
      return last;
    }
    last = new Layout(sourceOffsets.clone(), outputOffsets.clone(), chunk);
    layout = last;
    return last;
  }

  /**
   * Each reference's byte offset in its array in the first stripe, so an operation finds its packets
   * with one load each instead of decoding the reference (about 20 ns per operation at 64-byte packets).
   * Every slot, the table's too, moves by one stripe per pass, so the offsets hold for all passes
   * with the pass's start added.
   */
  private final class Layout {
    final int[] sourceOffsets;
    final int[] outputOffsets;
    final int chunk;
    final int[] at;

    Layout(int[] sourceOffsets, int[] outputOffsets, int chunk) {
      this.sourceOffsets = sourceOffsets;
      this.outputOffsets = outputOffsets;
      this.chunk = chunk;
      int packet = chunk / 8;
      int stripe = Math.min(packet, STRIPE);
      at = new int[refs.length];
      for (int r = 0; r < refs.length; r++) {
        int s = refs[r] >>> INDEX_BITS;
        int index = refs[r] & INDEX_MASK;
        at[r] = s < sources ? sourceOffsets[s] + index * packet
            : s < sources + outputs ? outputOffsets[s - sources] + index * packet
            : index * stripe;
      }
    }
  }

  private static long word(byte[] a, int at) {
    return (long) LONGS.get(a, at);
  }

  /** A group's table: its 4 packets loaded once per word, all 11 sums stored (unused ones to one spare entry). */
  private void table(byte[][] array, int[] at, int done, int first, int length) {
    byte[] t = array[slot[first]];
    int t3 = at[first] + done;
    int t5 = at[first + 1] + done;
    int t6 = at[first + 2] + done;
    int t7 = at[first + 3] + done;
    int t9 = at[first + 4] + done;
    int t10 = at[first + 5] + done;
    int t11 = at[first + 6] + done;
    int t12 = at[first + 7] + done;
    int t13 = at[first + 8] + done;
    int t14 = at[first + 9] + done;
    int t15 = at[first + 10] + done;
    int p = first + SUMS.length;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    byte[] a2 = array[slot[p + 2]];
    int o2 = at[p + 2] + done;
    byte[] a3 = array[slot[p + 3]];
    int o3 = at[p + 3] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x0 = word(a0, o0 + b);
        long x1 = word(a1, o1 + b);
        long x2 = word(a2, o2 + b);
        long x3 = word(a3, o3 + b);
        long x01 = x0 ^ x1;
        long x23 = x2 ^ x3;
        LONGS.set(t, t3 + b, x01);
        LONGS.set(t, t5 + b, x0 ^ x2);
        LONGS.set(t, t6 + b, x1 ^ x2);
        LONGS.set(t, t7 + b, x01 ^ x2);
        LONGS.set(t, t9 + b, x0 ^ x3);
        LONGS.set(t, t10 + b, x1 ^ x3);
        LONGS.set(t, t11 + b, x01 ^ x3);
        LONGS.set(t, t12 + b, x23);
        LONGS.set(t, t13 + b, x0 ^ x23);
        LONGS.set(t, t14 + b, x1 ^ x23);
        LONGS.set(t, t15 + b, x01 ^ x23);
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x0 = word(a0, o0 + b);
      long x1 = word(a1, o1 + b);
      long x2 = word(a2, o2 + b);
      long x3 = word(a3, o3 + b);
      long x01 = x0 ^ x1;
      long x23 = x2 ^ x3;
      LONGS.set(t, t3 + b, x01);
      LONGS.set(t, t5 + b, x0 ^ x2);
      LONGS.set(t, t6 + b, x1 ^ x2);
      LONGS.set(t, t7 + b, x01 ^ x2);
      LONGS.set(t, t9 + b, x0 ^ x3);
      LONGS.set(t, t10 + b, x1 ^ x3);
      LONGS.set(t, t11 + b, x01 ^ x3);
      LONGS.set(t, t12 + b, x23);
      LONGS.set(t, t13 + b, x0 ^ x23);
      LONGS.set(t, t14 + b, x1 ^ x23);
      LONGS.set(t, t15 + b, x01 ^ x23);
    }
  }

  private void xor1(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b));
    }
  }

  private void xor2(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b));
    }
  }

  private void xor3(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    byte[] a2 = array[slot[p + 2]];
    int o2 = at[p + 2] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b));
    }
  }

  private void xor4(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    byte[] a2 = array[slot[p + 2]];
    int o2 = at[p + 2] + done;
    byte[] a3 = array[slot[p + 3]];
    int o3 = at[p + 3] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b));
    }
  }

  private void xor5(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    byte[] a2 = array[slot[p + 2]];
    int o2 = at[p + 2] + done;
    byte[] a3 = array[slot[p + 3]];
    int o3 = at[p + 3] + done;
    byte[] a4 = array[slot[p + 4]];
    int o4 = at[p + 4] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
            ^ word(a4, o4 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b));
    }
  }

  private void xor6(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    byte[] a2 = array[slot[p + 2]];
    int o2 = at[p + 2] + done;
    byte[] a3 = array[slot[p + 3]];
    int o3 = at[p + 3] + done;
    byte[] a4 = array[slot[p + 4]];
    int o4 = at[p + 4] + done;
    byte[] a5 = array[slot[p + 5]];
    int o5 = at[p + 5] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
            ^ word(a4, o4 + b) ^ word(a5, o5 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b) ^ word(a5, o5 + b));
    }
  }

  private void xor7(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    byte[] a2 = array[slot[p + 2]];
    int o2 = at[p + 2] + done;
    byte[] a3 = array[slot[p + 3]];
    int o3 = at[p + 3] + done;
    byte[] a4 = array[slot[p + 4]];
    int o4 = at[p + 4] + done;
    byte[] a5 = array[slot[p + 5]];
    int o5 = at[p + 5] + done;
    byte[] a6 = array[slot[p + 6]];
    int o6 = at[p + 6] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
            ^ word(a4, o4 + b) ^ word(a5, o5 + b) ^ word(a6, o6 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b) ^ word(a5, o5 + b) ^ word(a6, o6 + b));
    }
  }

  private void xor8(byte[][] array, int[] at, int done, int first, int p, boolean accumulate, int length) {
    byte[] d = array[slot[first]];
    int dAt = at[first] + done;
    byte[] a0 = array[slot[p]];
    int o0 = at[p] + done;
    byte[] a1 = array[slot[p + 1]];
    int o1 = at[p + 1] + done;
    byte[] a2 = array[slot[p + 2]];
    int o2 = at[p + 2] + done;
    byte[] a3 = array[slot[p + 3]];
    int o3 = at[p + 3] + done;
    byte[] a4 = array[slot[p + 4]];
    int o4 = at[p + 4] + done;
    byte[] a5 = array[slot[p + 5]];
    int o5 = at[p + 5] + done;
    byte[] a6 = array[slot[p + 6]];
    int o6 = at[p + 6] + done;
    byte[] a7 = array[slot[p + 7]];
    int o7 = at[p + 7] + done;
    if (length == SMALL_PACKET) {
      for (int b = 0; b < SMALL_PACKET; b += 8) {
        long x = accumulate ? word(d, dAt + b) : 0;
        LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
            ^ word(a4, o4 + b) ^ word(a5, o5 + b) ^ word(a6, o6 + b) ^ word(a7, o7 + b));
      }
      return;
    }
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b) ^ word(a5, o5 + b) ^ word(a6, o6 + b) ^ word(a7, o7 + b));
    }
  }

  /** Chooses per group between direct loads and a table, then lists the table entries and the output packets. */
  private static final class Builder {
    private final int[][] coefficients;
    private final int sources;
    private final int outputs;
    private final List<Integer> opStart = new ArrayList<>();
    /** Per operation: the size of the table entry it builds, or GROUP + 1 for output packets. */
    private final List<Integer> opPhase = new ArrayList<>();
    private final List<Integer> opArity = new ArrayList<>();
    private final List<Integer> refs = new ArrayList<>();
    private int tableEntries;

    Builder(int[][] coefficients) {
      this.coefficients = coefficients;
      this.outputs = coefficients.length;
      this.sources = outputs == 0 ? 0 : coefficients[0].length;
    }

    XorSchedule build() {
      int groups = sources * 8 / GROUP;
      int packets = outputs * 8;
      int[] copyOf = new int[outputs];
      // pattern[p][g]: which of group g's packets output packet p takes (none for copied outputs).
      int[][] pattern = new int[packets][groups];
      for (int o = 0; o < outputs; o++) {
        copyOf[o] = copiedSource(coefficients[o]);
        if (copyOf[o] >= 0) {
          continue;
        }
        for (int b = 0; b < 8; b++) {
          for (int j = 0; j < sources; j++) {
            int planes = BitslicedKernel.planes(coefficients[o][j] & 0xff, b);
            for (int h = 0; h < 8 / GROUP; h++) {
              pattern[o * 8 + b][j * (8 / GROUP) + h] = (planes >>> (h * GROUP)) & ((1 << GROUP) - 1);
            }
          }
        }
      }
      // entry[g][pattern]: table entry of that combination of group g's packets, or -1 (loaded directly).
      int[][] entry = new int[groups][];
      for (int g = 0; g < groups; g++) {
        entry[g] = tableFor(g, pattern);
      }
      int spare = -1; // the entry unused sums go to
      for (int g = 0; g < groups; g++) {
        if (entry[g] != null) {
          if (spare < 0) {
            spare = tableEntries++;
          }
          addTable(g, entry[g], spare);
        }
      }
      for (int p = 0; p < packets; p++) {
        if (copyOf[p / 8] >= 0) {
          continue;
        }
        begin(GROUP + 1, sources + p / 8, p % 8);
        for (int g = 0; g < groups; g++) {
          int bits = pattern[p][g];
          if (bits == 0) {
            continue;
          }
          if (entry[g] != null && Integer.bitCount(bits) > 1) {
            ref(tableSlot(), entry[g][bits]);
          } else {
            packetsOf(g, bits);
          }
        }
      }
      opStart.add(refs.size());
      for (int op = 0; op < opArity.size(); op++) {
        if (opArity.get(op) == null) {
          opArity.set(op, arity(opStart.get(op + 1) - opStart.get(op) - 1));
        }
      }
      // Operations of one phase do not depend on each other: grouped by source count, they run in
      // loops of one kind each (no dispatch per operation).
      Integer[] order = new Integer[opPhase.size()];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.<Integer>comparingInt(opPhase::get)
          .thenComparingInt(opArity::get));
      int[] sortedArity = new int[order.length];
      int[] sortedStart = new int[order.length + 1];
      int[] sortedRefs = new int[refs.size()];
      int at = 0;
      for (int i = 0; i < order.length; i++) {
        sortedStart[i] = at;
        sortedArity[i] = opArity.get(order[i]);
        for (int r = opStart.get(order[i]); r < opStart.get(order[i] + 1); r++) {
          sortedRefs[at++] = refs.get(r);
        }
      }
      sortedStart[order.length] = at;
      return new XorSchedule(sources, outputs, tableEntries, copyOf, sortedStart, sortedArity, sortedRefs);
    }

    /**
     * Group {@code g}'s table (entry numbers by pattern) with its entries' operations added, or null if
     * loading its packets directly costs less.
     */
    private int[] tableFor(int g, int[][] pattern) {
      boolean[] needed = new boolean[1 << GROUP];
      int direct = 0;
      int uses = 0;
      for (int[] p : pattern) {
        direct += Integer.bitCount(p[g]);
        uses += p[g] == 0 ? 0 : 1;
        needed[p[g]] |= Integer.bitCount(p[g]) > 1;
      }
      int entries = 0;
      for (boolean n : needed) {
        entries += n ? 1 : 0;
      }
      if (entries == 0 || TABLE_COST + uses >= direct) {
        return null;
      }
      int[] entry = new int[1 << GROUP];
      for (int bits = 0; bits < 1 << GROUP; bits++) {
        entry[bits] = needed[bits] ? 0 : -1; // numbered in addTable
      }
      return entry;
    }

    /** The source a row copies (its only non-zero coefficient is 1), or -1. */
    private static int copiedSource(int[] row) {
      int source = -1;
      for (int j = 0; j < row.length; j++) {
        if (row[j] != 0) {
          if (row[j] != 1 || source >= 0) {
            return -1;
          }
          source = j;
        }
      }
      return source;
    }

    /** Numbers group {@code g}'s needed entries and adds the operation that builds its table. */
    private void addTable(int g, int[] entry, int spare) {
      opPhase.add(0);
      opArity.add(TABLE);
      opStart.add(refs.size());
      for (int bits : SUMS) {
        entry[bits] = entry[bits] >= 0 ? tableEntries++ : -1;
        ref(tableSlot(), entry[bits] >= 0 ? entry[bits] : spare);
      }
      packetsOf(g, (1 << GROUP) - 1);
    }

    private void packetsOf(int g, int bits) {
      int source = g / (8 / GROUP);
      int first = (g % (8 / GROUP)) * GROUP;
      for (int rest = bits; rest != 0; rest &= rest - 1) {
        ref(source, first + Integer.numberOfTrailingZeros(rest));
      }
    }

    private int tableSlot() {
      return sources + outputs;
    }

    private void begin(int phase, int slot, int index) {
      opPhase.add(phase);
      opArity.add(null); // set once its sources are in
      opStart.add(refs.size());
      ref(slot, index);
    }

    private void ref(int slot, int index) {
      refs.add(slot << INDEX_BITS | index);
    }
  }
}
