package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.search.PrfOutput;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;

/**
 * One writer's lanes (stored format 6, {@link ValueIndex#lane}): the entries this writer numbers,
 * per value, in a lane of its own, named by a PRF of the value under a random key of this writer,
 * so that no other writer, process or thread can take the same number and no shared counter is
 * asked.
 *
 * <p>Counts live only here. When {@value #VALUES_PER_LANE} values have been numbered, the writer
 * rolls to a new epoch of lanes and forgets them: a value written again starts at 0 in a new lane,
 * so memory stays bounded and no count ever needs reading back. A search covers every lane a value
 * has, so rolling costs a search one lane more per roll in which the value was written. Thread-safe.
 */
final class WriterLanes {
  /** Values numbered per epoch before rolling to new lanes: bounds memory to about 10 MB. */
  static final int VALUES_PER_LANE = 1 << 16;

  private final Map<PrfOutput, Lane> counts = new HashMap<>();
  /** The key of this writer's lane ids, drawn on first use (so that a JVM cloned before it draws its own). */
  private byte[] laneKey;
  /** How many times this writer has rolled: part of every lane id, so a rolled value never meets its old lane. */
  private long epoch;

  /**
   * A value's lane index, how many entries this writer has numbered in it, and the timestamp of
   * its last count cell. Stamps grow with the count (the clock, or one more than the last when
   * the clock has not moved or went back), so the highest count stays whichever of this writer's
   * cells lands last.
   */
  private static final class Lane {
    final ValueIndex index;
    long count;
    long stamp;

    Lane(ValueIndex index) {
      this.index = index;
    }
  }

  /**
   * Numbers {@code amount} new entries of {@code value} (an index with {@link
   * ValueIndex#hasWriterLanes writer lanes}).
   *
   * @return the lane, its first new entry number, and the lane's count after them
   */
  synchronized Numbered number(ValueIndex value, int amount) {
    Lane lane = counts.get(value.counterKey());
    if (lane == null || lane.count + amount > ValueIndex.MAX_ENTRIES) {
      if (lane != null || counts.size() >= VALUES_PER_LANE) {
        roll();
      }
      lane = new Lane(value.lane(laneId(value)));
      counts.put(value.counterKey(), lane);
    }
    long first = lane.count;
    lane.count += amount;
    lane.stamp = Math.max(System.currentTimeMillis(), lane.stamp + 1);
    return new Numbered(lane.index, first, lane.count, lane.stamp);
  }

  /** Moves to fresh lanes: every value starts again at entry 0 in a lane of the next epoch. */
  private void roll() {
    counts.clear();
    epoch++;
  }

  /**
   * The id of {@code value}'s lane in this epoch: a PRF of (epoch, value's counter name) under this
   * writer's random key, so ids are random per writer and unlinkable across values (a stored
   * counter table does not show which values one writer wrote).
   */
  private byte[] laneId(ValueIndex value) {
    if (laneKey == null) {
      laneKey = new byte[ValueIndex.LANE_KEY_BYTES];
      new SecureRandom().nextBytes(laneKey);
    }
    return value.laneId(laneKey, epoch);
  }

  /**
   * Entries {@code [first, count)} of {@code lane}, just numbered: {@code count} is what the lane's
   * counter cell must say for a search to cover them, in a cell stamped {@code stamp}.
   */
  record Numbered(ValueIndex lane, long first, long count, long stamp) {}
}
