package dev.cryptoworker.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.ExampleSchemas;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import dev.cryptoworker.testing.TestSize;
import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.Vector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import site.ycsb.ByteIterator;
import site.ycsb.measurements.Measurements;

/**
 * QEF and QRF return the same rows and values from the secure side as from the plain side for the
 * same seeded data, evaluated on the region servers (DET equality, OPE ranges).
 */
@ExtendWith(SharedHBaseCluster.class)
class FilterOperationsTest {
  private static final int RECORDS = TestSize.scaled(400);

  private static SecureHBaseClient side(String mode, String records, String table, String key, Configuration conf,
      Connection hbase) throws Exception {
    TableSchema schema = records.equals("patients") ? ExampleSchemas.patients() : ExampleSchemas.appointments();
    Properties p = new Properties();
    p.setProperty("table", table);
    p.setProperty("cryptoworker.mode", mode);
    p.setProperty("cryptoworker.schema", "schemas/" + records + ".yaml");
    p.setProperty("cryptoworker.masterkey", key);
    p.setProperty("hbase.zookeeper.quorum", conf.get("hbase.zookeeper.quorum"));
    p.setProperty("hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"));
    p.setProperty("recordcount", Integer.toString(RECORDS));
    p.setProperty("operationcount", "1");
    p.setProperty("healthcare.records", records);
    p.setProperty("healthcare.physicians", "20");
    try (Admin admin = hbase.getAdmin()) {
      if (!admin.tableExists(TableName.valueOf(table))) {
        if (mode.equals("secure")) {
          SecureConnection.wrap(hbase, KeyProvider.fromMasterKey(Base64.getDecoder().decode(key)), List.of(schema))
              .createTable(schema);
        } else {
          TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf(table));
          for (FamilySchema f : schema.families().values()) {
            b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f.name()));
          }
          admin.createTable(b.build());
        }
      }
    }
    Measurements.setProperties(p);
    HealthcareWorkload w = new HealthcareWorkload();
    w.init(p);
    SecureHBaseClient db = new SecureHBaseClient();
    db.setProperties(p);
    db.init();
    Object state = w.initThread(p, 0, 1);
    for (int i = 0; i < RECORDS; i++) {
      assertTrue(w.doInsert(db, state));
    }
    return db;
  }

  /** Rows as sorted strings of their sorted fields: sides compare regardless of row order. */
  private static List<String> rows(Vector<HashMap<String, ByteIterator>> result) {
    List<String> out = new ArrayList<>();
    for (HashMap<String, ByteIterator> row : result) {
      Map<String, String> sorted = new TreeMap<>();
      row.forEach((k, v) -> sorted.put(k, v.toString()));
      out.add(sorted.toString());
    }
    Collections.sort(out);
    return out;
  }

  @Test
  void qefAndQrfAgreeBetweenSides(Connection hbase, Configuration conf) throws Exception {
    String key = Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
    // The secure tables carry the schemas' names; the plain ones a suffix.
    SecureHBaseClient plainPatients = side("plain", "patients", "patients_plain", key, conf, hbase);
    SecureHBaseClient securePatients = side("secure", "patients", "patients", key, conf, hbase);
    SecureHBaseClient plainAppointments = side("plain", "appointments", "appointments_plain", key, conf, hbase);
    SecureHBaseClient secureAppointments = side("secure", "appointments", "appointments", key, conf, hbase);
    Random r = new Random(5);
    HealthcareWorkload patients = new HealthcareWorkload();
    Properties p = new Properties();
    p.setProperty("recordcount", Integer.toString(RECORDS));
    p.setProperty("operationcount", "1");
    p.setProperty("healthcare.physicians", "20");
    Measurements.setProperties(p);
    patients.init(p);
    int matched = 0;
    for (int i = 0; i < 20; i++) {
      String mainId = patients.record(r.nextInt(RECORDS)).get("identification").get("mainId");
      SingleColumnValueFilter f = new SingleColumnValueFilter(Bytes.toBytes("identification"), Bytes.toBytes("mainId"),
          CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes(mainId)));
      f.setFilterIfMissing(true);
      Vector<HashMap<String, ByteIterator>> a = new Vector<>();
      Vector<HashMap<String, ByteIterator>> b = new Vector<>();
      assertTrue(plainPatients.filterScan("patients_plain", "QEF", new Scan().setFilter(f), a).isOk());
      assertTrue(securePatients.filterScan("patients", "QEF", new Scan().setFilter(f), b).isOk());
      assertEquals(rows(a), rows(b));
      matched += a.size();
    }
    Properties ap = new Properties();
    ap.putAll(p);
    ap.setProperty("healthcare.records", "appointments");
    HealthcareWorkload appointments = new HealthcareWorkload();
    appointments.init(ap);
    for (int i = 0; i < 20; i++) {
      LocalDateTime from = LocalDateTime.of(2015 + r.nextInt(6), 1 + r.nextInt(12), 1, 0, 0);
      Vector<HashMap<String, ByteIterator>> a = new Vector<>();
      Vector<HashMap<String, ByteIterator>> b = new Vector<>();
      assertTrue(plainAppointments.filterScan("appointments_plain", "QRF",
          new Scan().setFilter(appointments.qrfFilter(from, from.plusDays(60))), a).isOk());
      assertTrue(secureAppointments.filterScan("appointments", "QRF",
          new Scan().setFilter(appointments.qrfFilter(from, from.plusDays(60))), b).isOk());
      assertEquals(rows(a), rows(b));
      matched += a.size();
    }
    assertTrue(matched > RECORDS / 4, "filters selected rows: " + matched);
    for (SecureHBaseClient c : List.of(plainPatients, securePatients, plainAppointments, secureAppointments)) {
      c.cleanup();
    }
  }
}
