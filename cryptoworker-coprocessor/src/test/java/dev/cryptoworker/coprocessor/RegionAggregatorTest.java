package dev.cryptoworker.coprocessor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.cryptobox.ashe.AsheSum;
import dev.cryptoworker.region.AggregationRequest;
import dev.cryptoworker.sharing.PrimeShareSum;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.SecretSharings;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ByteBufferKeyValue;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The aggregation handler on cells, without a region server: keyless ciphertext algebra only. */
class RegionAggregatorTest {
  private static final byte[] F = Bytes.toBytes("m");
  private static final byte[] AMOUNT = Bytes.toBytes("amount");
  private static final byte[] DEPT = Bytes.toBytes("dept");

  private static List<Cell> row(String key, Object... columnsAndValues) {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < columnsAndValues.length; i += 2) {
      cells.add(new KeyValue(Bytes.toBytes(key), F, (byte[]) columnsAndValues[i], 1L, (byte[]) columnsAndValues[i + 1]));
    }
    return cells;
  }

  private static AggregationRequest ashe(boolean grouped) {
    return AggregationRequest.ofOneMeasure(AggregationRequest.Mode.ASHE, F, AMOUNT,
        grouped ? F : new byte[0], grouped ? DEPT : new byte[0]);
  }

  /** Two groups: values go straight to their sums; a hundred: they are held and sorted in (GroupedAsheSums). */
  @ParameterizedTest
  @ValueSource(ints = {2, 100})
  void asheCiphertextsAreAddedModTwoToTheSixtyFourPerGroupAndKeyVersion(int groups) throws Exception {
    RegionAggregator a = new RegionAggregator(ashe(true));
    Map<String, long[]> expected = new HashMap<>(); // group/key -> {ciphertext sum, count}
    long id = 1;
    int rows = 25 * groups;
    for (int i = 0; i < rows; i++) {
      String dept = groups == 2 ? (i % 3 == 0 ? "cardio" : "neuro") : "dept-" + (i * 7919 % groups);
      int keyId = i < rows * 4 / 5 ? 7 : 8; // a rotation part-way
      long c = Long.MAX_VALUE - i; // sums overflow: must wrap
      long nonce = i % 4 == 0 ? 0 : 1_000 + i % 3; // legacy cells and three leases, interleaved
      a.add(row("r" + i, AMOUNT, new AsheCell(keyId, c, nonce, id++).toBytes(), DEPT, Bytes.toBytes(dept)));
      long[] e = expected.computeIfAbsent(dept + "/" + keyId, k -> new long[2]);
      e[0] += c;
      e[1]++;
    }
    a.add(row("no-measure", DEPT, Bytes.toBytes("cardio")));
    a.add(row("no-group", AMOUNT, new AsheCell(7, 1, 1_000, id++).toBytes()));
    List<Cell> result = a.result();
    assertEquals(expected.size(), result.size());
    for (int i = 1; i < result.size(); i++) {
      assertTrue(CellComparator.getInstance().compare(result.get(i - 1), result.get(i)) < 0, "results in qualifier order");
    }
    for (Cell c : result) {
      byte[] q = CellUtil.cloneQualifier(c);
      String group = Bytes.toString(ashe(true).responseKey(q).group().get(0));
      AsheSum sum = AsheSum.parse(CellUtil.cloneValue(c));
      long[] e = expected.get(group + "/" + sum.keyId());
      assertEquals(e[0], sum.ciphertext(), group);
      assertEquals(e[1], sum.count(), group);
      assertEquals(e[1], sum.ids().size(), group);
      assertArrayEquals(Bytes.toBytes("r0"), CellUtil.cloneRow(c), "result row is the first selected row");
      assertArrayEquals(F, CellUtil.cloneFamily(c));
    }
  }

  @Test
  void severalMeasuresRowCountsAndNullGroupsComeFromOnePass() throws Exception {
    byte[] visits = Bytes.toBytes("visits");
    byte[] tag = Bytes.toBytes("tag");
    AggregationRequest request = new AggregationRequest(
        List.of(new AggregationRequest.Measure(AggregationRequest.Mode.ASHE, new AggregationRequest.Column(F, AMOUNT)),
            new AggregationRequest.Measure(AggregationRequest.Mode.PLAIN, new AggregationRequest.Column(F, visits))),
        List.of(new AggregationRequest.Column(F, DEPT), new AggregationRequest.Column(F, tag)), true, true);
    RegionAggregator a = new RegionAggregator(request);
    a.add(row("r1", AMOUNT, new AsheCell(7, 10, 0, 1).toBytes(), DEPT, Bytes.toBytes("cardio"), tag, Bytes.toBytes("x"),
        visits, Bytes.toBytes(3L)));
    a.add(row("r2", AMOUNT, new AsheCell(7, 20, 0, 2).toBytes(), DEPT, Bytes.toBytes("cardio"), tag, Bytes.toBytes("x")));
    a.add(row("r3", AMOUNT, new AsheCell(7, 5, 0, 3).toBytes(), tag, Bytes.toBytes("x"), visits, Bytes.toBytes(4L)));
    a.add(row("r4", tag, Bytes.toBytes("y")));
    Map<String, String> got = new HashMap<>(); // "dept/tag/slot" -> partial
    for (Cell c : a.result()) {
      AggregationRequest.ResponseKey key = request.responseKey(CellUtil.cloneQualifier(c));
      String group = key.group().stream().map(g -> g == null ? "null" : Bytes.toString(g)).toList() + "/" + key.slot();
      byte[] v = CellUtil.cloneValue(c);
      String partial = switch (key.slot()) {
        case 0 -> AsheSum.parse(v).ciphertext() + "x" + AsheSum.parse(v).count();
        case 1 -> Bytes.toLong(v, 0) + "x" + Bytes.toLong(v, 8);
        default -> Long.toString(Bytes.toLong(v));
      };
      assertEquals(null, got.put(group, partial), group);
    }
    assertEquals(Map.of("[cardio, x]/0", "30x2", "[cardio, x]/1", "3x1", "[cardio, x]/2", "2",
        "[null, x]/0", "5x1", "[null, x]/1", "4x1", "[null, x]/2", "1", "[null, y]/2", "1"), got);
  }

  @Test
  void plainSumsAddLongsAndIntsAndCount() throws Exception {
    RegionAggregator a = new RegionAggregator(
        AggregationRequest.ofOneMeasure(AggregationRequest.Mode.PLAIN, F, AMOUNT, new byte[0], new byte[0]));
    a.add(row("a", AMOUNT, Bytes.toBytes(40L)));
    a.add(row("b", AMOUNT, Bytes.toBytes(-2)));
    a.add(row("c", DEPT, Bytes.toBytes("x")));
    List<Cell> result = a.result();
    assertEquals(1, result.size());
    ByteBuffer v = ByteBuffer.wrap(CellUtil.cloneValue(result.get(0)));
    assertEquals(38, v.getLong());
    assertEquals(2, v.getLong());
  }

  @Test
  void newestVersionOfTheMeasureIsTheOneAdded() throws Exception {
    RegionAggregator a = new RegionAggregator(
        AggregationRequest.ofOneMeasure(AggregationRequest.Mode.PLAIN, F, AMOUNT, new byte[0], new byte[0]));
    a.add(row("a", AMOUNT, Bytes.toBytes(5L), AMOUNT, Bytes.toBytes(1000L)));
    assertEquals(5, ByteBuffer.wrap(CellUtil.cloneValue(a.result().get(0))).getLong());
  }

  /**
   * Cells in a block's buffer (off the heap, at an offset, the buffer little-endian) sum as cells
   * on the heap: values are read where they lie, big-endian.
   */
  @Test
  void cellsInBlockBuffersAreReadWhereTheyLie() throws Exception {
    RegionAggregator onHeap = new RegionAggregator(ashe(false));
    RegionAggregator inBuffers = new RegionAggregator(ashe(false));
    RegionAggregator plainOnHeap = new RegionAggregator(
        AggregationRequest.ofOneMeasure(AggregationRequest.Mode.PLAIN, F, AMOUNT, new byte[0], new byte[0]));
    RegionAggregator plainInBuffers = new RegionAggregator(
        AggregationRequest.ofOneMeasure(AggregationRequest.Mode.PLAIN, F, AMOUNT, new byte[0], new byte[0]));
    long expected = 0;
    for (int i = 0; i < 20; i++) {
      expected += Long.MAX_VALUE - i; // wraps: addition mod 2^64
      List<Cell> asheRow = row("r" + i, AMOUNT, new AsheCell(7, Long.MAX_VALUE - i, 9, i + 1).toBytes());
      onHeap.add(asheRow);
      inBuffers.add(inBlockBuffer(asheRow));
      List<Cell> plainRow = row("r" + i, AMOUNT, i % 2 == 0 ? Bytes.toBytes(-5L * i) : Bytes.toBytes(3 * i));
      plainOnHeap.add(plainRow);
      plainInBuffers.add(inBlockBuffer(plainRow));
    }
    assertArrayEquals(CellUtil.cloneValue(onHeap.result().get(0)), CellUtil.cloneValue(inBuffers.result().get(0)));
    assertArrayEquals(CellUtil.cloneValue(plainOnHeap.result().get(0)), CellUtil.cloneValue(plainInBuffers.result().get(0)));
    AsheSum sum = AsheSum.parse(CellUtil.cloneValue(inBuffers.result().get(0)));
    assertEquals(expected, sum.ciphertext());
    assertEquals(20, sum.count());
  }

  /** {@code cells} copied into one direct, little-endian buffer, each at an offset, as a block's cells are. */
  private static List<Cell> inBlockBuffer(List<Cell> cells) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : cells) {
      KeyValue kv = (KeyValue) c;
      ByteBuffer block = ByteBuffer.allocateDirect(kv.getLength() + 13).order(ByteOrder.LITTLE_ENDIAN);
      block.position(13);
      block.put(kv.getBuffer(), kv.getOffset(), kv.getLength());
      out.add(new ByteBufferKeyValue(block, 13, kv.getLength()));
    }
    return out;
  }

  @Test
  void noSelectedRowGivesNoResult() throws Exception {
    assertTrue(new RegionAggregator(ashe(false)).result().isEmpty());
  }

  @Test
  void malformedValuesAndRepeatedIdentifiersAreRefusedNamingTheRow() throws Exception {
    RegionAggregator a = new RegionAggregator(ashe(false));
    DoNotRetryIOException e = assertThrows(DoNotRetryIOException.class,
        () -> a.add(row("bad-row", AMOUNT, Bytes.toBytes("plaintext?"))));
    assertTrue(e.getMessage().contains("bad-row") && e.getMessage().contains("m:amount"), e.getMessage());

    // One group: values go straight to their sum, and a repeat is refused as it is added.
    RegionAggregator b = new RegionAggregator(ashe(false));
    b.add(row("r1", AMOUNT, new AsheCell(7, 1, 0, 42).toBytes()));
    b.add(row("r2", AMOUNT, new AsheCell(7, 1, 5, 42).toBytes())); // the same identifier under another nonce
    b.add(row("r3", AMOUNT, new AsheCell(7, 1, 6, 42).toBytes()));
    assertThrows(DoNotRetryIOException.class, () -> b.add(row("r4", AMOUNT, new AsheCell(7, 2, 5, 42).toBytes())));
    assertThrows(DoNotRetryIOException.class, () -> b.add(row("r5", AMOUNT, new AsheCell(7, 2, 0, 42).toBytes())));

    // A 29-byte value whose nonce is 0 is no ASHE cell of any version: refused, not added as one.
    byte[] zeroNonce = ByteBuffer.allocate(AsheCell.LEASED_LENGTH).put((byte) 1).putInt(7).putLong(1).putLong(0)
        .putLong(43).array();
    DoNotRetryIOException malformed = assertThrows(DoNotRetryIOException.class,
        () -> b.add(row("zero-nonce", AMOUNT, zeroNonce)));
    assertTrue(malformed.getMessage().contains("zero-nonce") && malformed.getMessage().contains("lease nonce 0"),
        malformed.getMessage());
    assertThrows(DoNotRetryIOException.class, () -> b.add(row("r6", AMOUNT, new byte[AsheCell.LEASED_LENGTH + 1])));

    // Identifiers a scan meets out of order are checked together when the region answers.
    RegionAggregator c = new RegionAggregator(ashe(false));
    c.add(row("r7", AMOUNT, new AsheCell(7, 1, 5, 50).toBytes()));
    c.add(row("r8", AMOUNT, new AsheCell(7, 1, 5, 40).toBytes()));
    c.add(row("r9", AMOUNT, new AsheCell(7, 1, 5, 40).toBytes()));
    DoNotRetryIOException reused = assertThrows(DoNotRetryIOException.class, c::result);
    assertTrue(reused.getMessage().contains("ASHE identifier reused in this region"), reused.getMessage());

    RegionAggregator plain = new RegionAggregator(
        AggregationRequest.ofOneMeasure(AggregationRequest.Mode.PLAIN, F, AMOUNT, new byte[0], new byte[0]));
    assertThrows(DoNotRetryIOException.class, () -> plain.add(row("r", AMOUNT, new byte[3])));
  }

  /**
   * Each of four "clusters" adds its own SHAMIR_P127 shares in two regions; the clusters' partials
   * decode to the exact sum of negative and extreme values.
   */
  @Test
  void primeFieldSharesAreAddedPerClusterIntoSharesOfTheSum() throws Exception {
    SecretSharing sharing = SecretSharings.create(SharingKind.SHAMIR_P127, new SharingParameters(4, 1, 1), null);
    AggregationRequest request = AggregationRequest.ofOneMeasure(AggregationRequest.Mode.SHAMIR_P127, F, AMOUNT, new byte[0],
        new byte[0]);
    RegionAggregator[][] regions = new RegionAggregator[4][2];
    for (RegionAggregator[] cluster : regions) {
      cluster[0] = new RegionAggregator(request);
      cluster[1] = new RegionAggregator(request);
    }
    long[] values = {Long.MAX_VALUE, Long.MAX_VALUE, -5, Long.MIN_VALUE, 1_000_000_007L, -1};
    BigInteger expected = BigInteger.ZERO;
    for (int i = 0; i < values.length; i++) {
      byte[][] shares = sharing.split(Bytes.toBytes(values[i]), null);
      for (int c = 0; c < 4; c++) {
        regions[c][i % 2].add(row("r" + i, AMOUNT, shares[c], DEPT, Bytes.toBytes("ignored")));
      }
      expected = expected.add(BigInteger.valueOf(values[i]));
    }
    Map<Integer, PrimeShareSum> partials = new HashMap<>();
    for (int c = 0; c < 4; c++) {
      PrimeShareSum cluster = new PrimeShareSum();
      for (RegionAggregator region : regions[c]) {
        List<Cell> result = region.result();
        assertEquals(1, result.size());
        assertArrayEquals(new byte[0], CellUtil.cloneQualifier(result.get(0)));
        cluster = cluster.plus(PrimeShareSum.parse(CellUtil.cloneValue(result.get(0))));
      }
      assertEquals(c, cluster.index());
      assertEquals(values.length, cluster.count());
      partials.put(c, cluster);
    }
    assertEquals(expected, sharing.sums().orElseThrow().combine(partials));
  }

  @Test
  void aGfShareInAPrimeFieldSumIsRefusedNamingRowAndColumn() throws Exception {
    byte[] gf = SecretSharings.create(SharingKind.SHAMIR, new SharingParameters(4, 1, 1), null)
        .split(Bytes.toBytes(3L), null)[0];
    RegionAggregator a = new RegionAggregator(
        AggregationRequest.ofOneMeasure(AggregationRequest.Mode.SHAMIR_P127, F, AMOUNT, new byte[0], new byte[0]));
    DoNotRetryIOException e = assertThrows(DoNotRetryIOException.class, () -> a.add(row("bad", AMOUNT, gf)));
    assertTrue(e.getMessage().contains("row bad, column m:amount") && e.getMessage().contains("not a SHAMIR_P127 share"),
        e.getMessage());
  }
}
