package dev.cryptoworker.cryptobox.ashe;

import java.security.SecureRandom;
import java.util.List;

/**
 * Which infrequent value an enhanced SPLASHE row of a frequent value shows in its DET token, so
 * that every infrequent value's token appears about equally often: the one this writer has shown
 * least, ties broken at random. Counts only what this writer wrote since it started; thread-safe.
 */
final class InfrequentPadding {
  private final List<String> values;
  private final long[] shown;
  private final SecureRandom random = new SecureRandom();

  InfrequentPadding(List<String> infrequentValues) {
    this.values = List.copyOf(infrequentValues);
    this.shown = new long[values.size()];
  }

  /** Counts a token of a row that holds {@code value}, one of the infrequent values. */
  synchronized void shown(String value) {
    shown[values.indexOf(value)]++;
  }

  /** The value a row of a frequent value shows, counted as shown. */
  synchronized String pad() {
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
    return values.get(chosen);
  }
}
