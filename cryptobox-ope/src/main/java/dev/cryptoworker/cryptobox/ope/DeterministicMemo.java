package dev.cryptoworker.cryptobox.ope;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded memo of a deterministic function on byte strings (OPE encryption or decryption
 * under one key): a fixed array of slots chosen by hash, each holding the latest input and output
 * that landed there. Lock-free; a lookup compares the whole input, so a collision only costs a
 * recomputation. OPE costs microseconds per block and is deterministic, so repeated values (hot
 * row keys, common dates) are worth remembering; CryptDB cached its OPE encryptions the same way.
 */
final class DeterministicMemo {
  private record Entry(byte[] input, byte[] output) {}

  private final AtomicReferenceArray<Entry> slots;
  private final int mask;

  /** A memo of at least {@code entries} slots (rounded up to a power of two); 0 remembers nothing. */
  DeterministicMemo(int entries) {
    if (entries < 0) {
      throw new IllegalArgumentException("memo size must be >= 0, got " + entries);
    }
    int size = Math.min(Integer.highestOneBit(entries), 1 << 24);
    size = size < entries && size < 1 << 24 ? size << 1 : size;
    this.slots = new AtomicReferenceArray<>(size);
    this.mask = size - 1;
  }

  private int slot(byte[] input, int length) {
    int h = 1;
    for (int i = 0; i < length; i++) {
      h = 31 * h + input[i];
    }
    h ^= h >>> 16;
    return (h * 0x9E3779B9) >>> 7 & mask;
  }

  /** The remembered output for {@code input[0..length)}, as a fresh copy, or null. */
  byte[] get(byte[] input, int length) {
    if (slots.length() == 0) {
      return null;
    }
    Entry e = slots.get(slot(input, length));
    return e != null && Arrays.equals(e.input, 0, e.input.length, input, 0, length) ? e.output.clone() : null;
  }

  /** Remembers {@code output} for {@code input[0..length)} (both copied). */
  void put(byte[] input, int length, byte[] output) {
    if (slots.length() > 0) {
      slots.set(slot(input, length), new Entry(Arrays.copyOf(input, length), output.clone()));
    }
  }
}
