package dev.cryptoworker.spark;

import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
import dev.cryptoworker.schema.ValueType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Decides, on the driver, what the region servers answer: a Spark filter is pushed when the
 * client's {@link QueryPlan} for the scan with it runs wholly on the servers (neither refused nor
 * evaluated on the client), and, for a range, when the servers compare in the values' own order
 * (order-preserving ciphertext, or text and bytes stored as they are). Everything else stays with
 * Spark, which evaluates it after decryption. An aggregate is pushed when {@link
 * SecureTable#plan(org.apache.hadoop.hbase.client.Scan, AggregateQuery)} accepts it.
 */
final class ProtectedScanBuilder
    implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns, SupportsPushDownAggregates {
  private final SourceOptions options;
  private final SparkColumns columns;
  private ScanConditions conditions;
  private StructType readSchema;
  private RegionAggregate aggregate;

  ProtectedScanBuilder(SourceOptions options, SparkColumns columns) {
    this.options = options;
    this.columns = columns;
    this.conditions = new ScanConditions(columns, List.of(), List.of());
    this.readSchema = columns.sparkSchema();
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    List<Filter> rest = new ArrayList<>();
    try (SecureTable table = TableConnections.table(options)) {
      TableCodec codec = codec();
      for (Filter f : filters) {
        if (conditions.translatable(f) && inValueOrder(f, codec) && answeredOnServers(table, conditions.with(f))) {
          conditions = conditions.with(f);
        } else {
          rest.add(f);
        }
      }
      // Spark asks IS NOT NULL of the columns it compares: implied by what was pushed (known only now).
      for (java.util.Iterator<Filter> it = rest.iterator(); it.hasNext(); ) {
        Filter f = it.next();
        if (conditions.implies(f)) {
          conditions = conditions.with(f);
          it.remove();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rest.toArray(Filter[]::new);
  }

  @Override
  public Filter[] pushedFilters() {
    return conditions.pushed().toArray(Filter[]::new);
  }

  @Override
  public void pruneColumns(StructType required) {
    readSchema = required;
    conditions = conditions.reading(Arrays.stream(required.fields()).map(StructField::name).toList());
  }

  @Override
  public boolean supportCompletePushDown(Aggregation aggregation) {
    return false; // each region returns a partial; Spark adds them up (and divides for AVG)
  }

  @Override
  public boolean pushAggregation(Aggregation aggregation) {
    Optional<RegionAggregate> candidate = RegionAggregate.of(aggregation, columns);
    if (candidate.isEmpty()) {
      return false;
    }
    try (SecureTable table = TableConnections.table(options)) {
      table.plan(conditions.scan(), candidate.get().query());
    } catch (UnsupportedSecureOperationException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    aggregate = candidate.get();
    return true;
  }

  @Override
  public Scan build() {
    return new RegionScan(new ReadSpec(options, columns, conditions, aggregate,
        aggregate != null ? aggregate.schema() : readSchema));
  }

  private TableCodec codec() throws IOException {
    SecureConnection connection = TableConnections.connection(options);
    return connection.layoutContext(TableConnections.name(options)).codec();
  }

  /** Whether the servers would answer every condition of {@code candidate} themselves. */
  private static boolean answeredOnServers(SecureTable table, ScanConditions candidate) throws IOException {
    try {
      return !table.plan(candidate.scan()).evaluatesOnClient();
    } catch (UnsupportedSecureOperationException e) {
      return false;
    }
  }

  /**
   * Whether each range in {@code f} compares as Spark does: dates never (stored ISO forms vary;
   * Spark compares their text), numbers only on order-preserving ciphertext.
   */
  private boolean inValueOrder(Filter f, TableCodec codec) {
    if (f instanceof And a) {
      return inValueOrder(a.left(), codec) && inValueOrder(a.right(), codec);
    }
    if (f instanceof Or o) {
      return inValueOrder(o.left(), codec) && inValueOrder(o.right(), codec);
    }
    if (f instanceof Not) {
      return false;
    }
    for (String name : f.references()) {
      SparkColumns.Column c = columns.named(name).orElse(null);
      if (c == null || c.type() == ValueType.DATE) {
        return false;
      }
      boolean range = f instanceof GreaterThan || f instanceof GreaterThanOrEqual || f instanceof LessThan
          || f instanceof LessThanOrEqual;
      if (range && !ordered(c, codec)) {
        return false;
      }
    }
    return true;
  }

  private static boolean ordered(SparkColumns.Column c, TableCodec codec) {
    try {
      boolean ope = c.isRowKey() ? codec.rowBox().capability(OrderOnCiphertext.class).isPresent()
          : codec.capability(c.familyBytes(), c.qualifierBytes(), OrderOnCiphertext.class).isPresent();
      return ope || (c.bytesOrderAsValues() && (!c.isRowKey() || codec.rowKeysInPlaintext()));
    } catch (UnsupportedSecureOperationException e) {
      return false;
    }
  }
}
