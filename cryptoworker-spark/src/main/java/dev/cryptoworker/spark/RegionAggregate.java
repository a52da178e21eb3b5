package dev.cryptoworker.spark;

import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An aggregate Spark pushed: SUM and COUNT (not DISTINCT) of one measure column, grouped by at most
 * one column. Each region answers one partial row per group, [group value, then each function's
 * partial in Spark's order]; Spark adds the partials (AVG it has rewritten as SUM / COUNT).
 */
final class RegionAggregate implements Serializable {
  private static final long serialVersionUID = 1L;

  private final SparkColumns.Column measure;
  private final SparkColumns.Column group;
  private final List<Boolean> sums;

  private RegionAggregate(SparkColumns.Column measure, SparkColumns.Column group, List<Boolean> sums) {
    this.measure = measure;
    this.group = group;
    this.sums = List.copyOf(sums);
  }

  /** The aggregate if it has this form (else Spark aggregates rows itself). */
  static Optional<RegionAggregate> of(Aggregation aggregation, SparkColumns columns) {
    if (aggregation.groupByExpressions().length > 1) {
      return Optional.empty();
    }
    SparkColumns.Column group = null;
    if (aggregation.groupByExpressions().length == 1) {
      group = column(aggregation.groupByExpressions()[0], columns).orElse(null);
      if (group == null || group.isRowKey()) {
        return Optional.empty();
      }
    }
    SparkColumns.Column measure = null;
    List<Boolean> sums = new ArrayList<>();
    for (AggregateFunc f : aggregation.aggregateExpressions()) {
      Expression argument;
      if (f instanceof Sum s && !s.isDistinct()) {
        argument = s.column();
        sums.add(true);
      } else if (f instanceof Count c && !c.isDistinct()) {
        argument = c.column();
        sums.add(false);
      } else {
        return Optional.empty();
      }
      Optional<SparkColumns.Column> c = column(argument, columns);
      if (c.isEmpty() || c.get().isRowKey() || (measure != null && !measure.equals(c.get()))) {
        return Optional.empty();
      }
      measure = c.get();
    }
    return measure == null ? Optional.empty() : Optional.of(new RegionAggregate(measure, group, sums));
  }

  private static Optional<SparkColumns.Column> column(Expression e, SparkColumns columns) {
    return e instanceof NamedReference ref && ref.fieldNames().length == 1 ? columns.named(ref.fieldNames()[0])
        : Optional.empty();
  }

  /** The same measure in one group: with the grouped partials, it shows the rows without a group value. */
  AggregateQuery ungrouped() {
    return AggregateQuery.of(measure.familyBytes(), measure.qualifierBytes());
  }

  /**
   * {@code scan} narrowed to the rows without the group column: {@code g = v AND g <> v}, each
   * passing rows without g, holds for exactly those (any v of the column's type; both comparisons
   * run on the region servers wherever the group column can group).
   */
  org.apache.hadoop.hbase.client.Scan withoutGroupValue(org.apache.hadoop.hbase.client.Scan scan)
      throws java.io.IOException {
    byte[] probe = group.probeValue();
    org.apache.hadoop.hbase.filter.FilterList missing = new org.apache.hadoop.hbase.filter.FilterList(
        org.apache.hadoop.hbase.filter.FilterList.Operator.MUST_PASS_ALL,
        missingOr(org.apache.hadoop.hbase.CompareOperator.EQUAL, probe),
        missingOr(org.apache.hadoop.hbase.CompareOperator.NOT_EQUAL, probe));
    org.apache.hadoop.hbase.client.Scan out = new org.apache.hadoop.hbase.client.Scan(scan);
    out.setFilter(scan.getFilter() == null ? missing : new org.apache.hadoop.hbase.filter.FilterList(
        org.apache.hadoop.hbase.filter.FilterList.Operator.MUST_PASS_ALL, scan.getFilter(), missing));
    return out.setLimit(1);
  }

  private org.apache.hadoop.hbase.filter.SingleColumnValueFilter missingOr(org.apache.hadoop.hbase.CompareOperator op,
      byte[] value) {
    org.apache.hadoop.hbase.filter.SingleColumnValueFilter f = new org.apache.hadoop.hbase.filter.SingleColumnValueFilter(
        group.familyBytes(), group.qualifierBytes(), op, new org.apache.hadoop.hbase.filter.BinaryComparator(value));
    f.setFilterIfMissing(false);
    return f;
  }

  AggregateQuery query() {
    return group == null ? AggregateQuery.of(measure.familyBytes(), measure.qualifierBytes())
        : AggregateQuery.groupedBy(measure.familyBytes(), measure.qualifierBytes(), group.familyBytes(),
            group.qualifierBytes());
  }

  /** The partial rows' schema: the group column, then one long per function. */
  StructType schema() {
    List<StructField> fields = new ArrayList<>();
    if (group != null) {
      fields.add(new StructField(group.name(), group.sparkType(), true, Metadata.empty()));
    }
    for (int i = 0; i < sums.size(); i++) {
      fields.add(new StructField((sums.get(i) ? "sum_" : "count_") + measure.name() + "_" + i, DataTypes.LongType,
          sums.get(i), Metadata.empty()));
    }
    return new StructType(fields.toArray(StructField[]::new));
  }

  /** One partial row: a group's sum and count (a sum of no value is null; a null group value is SQL's null group). */
  InternalRow row(byte[] groupValue, AggregateResult partial) {
    List<Object> values = new ArrayList<>();
    if (group != null) {
      values.add(groupValue == null ? null : group.toSpark(groupValue));
    }
    for (boolean sum : sums) {
      values.add(sum ? (partial.count() == 0 ? null : (Object) partial.sum()) : (Object) partial.count());
    }
    return new GenericInternalRow(values.toArray());
  }

  boolean grouped() {
    return group != null;
  }

  String describe() {
    return "SUM/COUNT of " + measure.name() + (group == null ? "" : " by " + group.name());
  }
}
