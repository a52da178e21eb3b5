package dev.cryptoworker.coprocessor;

import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/** A region scanner that answers with cells made before the scan starts, one per row, in order. */
class ListedAnswersScanner extends AnsweringRegionScanner {
  private final List<Cell> answers;
  private int next;

  /** An answer cell: {@code value} in ({@code family}, {@code qualifier}) of {@code row}. */
  static Cell answer(byte[] row, byte[] family, byte[] qualifier, byte[] value) {
    return CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(row).setFamily(family).setQualifier(qualifier)
        .setTimestamp(0).setType(Cell.Type.Put).setValue(value).build();
  }

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
