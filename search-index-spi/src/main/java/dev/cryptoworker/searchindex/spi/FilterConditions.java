package dev.cryptoworker.searchindex.spi;

import dev.cryptoworker.cryptobox.ValueCondition;
import java.util.Optional;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;

/** The conditions HBase filters put on a column's values, as boxes are asked about them. */
public final class FilterConditions {
  private FilterConditions() {}

  /**
   * The condition a {@code SingleColumnValueFilter} puts on its column's values, if it compares
   * with an operator and comparator a box can be asked about.
   */
  public static Optional<ValueCondition> of(SingleColumnValueFilter f) {
    if (f.getCompareOperator() != CompareOperator.EQUAL) {
      return Optional.empty();
    }
    return f.getComparator() instanceof BinaryComparator c ? Optional.of(new ValueCondition(ValueCondition.Operator.EQUAL, c.getValue()))
        : f.getComparator() instanceof BinaryPrefixComparator c
            ? Optional.of(new ValueCondition(ValueCondition.Operator.STARTS_WITH, c.getValue()))
            : Optional.empty();
  }
}
