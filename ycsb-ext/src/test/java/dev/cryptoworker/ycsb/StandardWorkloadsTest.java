package dev.cryptoworker.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import dev.cryptoworker.testing.TestSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's standard workloads through the binding, plain and secure, against the real cluster:
 * zero failed operations on both sides, and every value a read or a scan returns is the one last
 * written to that row and field (YCSB's data-integrity values name their row and field).
 */
@ExtendWith(SharedHBaseCluster.class)
class StandardWorkloadsTest {
  private static final int RECORDS = TestSize.scaled(300);
  private static final int OPERATIONS = TestSize.scaled(600);

  @ParameterizedTest(name = "workload {0}")
  @CsvSource({
    "A, 0.5, 0.5, 0, 0, 0, zipfian",
    "B, 0.95, 0.05, 0, 0, 0, zipfian",
    "C, 1.0, 0, 0, 0, 0, zipfian",
    "D, 0.95, 0, 0.05, 0, 0, latest",
    "E, 0, 0, 0.05, 0.95, 0, zipfian",
    "F, 0.5, 0, 0, 0, 0.5, zipfian"
  })
  void zeroFailuresOnBothSides(String workload, String read, String update, String insert, String scan, String rmw,
      String distribution, Connection hbase, Configuration conf) throws Exception {
    String key = Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
    for (String mode : new String[] {"plain", "secure"}) {
      String table = ("ycsb_" + workload + "_" + mode + "_" + SharedHBaseCluster.uniqueTableName("t").getNameAsString()).toLowerCase();
      TableSchema schema = TableSchema.parse(
          "table: " + table + "\nrowKey: { box: OPE, type: string }\nfamilies:\n  family:\n    default: { box: STD }\n");
      if (mode.equals("secure")) {
        SecureConnection.wrap(hbase, KeyProvider.fromMasterKey(Base64.getDecoder().decode(key)), List.of(schema))
            .createTable(schema);
      } else {
        try (Admin admin = hbase.getAdmin()) {
          admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(table))
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("family")).build());
        }
      }
      Properties p = new Properties();
      p.setProperty("table", table);
      p.setProperty("recordcount", Integer.toString(RECORDS));
      p.setProperty("operationcount", Integer.toString(OPERATIONS));
      p.setProperty("fieldcount", "4");
      p.setProperty("fieldlength", "64");
      p.setProperty("readproportion", read);
      p.setProperty("updateproportion", update);
      p.setProperty("insertproportion", insert);
      p.setProperty("scanproportion", scan);
      p.setProperty("readmodifywriteproportion", rmw);
      p.setProperty("requestdistribution", distribution);
      p.setProperty("maxscanlength", "20");
      p.setProperty("dataintegrity", "true"); // values "key:field:..." let a scanned value name its row
      p.setProperty("cryptoworker.mode", mode);
      p.setProperty("cryptoworker.masterkey", key);
      p.setProperty("hbase.zookeeper.quorum", conf.get("hbase.zookeeper.quorum"));
      p.setProperty("hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"));
      Path schemaFile = Files.createTempFile(
          Paths.get(System.getProperty("java.io.tmpdir")), "schema", ".yaml");
      Files.writeString(schemaFile,
          "table: " + table + "\nrowKey: { box: OPE, type: string }\nfamilies:\n  family:\n    default: { box: STD }\n");
      p.setProperty("cryptoworker.schema", schemaFile.toString());

      Measurements.setProperties(p);
      CoreWorkload w = new CoreWorkload();
      w.init(p);
      Object state = w.initThread(p, 0, 1);
      CheckingDb db = new CheckingDb(new SecureHBaseClient());
      db.setProperties(p);
      db.init();
      for (int i = 0; i < RECORDS; i++) {
        assertTrue(w.doInsert(db, state));
      }
      for (int i = 0; i < OPERATIONS; i++) {
        w.doTransaction(db, state);
      }
      db.cleanup();
      w.cleanup();
      assertEquals(0, db.failed.get(), mode + " side of workload " + workload + ": failed operations");
      assertTrue(db.ok.get() >= RECORDS + OPERATIONS, mode + " side ran " + db.ok.get() + " operations");
      assertEquals(List.of(), db.wrong, mode + " side of workload " + workload + ": values read back wrong");
      assertTrue(db.checked.get() >= OPERATIONS / 2, mode + " side compared " + db.checked + " values read back");
    }
  }

  /**
   * Counts the binding's outcomes (YCSB's own wrapper needs its global state) and keeps an oracle
   * of what was written: each value read or scanned back is compared with the last one written to
   * its row and field.
   */
  static final class CheckingDb extends ObservedDb {
    final AtomicLong ok = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong checked = new AtomicLong();
    final List<String> wrong = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, Map<String, String>> written = new ConcurrentHashMap<>();
    private final AtomicLong writes = new AtomicLong();

    CheckingDb(DB inner) {
      super(inner);
    }

    @Override
    protected void observe(String operation, long startNanos, Status status) {
      (status.isOk() ? ok : failed).incrementAndGet();
    }

    @Override
    public Status insert(String t, String k, Map<String, ByteIterator> v) {
      return remembered(k, v, values -> super.insert(t, k, values));
    }

    @Override
    public Status update(String t, String k, Map<String, ByteIterator> v) {
      return remembered(k, v, values -> super.update(t, k, values));
    }

    /**
     * Writes {@code v} (read once: YCSB's values are iterators), each value made unique by a write
     * number so that a stale read cannot match (YCSB's integrity values repeat per row and field),
     * and remembers it if acknowledged.
     */
    private Status remembered(String key, Map<String, ByteIterator> v,
        Function<Map<String, ByteIterator>, Status> write) {
      long number = writes.incrementAndGet();
      Map<String, String> values = new HashMap<>();
      StringByteIterator.getStringMap(v).forEach((field, value) -> values.put(field, value + "#" + number));
      Status status = write.apply(StringByteIterator.getByteIteratorMap(values));
      if (status.isOk()) {
        written.computeIfAbsent(key, x -> new ConcurrentHashMap<>()).putAll(values);
      }
      return status;
    }

    @Override
    public Status read(String t, String k, Set<String> f, Map<String, ByteIterator> r) {
      Status status = super.read(t, k, f, r);
      if (status.isOk()) {
        compare(k, StringByteIterator.getStringMap(r));
      }
      return status;
    }

    @Override
    public Status scan(String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      Status status = super.scan(t, k, n, f, r);
      if (status.isOk()) {
        for (HashMap<String, ByteIterator> record : r) {
          Map<String, String> values = StringByteIterator.getStringMap(record);
          String any = values.values().iterator().next();
          compare(any.substring(0, any.indexOf(':')), values); // "key:field:..."
        }
      }
      return status;
    }

    private void compare(String key, Map<String, String> read) {
      Map<String, String> expected = written.getOrDefault(key, Map.of());
      if (read.isEmpty()) {
        wrong.add(key + ": read nothing");
      }
      read.forEach((field, value) -> {
        checked.incrementAndGet();
        if (!value.equals(expected.get(field))) {
          wrong.add(key + "/" + field + ": read " + value + ", wrote " + expected.get(field));
        }
      });
    }
  }
}
