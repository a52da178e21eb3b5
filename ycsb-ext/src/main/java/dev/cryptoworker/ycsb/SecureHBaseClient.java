package dev.cryptoworker.ycsb;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.cryptobox.ope.OrderPreservingBox;
import dev.cryptoworker.cryptobox.ope.OrderPreservingBoxProvider;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.ExampleSchemas;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB binding over CryptoWorker: with a schema, every operation goes through {@code
 * SecureTable}; with {@code cryptoworker.mode=plain}, through plain HBase, so both sides of a
 * comparison run the same binding code. One HBase connection per JVM, shared by YCSB's threads
 * and closed by the last {@link #cleanup()}.
 *
 * <p>Properties ({@link BindingOptions} documents each): {@code cryptoworker.mode},
 * {@code cryptoworker.schema}, {@code cryptoworker.keyset} with {@code cryptoworker.kek} (or {@code
 * cryptoworker.masterkey}), {@code cryptoworker.clientside},
 * {@code cryptoworker.opememo} (OPE values remembered per column, see {@link SecureTableOptions}),
 * {@code columnfamily}, {@code hbase.zookeeper.quorum}, {@code hbase.zookeeper.property.clientPort},
 * {@code hbase.site}, and YCSB's HBase binding's {@code clientbuffering} and {@code writebuffersize}:
 * with {@code clientbuffering=true}, inserts, updates and deletes go through a {@link
 * BufferedMutator} per table (HBase's own on the plain side, {@code SecureConnection}'s on the
 * secure side), written when its buffer fills and at {@link #cleanup()}; a read may then not see a
 * write still in the buffer, as with YCSB's own binding. A field name {@code family:qualifier} addresses that column; any other
 * field name is a qualifier of {@code columnfamily}.
 */
public class SecureHBaseClient extends DB implements FilterScans {
  private static final Logger LOG = LoggerFactory.getLogger(SecureHBaseClient.class);
  private static final Object LOCK = new Object();
  /** Connections shared by the clients of one configuration (mode, schema, cluster). */
  private static final Map<String, Shared> SHARED = new HashMap<>();

  private static final class Shared {
    final Connection connection;
    final SecureConnection secure;
    int references;

    Shared(Connection connection, SecureConnection secure) {
      this.connection = connection;
      this.secure = secure;
    }
  }

  private String sharedKey;

  private BindingOptions options;
  private SecureConnection secure;
  private Connection connection;
  private final Map<String, Table> tables = new HashMap<>();
  private final Map<String, BufferedMutator> mutators = new HashMap<>();
  private long writeBufferSize;

  @Override
  public void init() throws DBException {
    options = BindingOptions.from(getProperties());
    writeBufferSize = options.writeBufferSize();
    sharedKey = options.sharingKey();
    synchronized (LOCK) {
      try {
        Shared shared = SHARED.get(sharedKey);
        if (shared == null) {
          KeyProvider keys = options.secure() ? options.keys() : null; // before connecting: a failure leaks nothing
          Connection c = ConnectionFactory.createConnection(options.hbaseConfiguration());
          shared = new Shared(c, keys != null
              ? SecureConnection.wrap(c, keys, List.of(options.schema()),
                  SecureTableOptions.builder().boxOption(OrderPreservingBoxProvider.MEMO_ENTRIES, options.orderPreservingMemo()).build())
              : null);
          SHARED.put(sharedKey, shared);
        }
        shared.references++;
        connection = shared.connection;
        secure = shared.secure;
      } catch (IOException | RuntimeException e) {
        throw new DBException("cannot connect to HBase: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      closeMutators(); // writes what is buffered; a failure is this call's DBException
    } finally {
      closeTablesAndRelease();
    }
  }

  private void closeMutators() throws DBException {
    IOException first = null;
    for (BufferedMutator m : mutators.values()) {
      try {
        m.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    mutators.clear();
    if (first != null) {
      throw new DBException("buffered writes failed: " + first.getMessage(), first);
    }
  }

  private void closeTablesAndRelease() throws DBException {
    try {
      try {
        for (Table t : tables.values()) {
          t.close();
        }
      } finally {
        tables.clear();
        release();
      }
    } catch (IOException e) {
      throw new DBException(e);
    }
  }

  /** Drops this client's reference to the shared connection; the last one closes it. */
  private void release() throws IOException {
    synchronized (LOCK) {
      Shared shared = SHARED.get(sharedKey);
      if (--shared.references == 0) {
        SHARED.remove(sharedKey);
        try {
          if (shared.secure != null) {
            shared.secure.close();
          }
        } finally {
          shared.connection.close();
        }
      }
    }
  }

  private Table table(String name) throws IOException {
    Table t = tables.get(name);
    if (t == null) {
      TableName tn = TableName.valueOf(name);
      t = secure != null ? secure.getSecureTable(tn) : connection.getTable(tn);
      tables.put(name, t);
    }
    return t;
  }

  private BufferedMutator mutator(String name) throws IOException {
    BufferedMutator m = mutators.get(name);
    if (m == null) {
      BufferedMutatorParams params = new BufferedMutatorParams(TableName.valueOf(name));
      if (writeBufferSize > 0) {
        params.writeBufferSize(writeBufferSize);
      }
      m = secure != null ? secure.getBufferedMutator(params) : connection.getBufferedMutator(params);
      mutators.put(name, m);
    }
    return m;
  }

  /** A put or delete: through the table's buffered mutator with {@code clientbuffering}, else at once. */
  private void write(String table, Mutation m) throws IOException {
    if (options.clientBuffering()) {
      mutator(table).mutate(m);
    } else if (m instanceof Put put) {
      table(table).put(put);
    } else {
      table(table).delete((Delete) m);
    }
  }

  private byte[][] column(String field) {
    int colon = field.indexOf(':');
    return colon < 0
        ? new byte[][] {options.family(), Bytes.toBytes(field)}
        : new byte[][] {Bytes.toBytes(field.substring(0, colon)), Bytes.toBytes(field.substring(colon + 1))};
  }

  private String fieldName(byte[] family, byte[] qualifier) {
    return Bytes.equals(family, options.family())
        ? Bytes.toString(qualifier) : Bytes.toString(family) + ":" + Bytes.toString(qualifier);
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      Get get = new Get(Bytes.toBytes(key));
      if (fields != null) {
        for (String f : fields) {
          byte[][] c = column(f);
          get.addColumn(c[0], c[1]);
        }
      }
      Result r = table(table).get(get);
      if (r.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copy(r, result);
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("read", table, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan = new Scan().withStartRow(Bytes.toBytes(startkey)).setLimit(recordcount).setCaching(Math.min(recordcount, 1000));
    if (fields != null) {
      for (String f : fields) {
        byte[][] c = column(f);
        scan.addColumn(c[0], c[1]);
      }
    }
    return filterScan(table, "SCAN", scan, result);
  }

  /**
   * {@inheritDoc}
   *
   * <p>QEF and QRF must run on the region servers: they never fall back to client-side
   * evaluation, so an unsupported filter is a failed operation, not a silent table download. Only
   * YCSB's key-range SCAN may, with {@code cryptoworker.clientside=true}.
   */
  @Override
  public Status filterScan(String table, String operation, Scan scan, Vector<HashMap<String, ByteIterator>> result) {
    if (options.clientSide() && operation.equals("SCAN")) {
      SecureScans.allowClientSideEvaluation(scan);
    }
    try (ResultScanner s = table(table).getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        copy(r, row);
        result.add(row);
      }
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("scan", table, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return insert(table, key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      Put put = new Put(Bytes.toBytes(key));
      for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
        byte[][] c = column(e.getKey());
        put.addColumn(c[0], c[1], e.getValue().toArray());
      }
      write(table, put);
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("insert", table, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      write(table, new Delete(Bytes.toBytes(key)));
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("delete", table, e);
    }
  }

  private void copy(Result r, Map<String, ByteIterator> out) {
    for (Cell c : r.rawCells()) {
      out.put(fieldName(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c)),
          new ByteArrayByteIterator(CellUtil.cloneValue(c)));
    }
  }

  /** Failures are counted by YCSB; the cause is logged once per kind, never with values. */
  private Status error(String operation, String table, Exception e) {
    LOG.warn("{} on {} failed: {}", operation, table, e.toString());
    return Status.ERROR;
  }

  /** The binding's options, validated once in {@link #init()}. */
  static final class BindingOptions {
    private final Properties p;
    private final boolean secure;
    private final TableSchema schema;

    private BindingOptions(Properties p) throws DBException {
      this.p = p;
      String mode = p.getProperty("cryptoworker.mode", "secure");
      if (!mode.equals("secure") && !mode.equals("plain")) {
        throw new DBException("cryptoworker.mode must be secure or plain, got " + mode);
      }
      this.secure = mode.equals("secure");
      this.schema = secure ? loadSchema(p.getProperty("cryptoworker.schema")) : null;
      if (secure) {
        String table = p.getProperty("table", "usertable");
        if (!schema.tableName().equals(table)) {
          throw new DBException("the schema " + schema.source() + " is for table " + schema.tableName()
              + ", but YCSB's table property is " + table);
        }
      }
    }

    static BindingOptions from(Properties p) throws DBException {
      return new BindingOptions(p);
    }

    private static TableSchema loadSchema(String where) throws DBException {
      if (where == null) {
        throw new DBException("cryptoworker.schema is required in secure mode (a YAML file or classpath resource)");
      }
      try {
        Path file = Path.of(where);
        return Files.exists(file) ? TableSchema.load(file) : ExampleSchemas.fromResource(where);
      } catch (IOException | IllegalArgumentException e) {
        throw new DBException("cannot load schema " + where + ": " + e.getMessage(), e);
      }
    }

    boolean secure() {
      return secure;
    }

    /** Clients with equal keys share one connection. */
    String sharingKey() {
      return (secure ? "secure|" + schema.tableName() + "|" + p.getProperty("cryptoworker.masterkey", "")
          + "|" + p.getProperty("cryptoworker.keyset", "") + "|" + p.getProperty("cryptoworker.kek", "")
          + "|" + p.getProperty("cryptoworker.opememo", "") : "plain")
          + "|" + p.getProperty("hbase.zookeeper.quorum", "") + ":" + p.getProperty("hbase.zookeeper.property.clientPort", "")
          + "|" + p.getProperty("hbase.site", "");
    }

    TableSchema schema() {
      return schema;
    }

    byte[] family() {
      return Bytes.toBytes(p.getProperty("columnfamily", "family"));
    }

    int orderPreservingMemo() throws DBException {
      String v = p.getProperty("cryptoworker.opememo", Integer.toString(OrderPreservingBox.DEFAULT_MEMO_ENTRIES));
      try {
        int n = Integer.parseInt(v.strip());
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new DBException("cryptoworker.opememo must be a number >= 0, got " + v);
    }

    /** YCSB's HBase binding option: writes through a {@link BufferedMutator}. */
    boolean clientBuffering() {
      return Boolean.parseBoolean(p.getProperty("clientbuffering", "false"));
    }

    /** YCSB's HBase binding option: the buffer's size in bytes; 0 for HBase's default (2 MiB). */
    long writeBufferSize() throws DBException {
      String v = p.getProperty("writebuffersize", "0");
      try {
        long n = Long.parseLong(v.strip());
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new DBException("writebuffersize must be a number of bytes >= 0, got " + v);
    }

    boolean clientSide() {
      return Boolean.parseBoolean(p.getProperty("cryptoworker.clientside", "false"));
    }

    /**
     * The keys: the keyset file {@code cryptoworker.keyset} under the key-encryption key URI {@code
     * cryptoworker.kek} (default {@code env:CRYPTOWORKER_KEK}), the way every entry point obtains keys;
     * without a keyset, the master key of {@code cryptoworker.masterkey} as before.
     */
    KeyProvider keys() throws DBException {
      String keyset = p.getProperty("cryptoworker.keyset");
      if (keyset == null) {
        return KeyProvider.fromMasterKey(masterKey());
      }
      String kek = p.getProperty("cryptoworker.kek", "env:" + KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE);
      try {
        return KeyProvider.fromKeysetFile(Path.of(keyset), kek);
      } catch (IOException | GeneralSecurityException | RuntimeException e) {
        throw new DBException("cannot open keyset " + keyset + " with cryptoworker.kek " + kek + ": " + e.getMessage(),
            e);
      }
    }

    private byte[] masterKey() throws DBException {
      String key = p.getProperty("cryptoworker.masterkey", System.getenv("CRYPTOWORKER_MASTER_KEY"));
      if (key == null) {
        throw new DBException("secure mode needs cryptoworker.keyset (with cryptoworker.kek), cryptoworker.masterkey"
            + " (base64, 32 bytes) or CRYPTOWORKER_MASTER_KEY");
      }
      return Base64.getDecoder().decode(key.strip());
    }

    Configuration hbaseConfiguration() {
      Configuration conf = HBaseConfiguration.create();
      String site = p.getProperty("hbase.site");
      if (site != null) {
        conf.addResource(new org.apache.hadoop.fs.Path(Path.of(site).toUri()));
      }
      for (String k : new String[] {"hbase.zookeeper.quorum", "hbase.zookeeper.property.clientPort"}) {
        if (p.getProperty(k) != null) {
          conf.set(k, p.getProperty(k));
        }
      }
      return conf;
    }
  }
}
