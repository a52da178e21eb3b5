package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CounterTakeRequest;
import dev.cryptoworker.region.CounterTakeRequest.Take;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Answers a {@link CounterTakeRequest}: applies the takes whose rows this region holds in one
 * batch ({@link RegionCounters}), then returns one answer row per take, in row order, or for a
 * request that asks for it one packed answer cell. Takes of rows outside the region are left to
 * the regions that hold them, which the same scan reaches next.
 */
final class CounterTakingRegionScanner extends ListedAnswersScanner {
  private CounterTakingRegionScanner(RegionScanner delegate, List<Cell> answers) {
    super("a counter take cannot reseek", delegate, answers);
  }

  /** Applies {@code request}'s takes in {@code counters}' region; the scanner then returns their answers. */
  static RegionScanner open(RegionCounters counters, RegionInfo info, RegionScanner delegate,
      CounterTakeRequest request) throws IOException {
    List<Integer> mine = new ArrayList<>();
    List<Take> all = request.takes();
    for (int i = 0; i < all.size(); i++) {
      if (info.containsRow(all.get(i).row())) {
        mine.add(i);
      }
    }
    mine.sort(Comparator.comparing(i -> all.get(i).row(), Bytes.BYTES_COMPARATOR));
    List<Take> takes = new ArrayList<>(mine.size());
    for (int i : mine) {
      Take t = all.get(i);
      if (!takes.isEmpty() && Arrays.equals(takes.get(takes.size() - 1).row(), t.row())) {
        throw new DoNotRetryIOException("refused counter take request: row " + Bytes.toStringBinary(t.row())
            + " is taken from twice (one take per counter and request)");
      }
      takes.add(t);
    }
    long[] values = counters.take(request.family(), request.qualifier(), takes);
    List<Cell> answers = new ArrayList<>();
    if (request.packedAnswer()) {
      if (!takes.isEmpty()) {
        int[] positions = mine.stream().mapToInt(Integer::intValue).toArray();
        answers.add(answer(takes.get(0).row(), request.family(), CounterTakeRequest.ANSWER_QUALIFIER,
            CounterTakeRequest.packAnswer(positions, values)));
      }
    } else {
      for (int i = 0; i < takes.size(); i++) {
        answers.add(answer(takes.get(i).row(), request.family(), CounterTakeRequest.ANSWER_QUALIFIER,
            Bytes.toBytes(values[i])));
      }
    }
    return new CounterTakingRegionScanner(delegate, answers);
  }
}
