package dev.cryptoworker.client.cell;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.cryptobox.RangeBounds;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.junit.jupiter.api.Test;

/** Filter translation, plaintext filter in, stored filter out: no HBase. */
class FilterTranslatorTest {
  private static final byte[] F = toBytes("f");

  private static SingleColumnValueFilter scvf(String column, CompareOperator op, byte[] value) {
    SingleColumnValueFilter f = new SingleColumnValueFilter(F, toBytes(column), op, new BinaryComparator(value));
    f.setFilterIfMissing(true);
    return f;
  }

  @Test
  void detEqualityBecomesEqualityOnTheCiphertext() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    FilterTranslator.Translation t = s.filters.translate(scvf("det", CompareOperator.EQUAL, toBytes("PT-1")), false);
    assertNull(t.clientResidual());
    SingleColumnValueFilter server = assertInstanceOf(SingleColumnValueFilter.class, t.serverFilter());
    assertEquals(CompareOperator.EQUAL, server.getCompareOperator());
    assertArrayEquals(s.codec.equalityOperands(F, toBytes("det"), toBytes("PT-1")).get(0), server.getComparator().getValue());
    assertTrue(server.getFilterIfMissing(), "filterIfMissing is kept");
    assertArrayEquals(s.codec.decodeValue(new byte[0], F, toBytes("det"), server.getComparator().getValue()), toBytes("PT-1"));
  }

  @Test
  void opeComparisonsBecomeComparisonsAgainstCiphertextBounds() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    byte[] v = toBytes(42L);
    RangeBounds b = s.codec.rangeBounds(F, toBytes("ope"), v).get(0);
    SingleColumnValueFilter le = assertInstanceOf(SingleColumnValueFilter.class,
        s.filters.translate(scvf("ope", CompareOperator.LESS_OR_EQUAL, v), false).serverFilter());
    assertEquals(CompareOperator.LESS, le.getCompareOperator());
    assertArrayEquals(b.upperExclusive(), le.getComparator().getValue());
    SingleColumnValueFilter gt = assertInstanceOf(SingleColumnValueFilter.class,
        s.filters.translate(scvf("ope", CompareOperator.GREATER, v), false).serverFilter());
    assertEquals(CompareOperator.GREATER_OR_EQUAL, gt.getCompareOperator());
    assertArrayEquals(b.upperExclusive(), gt.getComparator().getValue());
    FilterList eq = assertInstanceOf(FilterList.class,
        s.filters.translate(scvf("ope", CompareOperator.EQUAL, v), false).serverFilter());
    assertEquals(FilterList.Operator.MUST_PASS_ALL, eq.getOperator());
    assertEquals(2, eq.getFilters().size());
  }

  @Test
  void filterOperandsOfTheWrongTypeAreRefused() {
    SeamFixture s = new SeamFixture("DET");
    IllegalArgumentException ope = assertThrows(IllegalArgumentException.class,
        () -> s.filters.translate(scvf("ope", CompareOperator.LESS, toBytes("not a long")), false));
    assertTrue(ope.getMessage().contains("f:ope (OPE)") && ope.getMessage().contains("long"), ope.getMessage());
    IllegalArgumentException det = assertThrows(IllegalArgumentException.class,
        () -> s.filters.translate(scvf("det", CompareOperator.EQUAL, new byte[] {(byte) 0xC3, (byte) 0x28}), false));
    assertTrue(det.getMessage().contains("UTF-8"), det.getMessage());
  }

  @Test
  void plainFiltersPassUnchangedWhateverTheComparator() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    SingleColumnValueFilter regex = new SingleColumnValueFilter(F, toBytes("plain"), CompareOperator.EQUAL,
        new RegexStringComparator("a.*"));
    SingleColumnValueFilter server = assertInstanceOf(SingleColumnValueFilter.class,
        s.filters.translate(regex, false).serverFilter());
    assertInstanceOf(RegexStringComparator.class, server.getComparator());
  }

  @Test
  void whatCannotRunOnCiphertextIsRefusedNamingTableColumnAndBox() {
    SeamFixture s = new SeamFixture("DET");
    UnsupportedSecureOperationException std = assertThrows(UnsupportedSecureOperationException.class,
        () -> s.filters.translate(scvf("other", CompareOperator.LESS, toBytes("x")), false));
    assertTrue(std.getMessage().contains("seams") && std.getMessage().contains("f:other (STD)"), std.getMessage());
    UnsupportedSecureOperationException det = assertThrows(UnsupportedSecureOperationException.class,
        () -> s.filters.translate(scvf("det", CompareOperator.GREATER, toBytes("x")), false));
    assertTrue(det.getMessage().contains("DET supports EQUAL and NOT_EQUAL"), det.getMessage());
    UnsupportedSecureOperationException ashe = assertThrows(UnsupportedSecureOperationException.class,
        () -> s.filters.translate(scvf("amount", CompareOperator.EQUAL, toBytes(1L)), false));
    assertTrue(ashe.getMessage().contains("f:amount (ASHE)"), ashe.getMessage());
    assertThrows(UnsupportedSecureOperationException.class,
        () -> s.filters.translate(new PrefixFilter(toBytes("P")), false));
  }

  @Test
  void withClientSideEvaluationAnAndNarrowsOnTheServerAndKeepsTheOriginalAsResidual() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    Filter original = new FilterList(FilterList.Operator.MUST_PASS_ALL,
        scvf("det", CompareOperator.EQUAL, toBytes("PT-1")), scvf("other", CompareOperator.LESS, toBytes("x")));
    FilterTranslator.Translation t = s.filters.translate(original, true);
    assertSame(original, t.clientResidual());
    FilterList server = assertInstanceOf(FilterList.class, t.serverFilter());
    assertEquals(1, server.getFilters().size());
    SingleColumnValueFilter det = assertInstanceOf(SingleColumnValueFilter.class, server.getFilters().get(0));
    assertArrayEquals(toBytes("det"), det.getQualifier());
  }

  @Test
  void rowKeyFiltersRunOnTheServerOnlyOverPlainRowKeys() throws Exception {
    PrefixFilter prefix = new PrefixFilter(toBytes("P"));
    assertSame(prefix, new SeamFixture("PLAIN").filters.translate(prefix, false).serverFilter());
    List.of("DET", "OPE", "STD").forEach(box -> assertThrows(UnsupportedSecureOperationException.class,
        () -> new SeamFixture(box).filters.translate(prefix, false), box));
  }
}
