package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.search.PrfOutput;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The highest count this process has seen of each of its most recently used SSE counters, so that
 * a counter read or taken lower than it was (a counter table restored from an older copy) is
 * noticed. Past {@code capacity} counters the least recently used is forgotten, one at a time: a
 * value written or searched often stays checked however many others come and go. Thread-safe.
 */
final class SeenCounts {
  /** What {@link #highest} returns for a counter not seen (or forgotten). */
  static final long UNSEEN = -1;

  private final Map<PrfOutput, Long> highest;

  SeenCounts(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + " < 1");
    }
    this.highest = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<PrfOutput, Long> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The highest count seen of {@code counter}, or {@link #UNSEEN}; counts as a use. */
  synchronized long highest(PrfOutput counter) {
    Long count = highest.get(counter);
    return count == null ? UNSEEN : count;
  }

  /** Records that {@code counter} read {@code count}. */
  synchronized void saw(PrfOutput counter, long count) {
    highest.merge(counter, count, Math::max);
  }

  synchronized int size() {
    return highest.size();
  }
}
