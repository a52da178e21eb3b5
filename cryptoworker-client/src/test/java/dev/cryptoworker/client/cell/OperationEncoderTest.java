package dev.cryptoworker.client.cell;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Operation encoding, plaintext operation in, stored operation out: no HBase. */
class OperationEncoderTest {
  private static final byte[] F = toBytes("f");
  private static final byte[] S = toBytes("s");

  @Test
  void putEncryptsRowQualifiersAndValuesPerColumnAndLeavesPlainAlone() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    Put put = new Put(toBytes("P1"))
        .addColumn(F, toBytes("det"), toBytes("PT-1"))
        .addColumn(F, toBytes("plain"), toBytes("visible"))
        .addColumn(toBytes("q"), toBytes("appointment-7"), toBytes("notes"));
    Put stored = s.encoder.encode(put);
    assertArrayEquals(s.codec.encodeRow(toBytes("P1")), stored.getRow());
    assertFalse(Bytes.equals(toBytes("P1"), stored.getRow()));
    List<Cell> f = stored.getFamilyCellMap().get(F);
    assertEquals(2, f.size());
    for (Cell c : f) {
      byte[] q = CellUtil.cloneQualifier(c);
      byte[] v = CellUtil.cloneValue(c);
      if (Bytes.equals(q, toBytes("plain"))) {
        assertArrayEquals(toBytes("visible"), v);
      } else {
        assertFalse(Bytes.equals(toBytes("PT-1"), v));
        assertArrayEquals(toBytes("PT-1"), s.codec.decodeValue(toBytes("P1"), F, q, v));
      }
    }
    Cell q = stored.getFamilyCellMap().get(toBytes("q")).get(0);
    assertArrayEquals(toBytes("appointment-7"), s.codec.decodeQualifier(toBytes("P1"), toBytes("q"), CellUtil.cloneQualifier(q)));
  }

  @Test
  void splasheDimensionAndMeasureExpandToEveryIndicatorAndSplay() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    Put stored = s.encoder.encode(new Put(toBytes("P1"))
        .addColumn(S, toBytes("gender"), toBytes("F")).addColumn(S, toBytes("salary"), toBytes(1000L)));
    Set<String> qualifiers = new TreeSet<>();
    for (Cell c : stored.getFamilyCellMap().get(S)) {
      qualifiers.add(Bytes.toStringBinary(CellUtil.cloneQualifier(c)));
    }
    assertEquals(Set.of("gender\\x00F", "gender\\x00M", "salary", "salary\\x00F", "salary\\x00M"), qualifiers);
    assertThrows(IllegalArgumentException.class,
        () -> s.encoder.encode(new Put(toBytes("P1")).addColumn(S, toBytes("gender"), toBytes("F"))),
        "a dimension without its splayed measure would leave the splays stale");

    Delete d = s.encoder.encode(new Delete(toBytes("P1")).addColumns(S, toBytes("salary")));
    List<String> deleted = new ArrayList<>();
    for (Cell c : d.getFamilyCellMap().get(S)) {
      deleted.add(Bytes.toStringBinary(CellUtil.cloneQualifier(c)));
    }
    assertEquals(List.of("salary", "salary\\x00F", "salary\\x00M"), deleted);
  }

  @Test
  void pointOperationsOnRandomizedRowKeysAreRefused() {
    SeamFixture s = new SeamFixture("STD");
    UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
        () -> s.encoder.encode(new Get(toBytes("P1"))));
    assertTrue(e.getMessage().contains("row key (STD)"), e.getMessage());
  }

  @Test
  void checkAndMutateComparesAgainstThePrimaryCiphertextWhereStoredBytesAreDeterministic() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    Put action = new Put(toBytes("P1")).addColumn(F, toBytes("plain"), toBytes("x"));
    CheckAndMutate det = s.encoder.encode(CheckAndMutate.newBuilder(toBytes("P1"))
        .ifEquals(F, toBytes("det"), toBytes("PT-1")).build(action));
    assertArrayEquals(s.codec.equalityOperands(F, toBytes("det"), toBytes("PT-1")).get(0), det.getValue());
    CheckAndMutate ope = s.encoder.encode(CheckAndMutate.newBuilder(toBytes("P1"))
        .ifMatches(F, toBytes("ope"), CompareOperator.LESS, toBytes(5L)).build(action));
    assertArrayEquals(s.codec.encodeValue(new byte[0], F, toBytes("ope"), toBytes(5L)), ope.getValue());
    assertThrows(UnsupportedSecureOperationException.class, () -> s.encoder.encode(CheckAndMutate.newBuilder(toBytes("P1"))
        .ifMatches(F, toBytes("det"), CompareOperator.LESS, toBytes("PT-1")).build(action)));
    assertThrows(UnsupportedSecureOperationException.class, () -> s.encoder.encode(CheckAndMutate.newBuilder(toBytes("P1"))
        .ifEquals(F, toBytes("opec"), toBytes("2019-03-01")).build(action)), "OPE with companion: existence only");
    CheckAndMutate exists = s.encoder.encode(CheckAndMutate.newBuilder(toBytes("P1"))
        .ifNotExists(F, toBytes("other")).build(action));
    assertArrayEquals(toBytes("other"), exists.getQualifier());
  }

  @Test
  void incrementsRunOnlyOnPlainColumns() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    assertEquals(1, s.encoder.encode(new Increment(toBytes("P1")).addColumn(F, toBytes("plain"), 1)).size());
    UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
        () -> s.encoder.encode(new Increment(toBytes("P1")).addColumn(F, toBytes("amount"), 1)));
    assertTrue(e.getMessage().contains("f:amount (ASHE)"), e.getMessage());
  }

  @Test
  void rowKeysOfTheWrongTypeAreRefusedOnWrite() {
    SeamFixture s = new SeamFixture("OPE"); // type: string
    byte[] notUtf8 = {(byte) 0xC3, (byte) 0x28};
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> s.encoder.encode(new Put(notUtf8).addColumn(F, toBytes("plain"), toBytes("x"))));
    assertTrue(e.getMessage().contains("row key (OPE)") && e.getMessage().contains("UTF-8"), e.getMessage());
  }

  @Test
  void valuesOfTheWrongTypeAreRefusedBeforeEncryption() {
    SeamFixture s = new SeamFixture("DET");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> s.encoder.encode(new Put(toBytes("P1")).addColumn(F, toBytes("ope"), toBytes("not a long"))));
    assertTrue(e.getMessage().contains("f:ope (OPE)") && e.getMessage().contains("long"), e.getMessage());
  }
}
