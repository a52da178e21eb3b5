package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Which infrequent value each enhanced SPLASHE row shows in its DET token, so that every infrequent
 * value's token appears equally often across all writers: a batch's rows of infrequent values show
 * their own, and its rows of frequent values (pads) fill the tokens shown least, by the counts every
 * writer shares ({@link SharedCounts}), ties broken at random. A batch's pads go to its frequent rows
 * in a random order, so neither the order rows arrive in nor their keys decide which row shows which
 * pad. Planned per thread ({@link #begin}); a row encoded outside a plan is a batch of one.
 * Thread-safe.
 */
final class InfrequentPadding {
  private final List<String> values;
  private final SharedCounts counts;
  private final Random random = new SecureRandom();
  private final ThreadLocal<Plan> plans = new ThreadLocal<>();

  /** What a batch's rows still show: its infrequent rows not yet encoded, and the pads of its frequent rows. */
  private record Plan(Map<String, Integer> infrequentLeft, List<String> pads) {
    /** The token of a row holding {@code value}, or null if the plan did not count such a row. */
    String take(String value) {
      Integer left = infrequentLeft.get(value);
      if (left != null) {
        if (left == 0) {
          return null;
        }
        infrequentLeft.put(value, left - 1);
        return value;
      }
      return pads.isEmpty() ? null : pads.remove(pads.size() - 1);
    }
  }

  InfrequentPadding(List<String> infrequentValues, SharedCounts counts) {
    this.values = List.copyOf(infrequentValues);
    this.counts = counts;
  }

  /**
   * Plans the tokens of a batch whose rows hold {@code rowValues} (declared values), counting them in
   * the shared counts, for the {@link #shown} calls that follow on this thread until {@link #end}.
   */
  void begin(List<String> rowValues) throws IOException {
    plans.set(null);
    if (!rowValues.isEmpty()) {
      plans.set(plan(rowValues));
    }
  }

  void end() {
    plans.remove();
  }

  /** The value the token of a row holding {@code value} shows, counted in the shared counts. */
  String shown(String value) throws IOException {
    Plan plan = plans.get();
    String shown = plan == null ? null : plan.take(value);
    return shown != null ? shown : plan(List.of(value)).take(value);
  }

  /**
   * Reads the shared counts, chooses the pads, and adds the batch's tokens, its own and its pads
   * together in one step: the counter table then sees per batch only the tokens its stored rows show,
   * never how many of them are pads. One plan at a time per column and client: batches a client
   * encodes side by side (bulk-load chunks) see each other's tokens; only other clients' plans made
   * between a read and its add are unseen.
   */
  private synchronized Plan plan(List<String> rowValues) throws IOException {
    long[] own = new long[values.size()];
    Map<String, Integer> infrequentLeft = new HashMap<>();
    int pads = 0;
    for (String v : rowValues) {
      int i = values.indexOf(v);
      if (i < 0) {
        pads++;
      } else {
        own[i]++;
        infrequentLeft.merge(v, 1, Integer::sum);
      }
    }
    for (String v : values) {
      infrequentLeft.putIfAbsent(v, 0);
    }
    long[] after = counts.add(values, new long[values.size()]);
    long[] shown = own.clone();
    for (int i = 0; i < after.length; i++) {
      after[i] += own[i];
    }
    long[] padded = fill(after, pads, random);
    List<String> padList = new ArrayList<>(pads);
    for (int i = 0; i < padded.length; i++) {
      shown[i] += padded[i];
      for (long n = 0; n < padded[i]; n++) {
        padList.add(values.get(i));
      }
    }
    counts.add(values, shown);
    Collections.shuffle(padList, random);
    return new Plan(infrequentLeft, padList);
  }

  /**
   * Sets the shared counts to {@code stored} (rows per value's token; absent: none), between this
   * client's plans; returns by how much they moved, in all. Other clients' plans made meanwhile are
   * lost from the counts.
   */
  synchronized long recount(Map<String, Long> stored) throws IOException {
    long[] now = counts.add(values, new long[values.size()]);
    long[] deltas = new long[values.size()];
    long moved = 0;
    for (int i = 0; i < deltas.length; i++) {
      deltas[i] = stored.getOrDefault(values.get(i), 0L) - now[i];
      moved += Math.abs(deltas[i]);
    }
    if (moved > 0) {
      counts.add(values, deltas);
    }
    return moved;
  }

  /**
   * How many of {@code pads} pads each value gets, one at a time to the value counted least (ties at
   * random): the counts after end equal whenever the pads reach the highest count and the rest
   * divides evenly, else within one of each other among the values padded.
   */
  static long[] fill(long[] counts, int pads, Random random) {
    long[] shown = counts.clone();
    long[] out = new long[counts.length];
    for (int p = 0; p < pads; p++) {
      long least = Long.MAX_VALUE;
      int ties = 0;
      int chosen = -1;
      for (int i = 0; i < shown.length; i++) {
        if (shown[i] < least) {
          least = shown[i];
          ties = 1;
          chosen = i;
        } else if (shown[i] == least && random.nextInt(++ties) == 0) {
          chosen = i; // reservoir sampling: each of the tied values with probability 1/ties
        }
      }
      shown[chosen]++;
      out[chosen]++;
    }
    return out;
  }
}
