package dev.cryptoworker.coprocessor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * Replaces a region's scan by its aggregate: reads every row the scan (with its filter, evaluated
 * as usual on stored bytes) selects into a {@link RegionAggregator} and returns one row of partial
 * results.
 */
final class AggregatingRegionScanner extends AnsweringRegionScanner {
  private final RegionAggregator aggregator;
  private boolean done;

  AggregatingRegionScanner(RegionScanner delegate, RegionAggregator aggregator) {
    super("an aggregation scan cannot reseek", delegate);
    this.aggregator = aggregator;
  }

  @Override
  public boolean nextRaw(List<Cell> result) throws IOException {
    if (done) {
      return false;
    }
    done = true;
    List<Cell> row = new ArrayList<>();
    boolean more;
    do {
      row.clear();
      more = delegate.nextRaw(row);
      aggregator.add(row);
    } while (more);
    result.addAll(aggregator.result());
    return false;
  }

  @Override
  public boolean isFilterDone() throws IOException {
    return done;
  }
}
