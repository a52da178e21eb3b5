package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.ExampleSchemas;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.synthetic.Appointment;
import dev.cryptoworker.synthetic.AppointmentGenerator;
import dev.cryptoworker.synthetic.Patient;
import dev.cryptoworker.synthetic.PatientGenerator;
import dev.cryptoworker.testing.PlaintextSearch;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Loads realistic patients through SecureTable, then reads the raw table with a plain HBase client:
 * no protected value, row key or qualifier may appear in any stored byte.
 */
@ExtendWith(SharedHBaseCluster.class)
class RawStorageAuditTest {
  private static final int PATIENTS = 300;

  @Test
  void noProtectedPlaintextInAnyStoredByte(Connection hbase) throws Exception {
    TableSchema example = ExampleSchemas.patients();
    // The example schema under a unique table name.
    TableSchema schema = SecureFixture.schema("audit_patients", example);
    assertEquals(example.families().keySet(), schema.families().keySet());
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);

    PatientGenerator generator = new PatientGenerator(42);
    Set<String> needles = new HashSet<>();
    List<Patient> patients = new ArrayList<>();
    try (Table table = secure.getTable(SecureFixture.name(schema))) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < PATIENTS; i++) {
        Patient p = generator.patient(i);
        patients.add(p);
        Put put = new Put(p.rowKey());
        needles.add(p.id());
        for (Map.Entry<String, Map<String, String>> f : p.cells().entrySet()) {
          FamilySchema family = schema.family(f.getKey()).orElseThrow();
          for (Map.Entry<String, String> c : f.getValue().entrySet()) {
            put.addColumn(Bytes.toBytes(f.getKey()), Bytes.toBytes(c.getKey()), Bytes.toBytes(c.getValue()));
            if (family.policyFor(c.getKey()).box().isProtected()) {
              needles.add(c.getValue().strip());
            }
            if (family.protectQualifiers()) {
              needles.add(c.getKey());
            }
          }
        }
        puts.add(put);
      }
      table.put(puts);

      // The data reads back exactly.
      for (int i = 0; i < PATIENTS; i += 37) {
        Patient p = patients.get(i);
        Result r = table.get(new Get(p.rowKey()));
        assertEquals(p.mainId(), Bytes.toString(r.getValue(Bytes.toBytes("identification"), Bytes.toBytes("mainId"))));
        assertEquals(
            p.value("observations", "observations"),
            Bytes.toString(r.getValue(Bytes.toBytes("observations"), Bytes.toBytes("observations"))));
        assertEquals(p.cells().get("appointments").size(), r.getFamilyMap(Bytes.toBytes("appointments")).size());
      }
    }
    auditRawTable(hbase, schema, needles, patients.get(0).value("contacts", "address").strip(), PATIENTS * 10);
  }

  @Test
  void appointmentsNoProtectedPlaintextInAnyStoredByte(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("audit_appointments", ExampleSchemas.appointments());
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    AppointmentGenerator generator = new AppointmentGenerator(7, 20);
    Set<String> needles = new HashSet<>();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < PATIENTS; i++) {
      Appointment a = generator.appointment(i);
      Put put = new Put(a.rowKey());
      needles.add(a.id());
      for (Map.Entry<String, Map<String, String>> f : a.cells().entrySet()) {
        for (Map.Entry<String, String> c : f.getValue().entrySet()) {
          put.addColumn(Bytes.toBytes(f.getKey()), Bytes.toBytes(c.getKey()), Bytes.toBytes(c.getValue()));
          needles.add(c.getValue().strip());
        }
      }
      // Dates also in their other forms: year-month-day and the 8-byte basic date.
      needles.add(a.date().substring(0, 8));
      puts.add(put);
    }
    try (Table table = secure.getTable(SecureFixture.name(schema))) {
      table.put(puts);
      Appointment first = generator.appointment(0);
      assertEquals(first.date(), Bytes.toString(table.get(new Get(first.rowKey()))
          .getValue(Bytes.toBytes("appointment"), Bytes.toBytes("date"))));
    }
    auditRawTable(hbase, schema, needles, generator.appointment(0).value("institution", "address").strip(), PATIENTS * 7);
  }

  /** Scans the raw table and fails on any needle (or 8-byte window of one) in a stored byte. */
  private static void auditRawTable(Connection hbase, TableSchema schema, Set<String> needles, String controlValue,
      int minimumCells) throws Exception {
    // Substrings of a protected field must not show either: test every 8-byte window of long values.
    Set<String> windows = new HashSet<>();
    for (String n : needles) {
      for (int i = 0; i + 8 <= n.length(); i += 8) {
        windows.add(n.substring(i, i + 8));
      }
    }
    needles.addAll(windows);
    // Random bytes hold any given 4-byte string once in 2^32 positions: with hundreds of short
    // needles over megabytes of ciphertext, one matched by chance in about one run of ten. From 6
    // bytes on, a chance match is below one in a thousand runs; every column here has values of 6
    // bytes and more, and long values are checked window by window.
    needles.removeIf(n -> n.length() < 6);

    // Control: a plaintext cell written around CryptoWorker must be found, or the audit is blind.
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      raw.put(new Put(Bytes.toBytes("control-row")).addColumn(Bytes.toBytes(schema.families().keySet().iterator().next()), Bytes.toBytes("x"),
          Bytes.toBytes(controlValue)));
    }

    int cells = 0;
    List<String> leaks = new ArrayList<>();
    PlaintextSearch search = new PlaintextSearch(needles);
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      for (Result r : SecureFixture.scanAll(raw, new Scan().readAllVersions())) {
        for (Cell c : r.rawCells()) {
          cells++;
          for (byte[] stored : List.of(CellUtil.cloneRow(c), CellUtil.cloneQualifier(c), CellUtil.cloneValue(c))) {
            for (String n : search.foundIn(stored)) {
              leaks.add("'" + n + "' in " + Bytes.toStringBinary(stored));
            }
          }
        }
      }
    }
    assertTrue(cells >= minimumCells, "expected the raw table to hold the patients' cells: " + cells);
    assertTrue(leaks.removeIf(l -> l.contains("control-row") || l.endsWith(Bytes.toStringBinary(Bytes.toBytes(controlValue)))),
        "the audit must detect the control plaintext");
    assertTrue(leaks.isEmpty(), leaks.size() + " plaintext leaks, first: " + leaks.subList(0, Math.min(5, leaks.size())));
  }
}
