package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.ExampleSchemas;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.synthetic.Appointment;
import dev.cryptoworker.synthetic.AppointmentGenerator;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The Appointments schema end to end: one physician's appointments in a date range. */
@ExtendWith(SharedHBaseCluster.class)
class AppointmentsTest {
  private static final int APPOINTMENTS = 1500;

  @Test
  void physicianInDateRangeIsOneServerSideFilteredScan(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("appointments", ExampleSchemas.appointments());
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    AppointmentGenerator generator = new AppointmentGenerator(11, 10);
    List<Put> puts = new ArrayList<>();
    String physician = AppointmentGenerator.physicianId(3);
    String from = "20170101000000";
    String to = "20180701000000";
    TreeSet<String> expected = new TreeSet<>();
    for (int i = 0; i < APPOINTMENTS; i++) {
      Appointment a = generator.appointment(i);
      Put put = new Put(a.rowKey());
      for (Map.Entry<String, Map<String, String>> f : a.cells().entrySet()) {
        for (Map.Entry<String, String> c : f.getValue().entrySet()) {
          put.addColumn(toBytes(f.getKey()), toBytes(c.getKey()), toBytes(c.getValue()));
        }
      }
      puts.add(put);
      if (a.physicianId().equals(physician) && a.date().compareTo(from) >= 0 && a.date().compareTo(to) < 0) {
        expected.add(a.id() + " " + a.date());
      }
    }
    assertTrue(expected.size() > 10, "the query selects appointments: " + expected.size());
    try (Table table = secure.getTable(SecureFixture.name(schema))) {
      table.put(puts);
      byte[] appointment = toBytes("appointment");
      Scan scan = new Scan().setScanMetricsEnabled(true).setFilter(new FilterList(
          new SingleColumnValueFilter(toBytes("physician"), toBytes("physicianId"), CompareOperator.EQUAL,
              new BinaryComparator(toBytes(physician))),
          new SingleColumnValueFilter(appointment, toBytes("date"), CompareOperator.GREATER_OR_EQUAL,
              new BinaryComparator(toBytes("2017-01-01"))),
          new SingleColumnValueFilter(appointment, toBytes("date"), CompareOperator.LESS,
              new BinaryComparator(toBytes(to)))));
      TreeSet<String> got = new TreeSet<>();
      ScanMetrics metrics;
      try (ResultScanner s = table.getScanner(scan)) {
        for (Result r = s.next(); r != null; r = s.next()) {
          got.add(Bytes.toString(r.getRow()) + " " + Bytes.toString(r.getValue(appointment, toBytes("date"))));
        }
        metrics = s.getScanMetrics();
      }
      assertEquals(expected, got);
      // The region servers dropped the other rows: only the matches crossed the network.
      assertEquals(APPOINTMENTS - expected.size(), metrics.countOfRowsFiltered.get());
    }
  }
}
