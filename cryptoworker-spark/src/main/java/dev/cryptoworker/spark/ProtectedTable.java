package dev.cryptoworker.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A protected table as Spark sees it: batch reads and appends. */
final class ProtectedTable implements SupportsRead, SupportsWrite {
  private final SourceOptions options;
  private final SparkColumns columns;

  ProtectedTable(SourceOptions options, SparkColumns columns) {
    this.options = options;
    this.columns = columns;
  }

  @Override
  public String name() {
    return "cryptoworker." + options.schema().tableName();
  }

  // Deprecated since Spark 3.4 in favour of columns(), whose default derives the columns from this;
  // Spark 4.0 still asks every Table for it.
  @SuppressWarnings("deprecation")
  @Override
  public StructType schema() {
    return columns.sparkSchema();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
    return new ProtectedScanBuilder(options, columns);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    ProtectedWrite write = new ProtectedWrite(options, columns, info.schema()); // refuses unknown columns now
    return new WriteBuilder() {
      @Override
      public org.apache.spark.sql.connector.write.Write build() {
        return write;
      }
    };
  }
}
