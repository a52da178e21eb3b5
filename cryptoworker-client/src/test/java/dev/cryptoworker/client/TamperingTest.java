package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.StoredKeyFingerprint;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A server that alters, truncates or moves stored cells is caught on read, never believed. */
@ExtendWith(SharedHBaseCluster.class)
class TamperingTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD }\n"
          + "    columns:\n"
          + "      det: { box: DET }\n"
          + "      other: { box: STD }\n"
          + "  dyn:\n"
          + "    default: { box: STD }\n"
          + "    protectQualifiers: true\n";
  private static final byte[] F = toBytes("f");
  private static final byte[] STD_Q = toBytes("std");
  private static final byte[] DET_Q = toBytes("det");

  private TableSchema schema;
  private KeyProvider keys;
  private SecureConnection secure;
  private Connection hbase;

  @BeforeEach
  void load(Connection hbase) throws IOException {
    this.hbase = hbase;
    schema = SecureFixture.schema("tamper", SCHEMA);
    keys = SecureFixture.randomKeys();
    secure = SecureFixture.createSecure(hbase, keys, schema);
    try (Table t = secure.getTable(SecureFixture.name(schema))) {
      for (String row : List.of("alice", "bob")) {
        t.put(new Put(toBytes(row))
            .addColumn(F, STD_Q, toBytes("secret of " + row))
            .addColumn(F, DET_Q, toBytes("id-" + row))
            .addColumn(toBytes("dyn"), toBytes("A1"), toBytes("visit")));
      }
    }
  }

  /** The stored cell of {@code row} in f:q, read raw. */
  private Cell rawCell(String row, byte[] qualifier) throws IOException {
    try (Table raw = hbase.getTable(SecureFixture.name(schema));
        Table sec = secure.getTable(SecureFixture.name(schema))) {
      byte[] storedRow = ((SecureTable) sec).unwrap() == null ? null : storedRow(row);
      return raw.get(new Get(storedRow)).getColumnLatestCell(F, qualifier);
    }
  }

  private byte[] storedRow(String row) throws IOException {
    return new TableCodec(schema, keys).encodeRow(toBytes(row));
  }

  private void rawPut(byte[] storedRow, byte[] qualifier, byte[] value) throws IOException {
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      raw.put(new Put(storedRow).addColumn(F, qualifier, value));
    }
  }

  private CellDecodingException readFails(String row) throws IOException {
    try (Table t = secure.getTable(SecureFixture.name(schema))) {
      return assertThrows(CellDecodingException.class, () -> t.get(new Get(toBytes(row))));
    }
  }

  @Test
  void bitFlipInStdValueIsDetected() throws IOException {
    byte[] value = CellUtil.cloneValue(rawCell("alice", STD_Q));
    value[value.length / 2] ^= 1;
    rawPut(storedRow("alice"), STD_Q, value);
    CellDecodingException e = readFails("alice");
    assertEquals(schema.tableName(), e.table());
    // The decoded row key is plaintext the DET box protects: messages name its stored key's fingerprint instead.
    assertEquals(StoredKeyFingerprint.of(storedRow("alice")), e.row());
    assertFalse(e.getMessage().contains("alice"), e.getMessage());
    assertFalse(e.getMessage().contains(Bytes.toStringBinary(storedRow("alice"))), e.getMessage());
    assertTrue(e.column().contains("f:std (STD)"), e.column());
    assertTrue(e.getMessage().contains("authentication failed"), e.getMessage());
  }

  @Test
  void bitFlipInDetValueIsDetected() throws IOException {
    byte[] value = CellUtil.cloneValue(rawCell("alice", DET_Q));
    value[value.length - 1] ^= 0x40;
    rawPut(storedRow("alice"), DET_Q, value);
    assertTrue(readFails("alice").column().contains("f:det (DET)"));
  }

  @Test
  void truncatedValueIsDetected() throws IOException {
    byte[] value = CellUtil.cloneValue(rawCell("bob", STD_Q));
    rawPut(storedRow("bob"), STD_Q, Arrays.copyOf(value, 10));
    CellDecodingException e = readFails("bob");
    assertTrue(e.reason().contains("truncated"), e.reason());
    rawPut(storedRow("bob"), STD_Q, Arrays.copyOf(value, value.length - 1));
    assertTrue(readFails("bob").reason().contains("authentication failed"));
  }

  @Test
  void cellMovedToAnotherRowIsDetected() throws IOException {
    byte[] alicesSecret = CellUtil.cloneValue(rawCell("alice", STD_Q));
    rawPut(storedRow("bob"), STD_Q, alicesSecret);
    CellDecodingException e = readFails("bob");
    assertEquals(StoredKeyFingerprint.of(storedRow("bob")), e.row());
    assertFalse(e.getMessage().contains("bob"), e.getMessage());
  }

  @Test
  void cellMovedToAnotherColumnIsDetected() throws IOException {
    byte[] secret = CellUtil.cloneValue(rawCell("alice", STD_Q));
    rawPut(storedRow("alice"), toBytes("other"), secret);
    assertTrue(readFails("alice").column().contains("f:other"));
  }

  @Test
  void replayOfAnOlderValueOfTheSameCellIsNotDetectable() throws IOException {
    // Documented limit: AEAD binds coordinates, not versions. Restoring an old ciphertext of the
    // same cell decrypts to the old value. This test pins that behaviour so docs/boxes.md stays true.
    byte[] old = CellUtil.cloneValue(rawCell("alice", STD_Q));
    try (Table t = secure.getTable(SecureFixture.name(schema))) {
      t.put(new Put(toBytes("alice")).addColumn(F, STD_Q, toBytes("new secret")));
      rawPut(storedRow("alice"), STD_Q, old);
      assertArrayEquals(toBytes("secret of alice"), t.get(new Get(toBytes("alice"))).getValue(F, STD_Q));
    }
  }

  @Test
  void forgedRowKeyIsDetectedByScans() throws IOException {
    rawPut(toBytes("forged-row"), STD_Q, CellUtil.cloneValue(rawCell("alice", STD_Q)));
    try (Table t = secure.getTable(SecureFixture.name(schema));
        ResultScanner s = t.getScanner(new Scan())) {
      CellDecodingException e =
          assertThrows(CellDecodingException.class, () -> {
            while (s.next() != null) {
              // drain until the forged row
            }
          });
      assertTrue(e.column().contains("row key (DET)"), e.column());
      // The iterator form reports the same exception as its cause.
      try (ResultScanner s2 = t.getScanner(new Scan())) {
        UncheckedIOException u = assertThrows(UncheckedIOException.class, () -> s2.forEach(r -> { }));
        assertTrue(u.getCause() instanceof CellDecodingException);
      }
    }
  }

  @Test
  void forgedProtectedQualifierIsDetected() throws IOException {
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      raw.put(new Put(storedRow("alice")).addColumn(toBytes("dyn"), toBytes("A2"), toBytes("x")));
    }
    CellDecodingException e = readFails("alice");
    assertTrue(e.column().contains("qualifier in family dyn"), e.column());
  }

  @Test
  void undecodableRowsStopScansByDefaultAndAreSkippedAndCountedWhenAsked() throws IOException {
    // A row written by a plain client: plaintext row key and value, in a protected table.
    try (Table raw = hbase.getTable(SecureFixture.name(schema))) {
      raw.put(new Put(toBytes("plain-row")).addColumn(F, DET_Q, toBytes("plain value")));
    }
    try (Table t = secure.getTable(SecureFixture.name(schema));
        ResultScanner s = t.getScanner(new Scan())) {
      assertThrows(CellDecodingException.class, () -> {
        while (s.next() != null) {
          // read until the bad row
        }
      });
    }
    SecureTable t = secure.getSecureTable(SecureFixture.name(schema));
    try (SecureResultScanner s = t.getScanner(SecureScans.skipUndecodableRows(new Scan()))) {
      List<String> rows = new ArrayList<>();
      for (Result r = s.next(); r != null; r = s.next()) {
        rows.add(Bytes.toString(r.getRow()));
      }
      assertEquals(Set.of("alice", "bob"), Set.copyOf(rows));
      assertEquals(1, s.skippedRows());
    }
    try (SecureConnection skipping = SecureConnection.wrap(hbase, keys, List.of(schema),
            SecureTableOptions.builder().skipUndecodableRows(true).build());
        SecureResultScanner s = skipping.getSecureTable(SecureFixture.name(schema)).getScanner(new Scan())) {
      int n = 0;
      while (s.next() != null) {
        n++;
      }
      assertEquals(2, n);
      assertEquals(1, s.skippedRows());
    }
    t.close();
  }

  @Test
  void wrongKeyIsRefusedBeforeAnyRead() {
    SecureConnection other = SecureConnection.wrap(hbase, SecureFixture.randomKeys(), List.of(schema));
    // A different key would encrypt row keys differently, so reads would simply find nothing: the
    // table's key check refuses the table instead.
    KeyMismatchException e = assertThrows(KeyMismatchException.class, () -> other.getTable(SecureFixture.name(schema)));
    assertTrue(e.getMessage().contains(schema.tableName()) && e.getMessage().contains("key id"), e.getMessage());
  }
}
