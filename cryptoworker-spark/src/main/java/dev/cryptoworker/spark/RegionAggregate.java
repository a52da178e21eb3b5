package dev.cryptoworker.spark;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An aggregate Spark pushed: SUM and COUNT (not DISTINCT) of measure columns and COUNT(*), grouped
 * by any number of columns. Each region answers, in one pass, one partial row per group (SQL's null
 * groups included), [group values, then each function's partial in Spark's order]; Spark adds the
 * partials (AVG it has rewritten as SUM / COUNT).
 */
final class RegionAggregate implements Serializable {
  private static final long serialVersionUID = 2L;

  /** One of Spark's functions: the sum or count of a measure (its index), or the row count (index -1). */
  private record Function(boolean sum, int measure) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  private final List<SparkColumns.Column> measures;
  private final List<SparkColumns.Column> groups;
  private final List<Function> functions;

  private RegionAggregate(List<SparkColumns.Column> measures, List<SparkColumns.Column> groups,
      List<Function> functions) {
    this.measures = List.copyOf(measures);
    this.groups = List.copyOf(groups);
    this.functions = List.copyOf(functions);
  }

  /** The aggregate if it has this form (else Spark aggregates rows itself). */
  static Optional<RegionAggregate> of(Aggregation aggregation, SparkColumns columns) {
    List<SparkColumns.Column> groups = new ArrayList<>();
    for (Expression e : aggregation.groupByExpressions()) {
      SparkColumns.Column group = column(e, columns).orElse(null);
      if (group == null || group.isRowKey() || groups.contains(group)) {
        return Optional.empty();
      }
      groups.add(group);
    }
    List<SparkColumns.Column> measures = new ArrayList<>();
    List<Function> functions = new ArrayList<>();
    for (AggregateFunc f : aggregation.aggregateExpressions()) {
      Expression argument;
      if (f instanceof CountStar) {
        functions.add(new Function(false, -1));
        continue;
      } else if (f instanceof Sum s && !s.isDistinct()) {
        argument = s.column();
      } else if (f instanceof Count c && !c.isDistinct()) {
        argument = c.column();
      } else {
        return Optional.empty();
      }
      Optional<SparkColumns.Column> c = column(argument, columns);
      if (c.isEmpty() || c.get().isRowKey()) {
        return Optional.empty();
      }
      if (!measures.contains(c.get())) {
        measures.add(c.get());
      }
      functions.add(new Function(f instanceof Sum, measures.indexOf(c.get())));
    }
    return functions.isEmpty() ? Optional.empty() : Optional.of(new RegionAggregate(measures, groups, functions));
  }

  private static Optional<SparkColumns.Column> column(Expression e, SparkColumns columns) {
    return e instanceof NamedReference ref && ref.fieldNames().length == 1 ? columns.named(ref.fieldNames()[0])
        : Optional.empty();
  }

  /**
   * The client's query: every measure, the groups with SQL's null groups, and the row count where
   * COUNT(*) asks for it or a group must show although its rows lack every measure.
   */
  AggregateQuery query() {
    boolean countStar = functions.stream().anyMatch(f -> f.measure() < 0);
    return new AggregateQuery(columnsOf(measures), columnsOf(groups), countStar || !groups.isEmpty(),
        !groups.isEmpty());
  }

  private static List<AggregateQuery.Column> columnsOf(List<SparkColumns.Column> columns) {
    return columns.stream().map(c -> new AggregateQuery.Column(c.familyBytes(), c.qualifierBytes())).toList();
  }

  /** The partial rows' schema: the group columns, then one long per function. */
  StructType schema() {
    List<StructField> fields = new ArrayList<>();
    for (SparkColumns.Column g : groups) {
      fields.add(new StructField(g.name(), g.sparkType(), true, Metadata.empty()));
    }
    for (int i = 0; i < functions.size(); i++) {
      Function f = functions.get(i);
      String name = f.measure() < 0 ? "count_rows" : (f.sum() ? "sum_" : "count_") + measures.get(f.measure()).name();
      fields.add(new StructField(name + "_" + i, DataTypes.LongType, f.sum(), Metadata.empty()));
    }
    return new StructType(fields.toArray(StructField[]::new));
  }

  /** One partial row: a group's values and each function's partial (a sum of no value is null). */
  InternalRow row(AggregateGroup group) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      byte[] v = group.key().get(i);
      values.add(v == null ? null : groups.get(i).toSpark(v));
    }
    for (Function f : functions) {
      if (f.measure() < 0) {
        values.add(group.rows());
      } else {
        AggregateResult partial = group.measures().get(f.measure());
        values.add(f.sum() ? (partial.count() == 0 ? null : (Object) partial.sum()) : (Object) partial.count());
      }
    }
    return new GenericInternalRow(values.toArray());
  }

  /** The partial of a region without selected rows: a global aggregate still has one row per region. */
  AggregateGroup empty() {
    return new AggregateGroup(List.of(), measures.stream().map(m -> new AggregateResult(0, 0)).toList(), 0);
  }

  boolean grouped() {
    return !groups.isEmpty();
  }

  String describe() {
    List<String> parts = new ArrayList<>();
    if (!measures.isEmpty()) {
      parts.add("SUM/COUNT of " + measures.stream().map(SparkColumns.Column::name).collect(Collectors.joining(", ")));
    }
    if (functions.stream().anyMatch(f -> f.measure() < 0)) {
      parts.add("COUNT(*)");
    }
    return String.join(" and ", parts) + (groups.isEmpty() ? ""
        : " by " + groups.stream().map(SparkColumns.Column::name).collect(Collectors.joining(", ")));
  }
}
