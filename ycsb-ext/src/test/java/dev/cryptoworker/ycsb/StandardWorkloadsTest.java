package dev.cryptoworker.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's standard workloads through the binding, plain and secure, against the real cluster:
 * zero failed operations on both sides.
 */
@ExtendWith(SharedHBaseCluster.class)
class StandardWorkloadsTest {
  private static final int RECORDS = 300;
  private static final int OPERATIONS = 600;

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
      CountingDb db = new CountingDb(new SecureHBaseClient());
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
    }
  }

  /** Counts the binding's outcomes (YCSB's own wrapper needs its global state). */
  static final class CountingDb extends ObservedDb {
    final AtomicLong ok = new AtomicLong();
    final AtomicLong failed = new AtomicLong();

    CountingDb(DB inner) {
      super(inner);
    }

    @Override
    protected void observe(String operation, long startNanos, Status status) {
      (status.isOk() ? ok : failed).incrementAndGet();
    }
  }
}
