package dev.cryptoworker.client.migrate;

import dev.cryptoworker.client.codec.TableCodec;
import java.util.Set;
import org.apache.hadoop.hbase.filter.ColumnValueFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SkipFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;

/** Which filters compare values of columns an online migration is changing. */
public final class MigratingColumns {
  /** Filters that never look at values, so a migration does not concern them. */
  private static final Set<String> VALUE_BLIND = Set.of("PrefixFilter", "RowFilter", "PageFilter", "KeyOnlyFilter",
      "FirstKeyOnlyFilter", "ColumnPrefixFilter", "MultipleColumnPrefixFilter", "QualifierFilter", "FamilyFilter",
      "MultiRowRangeFilter", "ColumnCountGetFilter", "ColumnPaginationFilter", "ColumnRangeFilter",
      "TimestampsFilter", "RandomRowFilter", "InclusiveStopFilter", "FuzzyRowFilter");

  private MigratingColumns() {}

  /**
   * Whether {@code filter} compares a value of a column {@code codec} is migrating; filters that
   * compare values without naming a column count as touching one.
   */
  public static boolean touchedBy(Filter filter, TableCodec codec) {
    if (filter == null || !codec.isMigrating()) {
      return false;
    }
    if (filter instanceof FilterList) {
      return ((FilterList) filter).getFilters().stream().anyMatch(f -> touchedBy(f, codec));
    }
    if (filter instanceof SkipFilter) {
      return touchedBy(((SkipFilter) filter).getFilter(), codec);
    }
    if (filter instanceof WhileMatchFilter) {
      return touchedBy(((WhileMatchFilter) filter).getFilter(), codec);
    }
    if (filter instanceof SingleColumnValueFilter) {
      SingleColumnValueFilter f = (SingleColumnValueFilter) filter;
      return codec.isMigrating(f.getFamily(), f.getQualifier());
    }
    if (filter instanceof ColumnValueFilter) {
      ColumnValueFilter f = (ColumnValueFilter) filter;
      return codec.isMigrating(f.getFamily(), f.getQualifier());
    }
    return !VALUE_BLIND.contains(filter.getClass().getSimpleName());
  }
}
