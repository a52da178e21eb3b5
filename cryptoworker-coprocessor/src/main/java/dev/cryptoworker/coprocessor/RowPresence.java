package dev.cryptoworker.coprocessor;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hbase.thirdparty.com.google.common.hash.BloomFilter;
import org.apache.hbase.thirdparty.com.google.common.hash.Funnels;

/**
 * Which rows a region may hold: never answers "absent" for a row added to it, and answers
 * "present" for a row never added with a small probability. Bloom filters that grow as rows are
 * added (a scalable Bloom filter: each new filter twice as large with half the false-positive
 * rate, so the total rate stays below twice the first's). Thread-safe.
 */
final class RowPresence {
  private static final long FIRST_CAPACITY = 1 << 16;
  private static final double FIRST_FALSE_POSITIVES = 0.005;

  private final List<BloomFilter<byte[]>> filters = new CopyOnWriteArrayList<>();
  private BloomFilter<byte[]> current;
  private long capacity;
  private double falsePositives;

  RowPresence() {
    grow(FIRST_CAPACITY, FIRST_FALSE_POSITIVES);
  }

  synchronized void add(byte[] row) {
    if (current.approximateElementCount() >= capacity) {
      grow(capacity * 2, falsePositives / 2);
    }
    current.put(row);
  }

  /** False only if {@code row} was never added. */
  boolean mightHold(byte[] row) {
    for (BloomFilter<byte[]> f : filters) {
      if (f.mightContain(row)) {
        return true;
      }
    }
    return false;
  }

  private void grow(long newCapacity, double newFalsePositives) {
    capacity = newCapacity;
    falsePositives = newFalsePositives;
    current = BloomFilter.create(Funnels.byteArrayFunnel(), newCapacity, newFalsePositives);
    filters.add(current);
  }
}
