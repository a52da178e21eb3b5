package dev.cryptoworker.client;

import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The entry point: wraps an HBase {@link Connection} with keys and table schemas, and hands out
 * tables that encrypt per their schema.
 *
 * <pre>
 * SecureConnection secure = SecureConnection.wrap(connection, keys, List.of(schema));
 * try (Table patients = secure.getTable(TableName.valueOf("patients"))) {
 *   patients.put(new Put(id).addColumn(f, q, value));   // stored encrypted
 * }
 * </pre>
 *
 * <p>Thread-safe and meant to be shared, like the {@code Connection} it wraps. It does not own that
 * connection: close the connection yourself when done. Every box's keys are derived when wrapping,
 * so a bad schema or key fails here, not on first use.
 */
public final class SecureConnection {
  /** The region-side Process step, registered on tables with ASHE columns. */
  static final String AGGREGATION_COPROCESSOR = "dev.cryptoworker.coprocessor.AsheAggregationObserver";
  private static final int IDENTIFIER_BLOCK = 1024;

  private final Connection connection;
  private final Map<TableName, TableCodec> codecs;
  private final SecureTableOptions options;
  private final java.util.concurrent.ExecutorService pool;

  private SecureConnection(Connection connection, Map<TableName, TableCodec> codecs, SecureTableOptions options,
      java.util.concurrent.ExecutorService pool) {
    this.connection = connection;
    this.codecs = codecs;
    this.options = options;
    this.pool = pool;
  }

  /** Daemon threads for per-region aggregation calls; idle threads die after a minute. */
  private static java.util.concurrent.ExecutorService newPool() {
    java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(
        16, 16, 60, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "cryptoworker-aggregate");
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * Wraps {@code connection} with default options (client-side evaluation off).
   *
   * @throws IllegalArgumentException if two schemas name the same table
   * @throws UnsupportedOperationException if a schema uses a box this version does not implement
   */
  public static SecureConnection wrap(Connection connection, KeyProvider keys, Collection<TableSchema> schemas) {
    return wrap(connection, keys, schemas, SecureTableOptions.defaults());
  }

  /** Wraps {@code connection} with {@code options}. */
  public static SecureConnection wrap(
      Connection connection, KeyProvider keys, Collection<TableSchema> schemas, SecureTableOptions options) {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(options, "options");
    Map<TableName, TableCodec> codecs = new LinkedHashMap<>();
    for (TableSchema schema : schemas) {
      TableName name = TableName.valueOf(schema.tableName());
      if (codecs.containsKey(name)) {
        throw new IllegalArgumentException(
            "two schemas for table " + name + ": " + codecs.get(name).schema().source() + " and "
                + schema.source());
      }
      codecs.put(name, new TableCodec(schema, keys,
          counter -> new HBaseIdentifierSource(connection, counter, IDENTIFIER_BLOCK), options.orderPreservingMemoEntries()));
    }
    return new SecureConnection(connection, Collections.unmodifiableMap(codecs), options, newPool());
  }

  /**
   * A table for {@code name}: a {@link SecureTable} if a schema names it, otherwise the plain
   * HBase table.
   */
  public Table getTable(TableName name) throws IOException {
    TableCodec codec = codecs.get(name);
    return codec == null ? connection.getTable(name) : new SecureTable(connection.getTable(name), codec, options, pool);
  }

  /**
   * The {@link SecureTable} for {@code name}.
   *
   * @throws IllegalArgumentException if no schema names the table
   */
  public SecureTable getSecureTable(TableName name) throws IOException {
    TableCodec codec = codecs.get(name);
    if (codec == null) {
      throw new IllegalArgumentException("no schema for table " + name + "; known: " + codecs.keySet());
    }
    return new SecureTable(connection.getTable(name), codec, options, pool);
  }

  /** The schema of {@code name}, if any. */
  public Optional<TableSchema> schema(TableName name) {
    return Optional.ofNullable(codecs.get(name)).map(TableCodec::schema);
  }

  /** The wrapped connection (which sees only ciphertext of protected tables). */
  public Connection unwrap() {
    return connection;
  }

  /**
   * A table descriptor with the schema's families, for callers who want to set more (versions,
   * compression, TTL) before creating the table with {@link #createTable(TableDescriptorBuilder,
   * byte[][])}.
   */
  public static TableDescriptorBuilder descriptorFor(TableSchema schema) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf(schema.tableName()));
    boolean ashe = false;
    for (FamilySchema f : schema.families().values()) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f.name()));
      ashe |= f.defaultPolicy().box() == dev.cryptoworker.cryptobox.BoxKind.ASHE
          || f.columns().values().stream().anyMatch(p -> p.box() == dev.cryptoworker.cryptobox.BoxKind.ASHE
              || p.box() == dev.cryptoworker.cryptobox.BoxKind.SPLASHE);
    }
    if (ashe) {
      try {
        b.setCoprocessor(AGGREGATION_COPROCESSOR);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return b;
  }

  /** Creates the HBase table for {@code schema}, with its families. */
  public void createTable(TableSchema schema) throws IOException {
    createTable(descriptorFor(schema), null);
  }

  /**
   * Creates the table pre-split at {@code splitKeys}. Split keys are in the stored key space: for
   * DET or STD row keys, plaintext split points mean nothing to HBase, so pick stored-byte
   * boundaries (for example evenly spaced leading bytes).
   */
  public void createTable(TableSchema schema, byte[][] splitKeys) throws IOException {
    createTable(descriptorFor(schema), splitKeys);
  }

  /**
   * Creates a table from a descriptor built with {@link #descriptorFor(TableSchema)}.
   *
   * @throws IllegalArgumentException if the table has no schema or the descriptor's families
   *     differ from the schema's
   */
  public void createTable(TableDescriptorBuilder descriptor, byte[][] splitKeys) throws IOException {
    org.apache.hadoop.hbase.client.TableDescriptor d = descriptor.build();
    TableCodec codec = codecs.get(d.getTableName());
    if (codec == null) {
      throw new IllegalArgumentException("no schema for table " + d.getTableName());
    }
    java.util.Set<String> families = new java.util.TreeSet<>();
    for (org.apache.hadoop.hbase.client.ColumnFamilyDescriptor cf : d.getColumnFamilies()) {
      families.add(cf.getNameAsString());
    }
    if (!families.equals(new java.util.TreeSet<>(codec.schema().families().keySet()))) {
      throw new IllegalArgumentException(
          "table " + d.getTableName() + ": descriptor families " + families + " differ from the schema's "
              + codec.schema().families().keySet());
    }
    try (Admin admin = connection.getAdmin()) {
      if (codec.hasAsheColumns() && !admin.tableExists(HBaseIdentifierSource.TABLE)) {
        try {
          admin.createTable(TableDescriptorBuilder.newBuilder(HBaseIdentifierSource.TABLE)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(HBaseIdentifierSource.FAMILY)).build());
        } catch (org.apache.hadoop.hbase.TableExistsException e) {
          // created concurrently by another client: fine
        }
      }
      if (splitKeys == null || splitKeys.length == 0) {
        admin.createTable(d);
      } else {
        admin.createTable(d, splitKeys);
      }
    }
  }
}
