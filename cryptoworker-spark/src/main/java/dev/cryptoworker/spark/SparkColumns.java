package dev.cryptoworker.spark;

import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A table's Spark columns, from its YAML schema: {@code rowkey}, then every column a family lists
 * (family defaults cover qualifiers no schema names, so they have no column), named by qualifier
 * ({@code family_qualifier} where two families list the same one). Types: {@code string} and
 * {@code date} (ISO-8601 text as stored) are strings, {@code long} long, {@code int} int, {@code
 * bytes} binary.
 */
final class SparkColumns implements Serializable {
  private static final long serialVersionUID = 1L;
  static final String ROW_KEY = "rowkey";

  /** One Spark column and the HBase column behind it (family and qualifier null for the row key). */
  record Column(String name, String family, String qualifier, ValueType type) implements Serializable {
    boolean isRowKey() {
      return family == null;
    }

    byte[] familyBytes() {
      return Bytes.toBytes(family);
    }

    byte[] qualifierBytes() {
      return Bytes.toBytes(qualifier);
    }

    DataType sparkType() {
      return switch (type) {
        case STRING, DATE -> DataTypes.StringType;
        case LONG -> DataTypes.LongType;
        case INT -> DataTypes.IntegerType;
        case BYTES -> DataTypes.BinaryType;
      };
    }

    /** A stored value as Spark holds it inside a row. */
    Object toSpark(byte[] value) {
      return switch (type) {
        case STRING, DATE -> UTF8String.fromBytes(value);
        case LONG -> Bytes.toLong(value);
        case INT -> Bytes.toInt(value);
        case BYTES -> value;
      };
    }

    /** A value of a Spark filter or row (Java or Spark form) as stored bytes. */
    byte[] toBytes(Object value) {
      return switch (type) {
        case STRING, DATE -> value instanceof UTF8String u ? u.getBytes()
            : value.toString().getBytes(StandardCharsets.UTF_8);
        case LONG -> Bytes.toBytes(((Number) value).longValue());
        case INT -> Bytes.toBytes(((Number) value).intValue());
        case BYTES -> (byte[]) value;
      };
    }

    /**
     * Whether byte order of stored plaintext is the order Spark compares values in (text and bytes:
     * unsigned byte order; not big-endian signed numbers, nor dates in their several ISO forms).
     */
    boolean bytesOrderAsValues() {
      return type == ValueType.STRING || type == ValueType.BYTES;
    }
  }

  private final List<Column> columns;
  private final Map<String, Column> byName;

  private SparkColumns(List<Column> columns) {
    this.columns = List.copyOf(columns);
    this.byName = new HashMap<>();
    columns.forEach(c -> byName.put(c.name(), c));
  }

  static SparkColumns of(TableSchema schema) {
    Map<String, Integer> seen = new HashMap<>();
    schema.families().values().forEach(f -> f.columns().keySet().forEach(q -> seen.merge(q, 1, Integer::sum)));
    List<Column> columns = new ArrayList<>();
    columns.add(new Column(ROW_KEY, null, null, schema.rowKeyPolicy().type()));
    for (FamilySchema family : schema.families().values()) {
      for (Map.Entry<String, ColumnPolicy> c : new LinkedHashMap<>(family.columns()).entrySet()) {
        String name = seen.get(c.getKey()) > 1 || c.getKey().equals(ROW_KEY) ? family.name() + "_" + c.getKey()
            : c.getKey();
        columns.add(new Column(name, family.name(), c.getKey(), c.getValue().type()));
      }
    }
    return new SparkColumns(columns);
  }

  List<Column> all() {
    return columns;
  }

  Optional<Column> named(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  StructType sparkSchema() {
    return new StructType(columns.stream()
        .map(c -> new StructField(c.name(), c.sparkType(), !c.isRowKey(), org.apache.spark.sql.types.Metadata.empty()))
        .toArray(StructField[]::new));
  }
}
