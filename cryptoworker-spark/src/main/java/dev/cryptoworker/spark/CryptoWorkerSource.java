package dev.cryptoworker.spark;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code cryptoworker} data source: {@code spark.read.format("cryptoworker")} and {@code
 * df.write.format("cryptoworker")} over a protected table (options: {@link SourceOptions}). The
 * schema comes from the table's YAML schema ({@link SparkColumns}); a schema given by the caller is
 * refused, since the YAML one decides how each column is stored.
 */
public final class CryptoWorkerSource implements TableProvider, DataSourceRegister {

  @Override
  public String shortName() {
    return "cryptoworker";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return SparkColumns.of(options(options.asCaseSensitiveMap()).schema()).sparkSchema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    SourceOptions options = options(properties);
    return new ProtectedTable(options, SparkColumns.of(options.schema()));
  }

  private static SourceOptions options(Map<String, String> given) {
    Map<String, String> conf = SparkSession.getActiveSession().isDefined()
        ? CollectionConverters.asJava(SparkSession.getActiveSession().get().conf().getAll()) : Map.of();
    return SourceOptions.of(given, conf);
  }
}
