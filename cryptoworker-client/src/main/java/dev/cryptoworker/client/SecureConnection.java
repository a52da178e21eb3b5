package dev.cryptoworker.client;

import dev.cryptoworker.client.codec.BoxRegistry;
import dev.cryptoworker.client.codec.ColumnBoxContext;
import dev.cryptoworker.client.codec.CounterRows;
import dev.cryptoworker.client.codec.HBaseCounters;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.client.codec.KeyCheck;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.client.codec.SearchIndexes;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.inspect.TableInspector;
import dev.cryptoworker.client.migrate.ColumnMigration;
import dev.cryptoworker.client.migrate.TableMigration;
import dev.cryptoworker.client.spi.ConnectionServices;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.client.spi.LayoutContext;
import dev.cryptoworker.client.spi.LayoutProvider;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.UnlistedFamilies;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point: wraps an HBase {@link Connection} with keys and table schemas, and hands out
 * tables that encrypt per their schema.
 *
 * <pre>
 * try (SecureConnection secure = SecureConnection.builder()
 *     .connection(connection).keys(keys).schema(schema).build()) {
 *   try (Table patients = secure.getTable(TableName.valueOf("patients"))) {
 *     patients.put(new Put(id).addColumn(f, q, value));   // stored encrypted
 *   }
 * }
 * </pre>
 *
 * <p>Thread-safe and meant to be shared, like the {@code Connection} it wraps. It owns its thread
 * pool (per-region calls of aggregations), which {@link #close()} shuts down; it does not own the
 * connection: close that yourself when done. Every box's keys are derived when building, so a bad
 * schema or key fails here, not on first use.
 */
public final class SecureConnection implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SecureConnection.class);
  private static final java.util.concurrent.atomic.AtomicBoolean FORMAT_ONE_WARNED =
      new java.util.concurrent.atomic.AtomicBoolean();
  /** The name of the cluster a single {@link Builder#connection} registers. */
  public static final String DEFAULT_CLUSTER = "default";
  /** Table descriptor attribute: the stored format of the table's keyed ciphertexts (absent: 1). */
  static final String STORED_FORMAT_ATTRIBUTE = KeyCheck.FORMAT_ATTRIBUTE;
  private static final int IDENTIFIER_BLOCK = 1024;
  private static final int POOL_THREADS = 16;

  private final Map<String, Connection> clusters;
  /** Each table's codec in the format its schema asks for (or the latest): what new tables get. */
  private final Map<TableName, TableCodec> codecs;
  /** Builds a table's codec in a given stored format, for tables stored in another. */
  private final Map<TableName, Function<StoredFormat, TableCodec>> codecsInFormat;
  /** The codec of each table that exists, in its recorded stored format, with its keys verified. */
  private final Map<TableName, TableCodec> opened = new ConcurrentHashMap<>();
  /** Tables whose region-side support was found in place, so opening them again asks the cluster nothing. */
  private final Set<TableName> regionSupportChecked = ConcurrentHashMap.newKeySet();
  private final SecureTableOptions options;
  private final ExecutorService pool;
  private final ConnectionServices services = new ConnectionServices();
  private volatile boolean closed;

  private SecureConnection(Map<String, Connection> clusters, Map<TableName, TableCodec> codecs,
      Map<TableName, Function<StoredFormat, TableCodec>> codecsInFormat, SecureTableOptions options) {
    this.clusters = clusters;
    this.codecs = codecs;
    this.codecsInFormat = codecsInFormat;
    this.options = options;
    this.pool = newPool();
  }

  /** Daemon threads for per-region calls; idle threads die after a minute. */
  private static ExecutorService newPool() {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(POOL_THREADS, POOL_THREADS, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "cryptoworker-region");
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** A builder: {@code connection}, {@code keys} and the schemas are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Wraps {@code connection} with default options (client-side evaluation off).
   *
   * @throws IllegalArgumentException if two schemas name the same table
   * @throws UnsupportedOperationException if a schema uses a box this version does not implement
   */
  public static SecureConnection wrap(Connection connection, KeyProvider keys, Collection<TableSchema> schemas) {
    return builder().connection(connection).keys(keys).schemas(schemas).build();
  }

  /**
   * Wraps named connections to independent clusters: SHARED tables spread over those their schema
   * names, other tables live on the cluster their {@code layout: { type: CELL, cluster: NAME }}
   * names, by default {@value #DEFAULT_CLUSTER}, which must be among them (it also holds the counter
   * table of ASHE and SSE columns).
   */
  public static SecureConnection wrap(Map<String, Connection> clusters, KeyProvider keys,
      Collection<TableSchema> schemas) {
    Builder b = builder().keys(keys).schemas(schemas);
    clusters.forEach(b::cluster);
    return b.build();
  }

  /** Wraps {@code connection} with {@code options}. */
  public static SecureConnection wrap(
      Connection connection, KeyProvider keys, Collection<TableSchema> schemas, SecureTableOptions options) {
    return builder().connection(connection).keys(keys).schemas(schemas).options(options).build();
  }

  /**
   * The {@link SecureTable} for {@code name}; for a table no schema names, the plain HBase table
   * only if the options allow {@linkplain SecureTableOptions#unprotectedTables() unprotected tables}.
   *
   * @throws IllegalArgumentException if no schema names the table and unprotected tables are not
   *     allowed
   */
  public Table getTable(TableName name) throws IOException {
    requireOpen();
    TableCodec codec = codecs.get(name);
    if (codec != null) {
      return open(name, codec);
    }
    if (!options.unprotectedTables()) {
      throw new IllegalArgumentException("no schema for table " + name + " (schemas: " + codecs.keySet()
          + "); refused rather than reading and writing it unprotected. For deliberate plaintext"
          + " tables build the connection with SecureTableOptions.builder().unprotectedTables(true)");
    }
    return defaultCluster().getTable(name);
  }

  /**
   * A {@link BufferedMutator} for {@code name}, with HBase's default parameters (see {@link
   * #getBufferedMutator(BufferedMutatorParams)}).
   */
  public BufferedMutator getBufferedMutator(TableName name) throws IOException {
    return getBufferedMutator(new BufferedMutatorParams(name));
  }

  /**
   * A {@link BufferedMutator} as {@code params} describe: for a protected table a {@link
   * SecureBufferedMutator} (write buffer, periodic flush, exception listener with per-mutation
   * failures, as HBase's); for a table no schema names, HBase's own, only if the options allow
   * {@linkplain SecureTableOptions#unprotectedTables() unprotected tables}.
   *
   * @throws IllegalArgumentException if no schema names the table and unprotected tables are not
   *     allowed
   */
  public BufferedMutator getBufferedMutator(BufferedMutatorParams params) throws IOException {
    requireOpen();
    TableName name = params.getTableName();
    TableCodec codec = codecs.get(name);
    if (codec != null) {
      return new SecureBufferedMutator(open(name, codec), params, defaultCluster().getConfiguration());
    }
    if (!options.unprotectedTables()) {
      throw new IllegalArgumentException("no schema for table " + name + " (schemas: " + codecs.keySet()
          + "); refused rather than writing it unprotected. For deliberate plaintext tables build the"
          + " connection with SecureTableOptions.builder().unprotectedTables(true)");
    }
    return defaultCluster().getBufferedMutator(params);
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
    return open(name, codec);
  }

  /**
   * An inspector of {@code name}'s stored cells (for operators' tools: inspection and audits).
   *
   * @throws IllegalArgumentException if no schema names the table
   */
  public TableInspector inspector(TableName name) {
    requireOpen();
    TableCodec codec = codecs.get(name);
    if (codec == null) {
      throw new IllegalArgumentException("no schema for table " + name + "; known: " + codecs.keySet());
    }
    LayoutProvider provider = StorageLayouts.of(codec.schema().layout());
    try {
      LayoutCapability.INSPECTION.require(provider, codec.schema().layout(), name.getNameAsString(), "inspecting");
    } catch (UnsupportedSecureOperationException e) {
      throw new UnsupportedOperationException(e.getMessage(), e);
    }
    return new TableInspector(keyIds -> provider.storedUnits(layoutContext(name), keyIds));
  }

  /**
   * What a layout module opens table {@code name} with (its codec, clusters, options, services):
   * for the typed views layout modules offer ({@code PackedTables.of(secure)}, {@code
   * SharedTables.of(secure)}) and the operator's tools. Reads the table's descriptor once.
   *
   * @throws IllegalArgumentException if no schema names the table
   */
  public LayoutContext layoutContext(TableName name) throws IOException {
    requireOpen();
    TableCodec codec = codecs.get(name);
    if (codec == null) {
      throw new IllegalArgumentException("no schema for table " + name + "; known: " + codecs.keySet());
    }
    return context(name, resolve(name, codec));
  }

  private LayoutContext context(TableName name, TableCodec resolved) {
    return new LayoutContext(name, resolved, clusters, DEFAULT_CLUSTER, options, pool, services);
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("this SecureConnection is closed");
    }
  }

  private SecureTable open(TableName name, TableCodec codec) throws IOException {
    requireOpen();
    TableCodec resolved = resolve(name, codec);
    if (!regionSupportChecked.contains(name) && requireRegionSupport(name, codec.schema())) {
      regionSupportChecked.add(name);
    }
    LayoutProvider provider = StorageLayouts.of(codec.schema().layout());
    return new SecureTable(provider.open(context(name, resolved)), resolved.table(), codec.schema().layout(),
        provider.capabilities(codec.schema().layout()));
  }

  /**
   * The codec of {@code name} as the table is stored, once per table (a descriptor read): in the
   * stored format it was created with (tables of earlier versions record none: format 1), its keys
   * compared with the table's key check (tables of earlier versions have none: logged once, not
   * refused). Before the table exists, the schema's codec, checked again on the next call.
   *
   * @throws IllegalStateException if the schema asks for a stored format other than the table's
   */
  /**
   * Under {@code unlistedFamilies: PLAIN}, refuses a table lacking a family its schema lists: a
   * misspelt family in the schema would otherwise leave the columns it protects to be written, in
   * the family the table has, unprotected.
   */
  private static void requireListedFamilies(TableName name, TableSchema schema, TableDescriptor descriptor) {
    if (schema.unlistedFamilies() != UnlistedFamilies.PLAIN) {
      return;
    }
    for (String family : StorageLayouts.of(schema.layout()).storedFamilies(schema)) {
      if (!descriptor.hasColumnFamily(Bytes.toBytes(family))) {
        throw new IllegalStateException("table " + name + " has no family " + family + ", which its schema ("
            + schema.source() + ") lists; with unlistedFamilies: PLAIN the table's own families would be stored"
            + " unprotected: correct the family's name in the schema");
      }
    }
  }

  private TableCodec resolve(TableName name, TableCodec declared) throws IOException {
    TableCodec known = opened.get(name);
    if (known != null) {
      return known;
    }
    TableDescriptor descriptor = null;
    IOException unreachable = null;
    // A SHARED table's clusters hold the same descriptor: the first that answers will do.
    for (String cluster : declared.schema().layout().clusters()) {
      try (Table table = clusters.get(cluster).getTable(name)) {
        descriptor = table.getDescriptor();
        break;
      } catch (TableNotFoundException e) {
        return declared; // nothing to read yet; checked when the table exists
      } catch (IOException e) {
        unreachable = e;
      }
    }
    if (descriptor == null) {
      throw new IOException("table " + name + ": no cluster of " + declared.schema().layout().clusters()
          + " answered for the table's descriptor", unreachable);
    }
    requireListedFamilies(name, declared.schema(), descriptor);
    String recorded = descriptor.getValue(STORED_FORMAT_ATTRIBUTE);
    StoredFormat format = recorded == null ? StoredFormat.V1 : parseFormat(name, recorded);
    TableCodec codec = declared;
    if (format != declared.storedFormat()) {
      if (declared.schema().storedFormat().isPresent()) {
        throw new IllegalStateException("table " + name + " is stored in format " + format.number()
            + ", but its schema (" + declared.schema().source() + ") says storedFormat: "
            + declared.storedFormat().number() + "; a table keeps the format it was created with: remove the"
            + " line or write storedFormat: " + format.number());
      }
      codec = codecsInFormat.get(name).apply(format);
    }
    String check = descriptor.getValue(KeyCheck.ATTRIBUTE);
    if (check == null && recorded != null) {
      // Every version that records the format writes the key check with it.
      throw new KeyMismatchException(name.getNameAsString(), "the descriptor records a stored format ("
          + STORED_FORMAT_ATTRIBUTE + ") but no key check (" + KeyCheck.ATTRIBUTE + "): it was altered; refused"
          + " because a wrong key could not be detected; restore the attribute from a copy of the descriptor");
    }
    if ((check == null || KeyCheck.isTableOnly(check)) && !options.legacyKeyChecks().contains(name.getNameAsString())) {
      throw new KeyMismatchException(name.getNameAsString(), (check == null
          ? "the descriptor has no key check (" + KeyCheck.ATTRIBUTE + ")"
          : "the descriptor's key check (" + KeyCheck.ATTRIBUTE + ") is of version 1, which does not bind the stored"
              + " format") + ": refused, since a server that removes or replays descriptor attributes could make a"
          + " newer table open in stored format 1. A table created before key checks bound the format, or adopted"
          + " from plain HBase, opens when named in SecureTableOptions.legacyKeyChecks; cryptoworker migrate"
          + " --prepare-only then gives it a current check (docs/operations.md#key-checks)");
    }
    if (check == null) {
      LOG.warn("Table {} has no key check (created by an earlier version of CryptoWorker, or adopted from plain"
          + " HBase): a wrong key will not be detected before reads", name);
    } else {
      codec.verifyKeyCheck(check);
    }
    TableCodec raced = opened.putIfAbsent(name, codec);
    return raced == null ? codec : raced;
  }

  /**
   * Refuses a table whose schema needs region-side support it lacks (a schema that moved a column to
   * SSE, say): its writes would fail on the missing counter table, or leave rows unsearchable.
   * Returns whether the table was checked (false before it exists).
   */
  private boolean requireRegionSupport(TableName name, TableSchema schema) throws IOException {
    if (!RegionSupport.needsRegionWork(schema) && !RegionSupport.keepsSearchIndex(schema)) {
      return true;
    }
    boolean counterTable;
    TableDescriptor descriptor;
    try (Admin admin = defaultCluster().getAdmin()) {
      counterTable = admin.tableExists(HBaseIdentifierSource.TABLE);
      if (counterTable && RegionSupport.keepsSearchIndex(schema)) {
        RegionSupport.prepareCounterTable(admin); // counter tables of earlier versions lack the observer
      }
    }
    // The table's own cluster: default, or the one its layout names (every one of them alike).
    Connection stored = clusters.get(schema.layout().clusters().get(0));
    try (Admin admin = stored.getAdmin()) {
      if (!admin.tableExists(name)) {
        return false;
      }
      descriptor = admin.getDescriptor(name);
    }
    List<String> missing = RegionSupport.missing(schema, descriptor, counterTable);
    if (!missing.isEmpty()) {
      throw new IllegalStateException("table " + name + ": its schema (" + schema.source() + ") needs "
          + String.join(", ", missing) + ", which the cluster does not have for it; a table moving to this schema"
          + " is prepared first with cryptoworker migrate --table " + name + " --from OLD.yaml --to NEW.yaml"
          + " --prepare-only (TableMigration.prepare() in Java; its regions reopen once). A table created with this"
          + " schema had them: they were removed, or the table was created by hand without them");
    }
    return true;
  }

  private static StoredFormat parseFormat(TableName name, String recorded) {
    try {
      return StoredFormat.of(Integer.parseInt(recorded));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("table " + name + " records stored format '" + recorded + "' ("
          + STORED_FORMAT_ATTRIBUTE + "), which this version of CryptoWorker does not know", e);
    }
  }

  private Connection defaultCluster() {
    return clusters.get(DEFAULT_CLUSTER);
  }

  /** The schema of {@code name}, if any. */
  public Optional<TableSchema> schema(TableName name) {
    return Optional.ofNullable(codecs.get(name)).map(TableCodec::schema);
  }

  /** The wrapped connection (which sees only ciphertext of protected tables). */
  public Connection unwrap() {
    return defaultCluster();
  }

  /**
   * Shuts down this connection's thread pool (running calls finish) and its layouts' services, such
   * as background merges of APPEND tables (a round under way finishes). Does not close the wrapped
   * connection. Idempotent; tables obtained before keep working, except that aggregations on them
   * fail with an {@code IOException}.
   */
  @Override
  public void close() {
    closed = true;
    pool.shutdown();
    services.close();
  }

  /**
   * A table descriptor with the schema's families (and the region-side observer if the schema's
   * boxes need it), for callers who want to set more (versions, compression, TTL) before creating
   * the table with {@link #createTable(TableDescriptorBuilder, byte[][])}.
   */
  public static TableDescriptorBuilder descriptorFor(TableSchema schema) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf(schema.tableName()));
    for (String family : StorageLayouts.of(schema.layout()).storedFamilies(schema)) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(family));
    }
    try {
      RegionSupport.describe(schema, b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b;
  }

  /** Creates the HBase table for {@code schema}, with its families. */
  public void createTable(TableSchema schema) throws IOException {
    createTable(descriptorFor(schema), null);
  }

  /**
   * Creates the table pre-split at {@code splitKeys}. Split keys are in the stored key space: for
   * DET or STD row keys, plaintext split points mean nothing to HBase; {@link #uniformSplitKeys}
   * gives even ones.
   */
  public void createTable(TableSchema schema, byte[][] splitKeys) throws IOException {
    createTable(descriptorFor(schema), splitKeys);
  }

  /**
   * Creates a table from a descriptor built with {@link #descriptorFor(TableSchema)}.
   *
   * @throws IllegalArgumentException if the table has no schema or the descriptor's families
   *     differ from the schema's (under {@code unlistedFamilies: PLAIN}: lack one of them)
   */
  public void createTable(TableDescriptorBuilder descriptor, byte[][] splitKeys) throws IOException {
    TableName name = descriptor.build().getTableName();
    TableCodec codec = codecs.get(name);
    if (codec == null) {
      throw new IllegalArgumentException("no schema for table " + name);
    }
    TableDescriptor d = TableDescriptorBuilder.newBuilder(descriptor.build())
        .setValue(KeyCheck.ATTRIBUTE, codec.keyCheck().encode())
        .setValue(STORED_FORMAT_ATTRIBUTE, Integer.toString(codec.storedFormat().number())).build();
    Set<String> families = new TreeSet<>();
    for (ColumnFamilyDescriptor cf : d.getColumnFamilies()) {
      families.add(cf.getNameAsString());
    }
    LayoutProvider provider = StorageLayouts.of(codec.schema().layout());
    Set<String> stored = new TreeSet<>(provider.storedFamilies(codec.schema()));
    // Under unlistedFamilies: PLAIN the table may have more families, stored unprotected.
    boolean morePlain = codec.schema().unlistedFamilies() == UnlistedFamilies.PLAIN;
    if (morePlain ? !families.containsAll(stored) : !families.equals(stored)) {
      throw new IllegalArgumentException("table " + d.getTableName() + ": descriptor families " + families
          + (morePlain ? " lack some of the schema's " : " differ from the schema's ") + stored);
    }
    if (RegionSupport.needsRegionWork(codec.schema())) {
      try (Admin admin = defaultCluster().getAdmin()) {
        RegionSupport.prepareCounterTable(admin);
      }
    }
    // A layout over several clusters (SHARED): the same table, descriptor and splits on each.
    for (String cluster : codec.schema().layout().clusters()) {
      try (Admin admin = clusters.get(cluster).getAdmin()) {
        if (splitKeys == null || splitKeys.length == 0) {
          admin.createTable(d);
        } else {
          admin.createTable(d, splitKeys);
        }
      }
    }
    provider.initialize(context(name, resolve(name, codec)));
  }

  /**
   * {@code regions - 1} split keys that spread {@code name}'s DET or STD row keys evenly over
   * {@code regions} regions: stored keys are the current key's header (5 bytes in stored format 1,
   * 1 in format 2) followed by pseudo-random bytes, so the splits cut the two bytes after the header evenly. Rows written
   * under a later key (after rotation) carry another header and land in the first or last region.
   *
   * @throws IllegalArgumentException if the table has no schema, its row keys are not DET or STD
   *     (PLAIN and OPE keys keep the plaintext's order: split them at plaintext points, encrypted
   *     for OPE), or {@code regions} is not in [1, 65536]
   */
  public byte[][] uniformSplitKeys(TableName name, int regions) throws IOException {
    TableCodec codec = codecs.get(name);
    if (codec == null) {
      throw new IllegalArgumentException("no schema for table " + name);
    }
    if (codec.rowKeysKeepOrder()) {
      throw new IllegalArgumentException("table " + name + ": uniform split keys need row keys whose stored form is"
          + " pseudo-random (DET, STD); " + codec.rowBox().kind() + " row keys keep the plaintext's order, so split"
          + " them at plaintext points");
    }
    if (regions < 1 || regions > 65_536) {
      throw new IllegalArgumentException("regions must be in [1, 65536], got " + regions);
    }
    byte[] header = Arrays.copyOf(codec.encodeRow(new byte[] {0}), codec.storedFormat().headerLength());
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      int point = (int) (65_536L * i / regions);
      splits[i - 1] = Bytes.add(header, new byte[] {(byte) (point >>> 8), (byte) point});
    }
    return splits;
  }

  /**
   * Builder of a {@link SecureConnection}. Takes the connection(s), the keys and the schemas;
   * everything is validated and every key derived in {@link #build()}.
   */
  public static final class Builder {
    private final Map<String, Connection> clusters = new LinkedHashMap<>();
    private KeyProvider keys;
    private final List<TableSchema> schemas = new ArrayList<>();
    private SecureTableOptions options = SecureTableOptions.defaults();
    private final Map<String, TableSchema> previousSchemas = new LinkedHashMap<>();
    private final Set<String> rekeyed = new HashSet<>();

    private Builder() {}

    /** The HBase connection tables are stored through (registered as {@value #DEFAULT_CLUSTER}). */
    public Builder connection(Connection connection) {
      return cluster(DEFAULT_CLUSTER, connection);
    }

    /**
     * A named connection to one cluster. SHARED tables name the clusters their shares go to; other
     * tables live on {@value #DEFAULT_CLUSTER} unless their layout names another. {@value
     * #DEFAULT_CLUSTER} must be among them (it holds the counter table).
     */
    public Builder cluster(String name, Connection connection) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(connection, "connection");
      if (clusters.putIfAbsent(name, connection) != null) {
        throw new IllegalArgumentException("cluster " + name + " given twice");
      }
      return this;
    }

    public Builder keys(KeyProvider keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** Adds one table's schema. */
    public Builder schema(TableSchema schema) {
      schemas.add(Objects.requireNonNull(schema, "schema"));
      return this;
    }

    /** Adds tables' schemas. */
    public Builder schemas(Collection<TableSchema> schemas) {
      Objects.requireNonNull(schemas, "schemas").forEach(this::schema);
      return this;
    }

    /**
     * Declares that a table moves from {@code previous} to the schema given with {@link
     * #schema(TableSchema)} for it: an online migration ({@code cryptoworker migrate}) is re-encrypting
     * its stored cells. Tables then write the new form and read both; a filter on a column being
     * migrated runs on the client (both forms cannot be compared on the server), and aggregations and
     * checkAndMutate conditions on such columns are refused until the migration is done and this
     * call is removed.
     */
    public Builder migratingFrom(TableSchema previous) {
      return migratingFrom(previous, false);
    }

    /**
     * As {@link #migratingFrom(TableSchema)}, for a migration that also re-keys ({@code cryptoworker
     * migrate --rekey}): with {@code rekey}, row keys and qualifier names are written under the
     * keyset's primary key (unless the table has ASHE or SPLASHE columns, whose identifier counters are
     * named under the oldest key), and rows stored under the oldest are read too. Keep this until
     * every client's keyset has the retired keys disabled.
     */
    public Builder migratingFrom(TableSchema previous, boolean rekey) {
      Objects.requireNonNull(previous, "previous");
      if (previousSchemas.putIfAbsent(previous.tableName(), previous) != null) {
        throw new IllegalArgumentException("two previous schemas for table " + previous.tableName());
      }
      if (rekey) {
        rekeyed.add(previous.tableName());
      }
      return this;
    }

    public Builder options(SecureTableOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * Derives every key and builds every box.
     *
     * @throws IllegalArgumentException if two schemas name the same table, or no default cluster
     * @throws UnsupportedOperationException if a schema uses a box this version does not implement
     * @throws NullPointerException if the connection or the keys are missing
     */
    public SecureConnection build() {
      Objects.requireNonNull(keys, "keys");
      Connection connection = clusters.get(DEFAULT_CLUSTER);
      if (connection == null) {
        throw new IllegalArgumentException(clusters.isEmpty()
            ? "no connection: call connection(Connection)"
            : "clusters " + clusters.keySet() + " given, but no " + DEFAULT_CLUSTER + " cluster to store tables in");
      }
      for (TableSchema schema : schemas) {
        StorageLayouts.of(schema.layout()); // its layout's module is installed
        for (String cluster : schema.layout().clusters()) {
          if (!clusters.containsKey(cluster)) {
            throw new IllegalArgumentException("table " + schema.tableName() + " (" + schema.source()
                + ") is stored on cluster '" + cluster + "', which this connection was not given (clusters: "
                + clusters.keySet() + ")");
          }
        }
      }
      StoredFormat newTableFormat = newTableFormat(keys);
      Map<TableName, TableCodec> codecs = new LinkedHashMap<>();
      Map<TableName, Function<StoredFormat, TableCodec>> codecsInFormat = new LinkedHashMap<>();
      KeyProvider keyProvider = keys;
      ColumnBoxContext.CounterSources identifiers = new HBaseCounters(connection, IDENTIFIER_BLOCK);
      SearchIndex searchIndex = SearchIndexes.open(connection);
      for (TableSchema schema : schemas) {
        TableName name = TableName.valueOf(schema.tableName());
        if (codecs.containsKey(name)) {
          throw new IllegalArgumentException(
              "two schemas for table " + name + ": " + codecs.get(name).schema().source() + " and "
                  + schema.source());
        }
        TableSchema previous = previousSchemas.get(schema.tableName());
        if (previous != null) {
          requireMigration(previous, schema);
        }
        OptionalInt identityKey = rekeyed.contains(schema.tableName())
            ? TableMigration.identityKeyAfterRekey(keys, schema) : OptionalInt.empty();
        Function<StoredFormat, TableCodec> inFormat = format -> {
          TableCodec codec = new TableCodec(schema, keyProvider, BoxRegistry.standard(), identifiers, searchIndex,
              options.boxOptions(), identityKey, format);
          if (previous != null) {
            codec.readPreviousForm(new TableCodec(previous, keyProvider, BoxRegistry.standard(), identifiers,
                searchIndex, options.boxOptions(), OptionalInt.empty(), format),
                ColumnMigration.between(previous, schema));
          }
          return codec;
        };
        codecsInFormat.put(name, inFormat);
        codecs.put(name, inFormat.apply(schema.storedFormat().orElse(newTableFormat)));
      }
      for (TableSchema previous : previousSchemas.values()) {
        if (!codecs.containsKey(TableName.valueOf(previous.tableName()))) {
          throw new IllegalArgumentException("migratingFrom(" + previous.source() + "): no schema for table "
              + previous.tableName() + " to migrate to");
        }
      }
      return new SecureConnection(Collections.unmodifiableMap(new LinkedHashMap<>(clusters)),
          Collections.unmodifiableMap(codecs), Collections.unmodifiableMap(codecsInFormat), options);
    }

    /** Refuses an online migration between layouts that cannot migrate cells in place. */
    private static void requireMigration(TableSchema previous, TableSchema schema) {
      for (TableSchema s : List.of(previous, schema)) {
        try {
          LayoutCapability.MIGRATION.require(StorageLayouts.of(s.layout()), s.layout(), s.tableName(),
              "migratingFrom(" + previous.source() + ")");
        } catch (UnsupportedSecureOperationException e) {
          throw new IllegalArgumentException(e.getMessage() + "; copy the table into a new one instead (`cryptoworker"
              + " copy`, docs/operations.md)", e);
        }
      }
      if (!previous.layout().type().equals(schema.layout().type())) {
        throw new IllegalArgumentException("migratingFrom(" + previous.source() + "): table " + schema.tableName()
            + " moves from layout " + previous.layout().type() + " to " + schema.layout().type()
            + ", which online migration cannot do; copy it into a new table instead (`cryptoworker copy`,"
            + " docs/operations.md)");
      }
    }

    /**
     * The stored format of new tables whose schema does not say: the latest, unless two keys of the
     * keyset end in the same byte (keysets rotated before format 2 existed), which format 2 cannot
     * tell apart; then format 1, said once in the log.
     */
    private static StoredFormat newTableFormat(KeyProvider keys) {
      try {
        StoredFormat.LATEST.requireDistinctHeaders(
            // kind: key-derivation label of a probe ring (only its key ids are read)
            keys.keyRing(KeyScope.column("cryptoworker-format-probe", "", "", BoxKind.STD), 32), "keyset");
        return StoredFormat.LATEST;
      } catch (GeneralSecurityException e) {
        if (FORMAT_ONE_WARNED.compareAndSet(false, true)) {
          LOG.warn("New tables get stored format 1: {}", e.getMessage());
        }
        return StoredFormat.V1;
      }
    }
  }
}
