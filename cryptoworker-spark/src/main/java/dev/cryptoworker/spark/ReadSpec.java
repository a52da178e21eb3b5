package dev.cryptoworker.spark;

import java.io.Serializable;
import org.apache.spark.sql.types.StructType;

/**
 * What one read asks, as the driver planned it and executors carry it out: the source, the
 * table's columns, the pushed conditions, the pushed aggregate (null for rows) and the schema of
 * what each partition returns.
 */
record ReadSpec(SourceOptions options, SparkColumns columns, ScanConditions conditions, RegionAggregate aggregate,
    StructType readSchema) implements Serializable {}
