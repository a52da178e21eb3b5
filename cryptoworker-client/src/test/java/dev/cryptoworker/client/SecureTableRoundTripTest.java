package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Round trips through a real HBase for every box, value type and row-key box. */
@ExtendWith(SharedHBaseCluster.class)
class SecureTableRoundTripTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: PLAIN }\n"
          + "families:\n"
          + "  d:\n"
          + "    default: { box: STD }\n"
          + "    columns:\n"
          + "      std_bytes:  { box: STD }\n"
          + "      std_string: { box: STD, type: string }\n"
          + "      std_long:   { box: STD, type: long }\n"
          + "      std_int:    { box: STD, type: int }\n"
          + "      std_date:   { box: STD, type: date }\n"
          + "      det_bytes:  { box: DET }\n"
          + "      det_string: { box: DET, type: string }\n"
          + "      det_long:   { box: DET, type: long }\n"
          + "      det_int:    { box: DET, type: int }\n"
          + "      det_date:   { box: DET, type: date }\n"
          + "      plain:      { box: PLAIN }\n"
          + "  dyn:\n"
          + "    default: { box: DET }\n"
          + "    protectQualifiers: true\n";

  private static final byte[] D = toBytes("d");
  private static final byte[] DYN = toBytes("dyn");

  private static List<byte[][]> sampleCells() {
    List<byte[][]> cells = new ArrayList<>();
    for (String box : List.of("std", "det")) {
      cells.add(new byte[][] {toBytes(box + "_bytes"), new byte[] {0, 1, 2, (byte) 0xff}});
      cells.add(new byte[][] {toBytes(box + "_string"), toBytes("Ana Silva, 12 Rua Augusta")});
      cells.add(new byte[][] {toBytes(box + "_long"), toBytes(-42L)});
      cells.add(new byte[][] {toBytes(box + "_int"), toBytes(Integer.MIN_VALUE)});
      cells.add(new byte[][] {toBytes(box + "_date"), toBytes("2019-03-01")});
    }
    cells.add(new byte[][] {toBytes("plain"), toBytes("visible")});
    cells.add(new byte[][] {toBytes("unlisted"), toBytes("family default")});
    return cells;
  }

  @ParameterizedTest
  @ValueSource(strings = {"PLAIN", "DET"})
  void everyBoxAndTypeRoundTrips(String rowBox, Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.withRowKey(SecureFixture.schema("roundtrip", SCHEMA), rowBox);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    try (Table table = secure.getTable(SecureFixture.name(schema))) {
      byte[] row = toBytes("patient-1");
      Put put = new Put(row);
      for (byte[][] c : sampleCells()) {
        put.addColumn(D, c[0], c[1]);
      }
      put.addColumn(DYN, toBytes("A0001"), toBytes("2020-01-02"));
      put.addColumn(DYN, toBytes("A0002"), new byte[0]);
      table.put(put);

      Result r = table.get(new Get(row));
      assertArrayEquals(row, r.getRow());
      for (byte[][] c : sampleCells()) {
        assertArrayEquals(c[1], r.getValue(D, c[0]), Bytes.toString(c[0]));
      }
      assertArrayEquals(toBytes("2020-01-02"), r.getValue(DYN, toBytes("A0001")));
      assertArrayEquals(new byte[0], r.getValue(DYN, toBytes("A0002")));
      assertTrue(table.exists(new Get(row)));
      assertFalse(table.exists(new Get(toBytes("nobody"))));

      // Get of selected columns, including a protected qualifier.
      Result some = table.get(new Get(row).addColumn(D, toBytes("det_string")).addColumn(DYN, toBytes("A0002")));
      assertEquals(2, some.size());
      assertArrayEquals(toBytes("Ana Silva, 12 Rua Augusta"), some.getValue(D, toBytes("det_string")));

      // Full scan returns the same row.
      List<Result> all = SecureFixture.scanAll(table, new Scan());
      assertEquals(1, all.size());
      assertArrayEquals(row, all.get(0).getRow());
      assertEquals(r.size(), all.get(0).size());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"PLAIN", "DET"})
  void emptyAndOneMebibyteValues(String rowBox, Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.withRowKey(SecureFixture.schema("sizes", SCHEMA), rowBox);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    byte[] big = new byte[1 << 20];
    new Random(7).nextBytes(big);
    try (Table table = secure.getTable(SecureFixture.name(schema))) {
      byte[] row = toBytes("big");
      table.put(
          new Put(row)
              .addColumn(D, toBytes("std_bytes"), big)
              .addColumn(D, toBytes("det_bytes"), big)
              .addColumn(D, toBytes("std_string"), new byte[0])
              .addColumn(D, toBytes("det_string"), new byte[0])
              .addColumn(D, toBytes("plain"), new byte[0]));
      Result r = table.get(new Get(row));
      assertArrayEquals(big, r.getValue(D, toBytes("std_bytes")));
      assertArrayEquals(big, r.getValue(D, toBytes("det_bytes")));
      assertArrayEquals(new byte[0], r.getValue(D, toBytes("std_string")));
      assertArrayEquals(new byte[0], r.getValue(D, toBytes("det_string")));
      assertArrayEquals(new byte[0], r.getValue(D, toBytes("plain")));
      // An empty row key is HBase's "no row"; an empty value is still a value.
      assertTrue(r.containsColumn(D, toBytes("std_string")));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"PLAIN", "DET"})
  void versionsTimeRangesAndDeletes(String rowBox, Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.withRowKey(SecureFixture.schema("versions", SCHEMA), rowBox);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    byte[] row = toBytes("v");
    byte[] q = toBytes("std_string");
    byte[] dq = toBytes("A9");
    try (Table table = secure.getTable(SecureFixture.name(schema))) {
      for (long ts = 1; ts <= 3; ts++) {
        table.put(new Put(row).addColumn(D, q, ts, toBytes("value-" + ts)).addColumn(DYN, dq, ts, toBytes("d" + ts)));
      }
      Result latest = table.get(new Get(row));
      assertEquals("value-3", Bytes.toString(latest.getValue(D, q)));

      Result all = table.get(new Get(row).readAllVersions());
      List<Cell> versions = all.getColumnCells(D, q);
      assertEquals(3, versions.size());
      assertEquals("value-3", Bytes.toString(CellUtil.cloneValue(versions.get(0))));
      assertEquals("value-1", Bytes.toString(CellUtil.cloneValue(versions.get(2))));
      assertEquals(3, all.getColumnCells(DYN, dq).size());

      Result ranged = table.get(new Get(row).setTimeRange(1, 3).readAllVersions());
      assertEquals(2, ranged.getColumnCells(D, q).size());
      assertEquals("value-2", Bytes.toString(ranged.getValue(D, q)));

      List<Result> scanned = SecureFixture.scanAll(table, new Scan().readVersions(2).setTimeRange(2, 4));
      assertEquals(2, scanned.get(0).getColumnCells(D, q).size());

      // Delete the latest version of one column: the previous one shows.
      table.delete(new Delete(row).addColumn(D, q));
      assertEquals("value-2", Bytes.toString(table.get(new Get(row)).getValue(D, q)));
      // Delete all versions of a protected qualifier.
      table.delete(new Delete(row).addColumns(DYN, dq));
      assertNull(table.get(new Get(row)).getValue(DYN, dq));
      assertNotNull(table.get(new Get(row)).getValue(D, q));
      // Delete the whole row.
      table.delete(new Delete(row));
      assertTrue(table.get(new Get(row)).isEmpty());
      assertFalse(table.exists(new Get(row)));
    }
  }

  @Test
  void stdRowKeysSupportPutAndFullScanOnly(Connection hbase) throws IOException {
    TableSchema schema = SecureFixture.withRowKey(SecureFixture.schema("stdrow", SCHEMA), "STD");
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    try (Table table = secure.getTable(SecureFixture.name(schema))) {
      for (int i = 0; i < 5; i++) {
        table.put(new Put(toBytes("row-" + i)).addColumn(D, toBytes("std_string"), toBytes("v" + i)));
      }
      List<Result> all = SecureFixture.scanAll(table, new Scan());
      assertEquals(5, all.size());
      List<String> rows = new ArrayList<>();
      for (Result r : all) {
        rows.add(new String(r.getRow(), StandardCharsets.UTF_8));
        assertEquals("v" + rows.get(rows.size() - 1).substring(4), Bytes.toString(r.getValue(D, toBytes("std_string"))));
      }
      assertEquals(5, rows.stream().distinct().count());
      UnsupportedSecureOperationException e =
          assertThrows(UnsupportedSecureOperationException.class, () -> table.get(new Get(toBytes("row-1"))));
      assertTrue(e.getMessage().contains("STD row keys are randomized"), e.getMessage());
    }
  }
}
