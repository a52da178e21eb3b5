package dev.cryptoworker.coprocessor;

import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/** A region scanner that answers with cells made before the scan starts, one per row, in order. */
class ListedAnswersScanner extends AnsweringRegionScanner {
  private final List<Cell> answers;
  private int next;

  ListedAnswersScanner(String reseekRefusal, RegionScanner delegate, List<Cell> answers) {
    super(reseekRefusal, delegate);
    this.answers = answers;
  }

  @Override
  public boolean nextRaw(List<Cell> result) {
    if (next < answers.size()) {
      result.add(answers.get(next++));
    }
    return next < answers.size();
  }

  @Override
  public boolean isFilterDone() {
    return next >= answers.size();
  }
}
