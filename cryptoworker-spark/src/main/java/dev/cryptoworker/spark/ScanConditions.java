package dev.cryptoworker.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;

/**
 * The logical HBase {@link Scan} of a read: Spark filters (those the driver pushed) as HBase
 * filters and a row range, in plaintext; the {@code SecureTable} encrypts them as for any scan.
 * Built the same way on the driver (to plan) and on executors (to read), from serializable parts.
 *
 * <p>Row-key conditions become the scan's row range (one lower and one upper bound at most, at
 * the top level); column conditions become {@code SingleColumnValueFilter}s that drop rows without
 * the column, as SQL drops a comparison with null; AND, OR and IN become filter lists.
 */
final class ScanConditions implements Serializable {
  private static final long serialVersionUID = 1L;

  private final SparkColumns columns;
  private final List<Filter> pushed;
  private final List<String> required;

  ScanConditions(SparkColumns columns, List<Filter> pushed, List<String> required) {
    this.columns = columns;
    this.pushed = List.copyOf(pushed);
    this.required = List.copyOf(required);
  }

  List<Filter> pushed() {
    return pushed;
  }

  List<String> required() {
    return required;
  }

  ScanConditions with(Filter filter) {
    List<Filter> more = new ArrayList<>(pushed);
    more.add(filter);
    return new ScanConditions(columns, more, required);
  }

  ScanConditions reading(List<String> columnNames) {
    return new ScanConditions(columns, pushed, columnNames);
  }

  /** Whether {@code filter} has a form this class can send (the plan decides whether the servers answer it). */
  boolean translatable(Filter filter) {
    return rowBound(filter).isPresent() || columnFilter(filter).isPresent();
  }

  /**
   * Whether {@code filter} is an {@code IS NOT NULL} the pushed conditions already imply: every
   * pushed comparison drops rows without its column (as SQL drops a comparison with null), and the
   * row key is never null. Spark adds one for each column a top-level comparison reads.
   */
  boolean implies(Filter filter) {
    if (!(filter instanceof IsNotNull n)) {
      return false;
    }
    return SparkColumns.ROW_KEY.equals(n.attribute()) || pushed.stream().anyMatch(f -> needsPresent(f, n.attribute()));
  }

  /** Whether {@code f}, as sent, passes only rows that have {@code column}. */
  private static boolean needsPresent(Filter f, String column) {
    if (f instanceof And a) {
      return needsPresent(a.left(), column) || needsPresent(a.right(), column);
    }
    if (f instanceof Or o) {
      return needsPresent(o.left(), column) && needsPresent(o.right(), column);
    }
    return !(f instanceof IsNotNull) && f.references().length == 1 && f.references()[0].equals(column);
  }

  /**
   * The scan: the required columns plus those the filters read (a server-side filter sees only the
   * columns scanned), every column's row when none is required.
   */
  Scan scan() {
    Scan scan = new Scan();
    List<org.apache.hadoop.hbase.filter.Filter> filters = new ArrayList<>();
    boolean lower = false;
    boolean upper = false;
    for (Filter f : pushed) {
      if (f instanceof IsNotNull) {
        continue; // implied by the others (see implies)
      }
      Optional<RowBound> bound = rowBound(f);
      if (bound.isPresent()) {
        RowBound b = bound.get();
        if (b.lower() != null && !lower) {
          scan.withStartRow(b.lower(), b.lowerInclusive());
          lower = true;
        }
        if (b.upper() != null && !upper) {
          scan.withStopRow(b.upper(), b.upperInclusive());
          upper = true;
        }
      } else {
        filters.add(columnFilter(f).orElseThrow());
      }
    }
    if (!filters.isEmpty()) {
      scan.setFilter(filters.size() == 1 ? filters.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ALL, filters));
    }
    List<String> read = new ArrayList<>(required);
    for (Filter f : pushed) {
      read.addAll(List.of(f.references()));
    }
    if (!required.isEmpty() && read.stream().anyMatch(n -> !n.equals(SparkColumns.ROW_KEY))) {
      for (String name : read) {
        columns.named(name).filter(c -> !c.isRowKey()).ifPresent(c -> scan.addColumn(c.familyBytes(), c.qualifierBytes()));
      }
    }
    return scan;
  }

  /** A condition on the row key as a bound of the row range. */
  record RowBound(byte[] lower, boolean lowerInclusive, byte[] upper, boolean upperInclusive) {}

  Optional<RowBound> rowBound(Filter f) {
    String attribute = f.references().length == 1 ? f.references()[0] : null;
    if (!SparkColumns.ROW_KEY.equals(attribute) || f instanceof And || f instanceof Or || f instanceof In) {
      return Optional.empty();
    }
    SparkColumns.Column key = columns.named(SparkColumns.ROW_KEY).orElseThrow();
    if (f instanceof EqualTo e && e.value() != null) {
      byte[] v = key.toBytes(e.value());
      return Optional.of(new RowBound(v, true, v, true));
    }
    if (f instanceof GreaterThan g && g.value() != null) {
      return Optional.of(new RowBound(key.toBytes(g.value()), false, null, false));
    }
    if (f instanceof GreaterThanOrEqual g && g.value() != null) {
      return Optional.of(new RowBound(key.toBytes(g.value()), true, null, false));
    }
    if (f instanceof LessThan l && l.value() != null) {
      return Optional.of(new RowBound(null, false, key.toBytes(l.value()), false));
    }
    if (f instanceof LessThanOrEqual l && l.value() != null) {
      return Optional.of(new RowBound(null, false, key.toBytes(l.value()), true));
    }
    return Optional.empty();
  }

  /** A condition on columns (not the row key) as an HBase filter. */
  Optional<org.apache.hadoop.hbase.filter.Filter> columnFilter(Filter f) {
    if (f instanceof And a) {
      return both(FilterList.Operator.MUST_PASS_ALL, a.left(), a.right());
    }
    if (f instanceof Or o) {
      return both(FilterList.Operator.MUST_PASS_ONE, o.left(), o.right());
    }
    if (f instanceof In in) {
      List<org.apache.hadoop.hbase.filter.Filter> equal = new ArrayList<>();
      for (Object v : in.values()) {
        Optional<org.apache.hadoop.hbase.filter.Filter> e = v == null ? Optional.empty() : columnFilter(new EqualTo(in.attribute(), v));
        if (e.isEmpty()) {
          return Optional.empty();
        }
        equal.add(e.get());
      }
      return equal.isEmpty() ? Optional.empty() : Optional.of(new FilterList(FilterList.Operator.MUST_PASS_ONE, equal));
    }
    if (f instanceof EqualTo e) {
      return compare(e.attribute(), CompareOperator.EQUAL, e.value());
    }
    if (f instanceof GreaterThan g) {
      return compare(g.attribute(), CompareOperator.GREATER, g.value());
    }
    if (f instanceof GreaterThanOrEqual g) {
      return compare(g.attribute(), CompareOperator.GREATER_OR_EQUAL, g.value());
    }
    if (f instanceof LessThan l) {
      return compare(l.attribute(), CompareOperator.LESS, l.value());
    }
    if (f instanceof LessThanOrEqual l) {
      return compare(l.attribute(), CompareOperator.LESS_OR_EQUAL, l.value());
    }
    return Optional.empty();
  }

  private Optional<org.apache.hadoop.hbase.filter.Filter> both(FilterList.Operator op, Filter left, Filter right) {
    Optional<org.apache.hadoop.hbase.filter.Filter> l = columnFilter(left);
    Optional<org.apache.hadoop.hbase.filter.Filter> r = columnFilter(right);
    return l.isPresent() && r.isPresent() ? Optional.of(new FilterList(op, l.get(), r.get())) : Optional.empty();
  }

  private Optional<org.apache.hadoop.hbase.filter.Filter> compare(String attribute, CompareOperator op, Object value) {
    Optional<SparkColumns.Column> column = columns.named(attribute).filter(c -> !c.isRowKey());
    if (column.isEmpty() || value == null) {
      return Optional.empty();
    }
    SparkColumns.Column c = column.get();
    SingleColumnValueFilter f = new SingleColumnValueFilter(c.familyBytes(), c.qualifierBytes(), op,
        new BinaryComparator(c.toBytes(value)));
    f.setFilterIfMissing(true);
    f.setLatestVersionOnly(true);
    return Optional.of(f);
  }
}
