package dev.cryptoworker.region;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegionRequestsTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aggregationRequestRoundTripsThroughTheEnvelope() {
    AggregationRequest sent = AggregationRequest.ofOneMeasure(AggregationRequest.Mode.ASHE, b("m"), b("amount"), b("m"), b("dept"));
    byte[] wire = RegionRequests.encode(sent);
    assertEquals(1, wire[1], "a request version 1 expresses goes as version 1, which earlier servers answer");
    AggregationRequest a = assertInstanceOf(AggregationRequest.class, RegionRequests.decode(wire));
    AggregationRequest.Measure m = a.measures().get(0);
    assertEquals(AggregationRequest.Mode.ASHE, m.mode());
    assertArrayEquals(b("m"), m.column().family());
    assertArrayEquals(b("amount"), m.column().qualifier());
    assertArrayEquals(b("dept"), a.groups().get(0).qualifier());
    assertFalse(a.countsRows() || a.formsNullGroups());
  }

  @Test
  void severalMeasuresGroupsAndTheRowCountRoundTripAsVersionTwo() {
    AggregationRequest sent = new AggregationRequest(
        List.of(measure(AggregationRequest.Mode.ASHE, "amount"), measure(AggregationRequest.Mode.PLAIN, "visits")),
        List.of(column("city"), column("tag")), true, true);
    byte[] wire = RegionRequests.encode(sent);
    assertEquals(2, wire[1]);
    AggregationRequest a = (AggregationRequest) RegionRequests.decode(wire);
    assertEquals(2, a.measures().size());
    assertEquals(AggregationRequest.Mode.PLAIN, a.measures().get(1).mode());
    assertArrayEquals(b("tag"), a.groups().get(1).qualifier());
    assertTrue(a.countsRows() && a.formsNullGroups());
    for (int cut = 1; cut < wire.length; cut++) {
      byte[] truncated = Arrays.copyOf(wire, cut);
      assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(truncated), "cut at " + cut);
    }
    byte[] badFlags = wire.clone();
    badFlags[badFlags.length - 1] = 4;
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(badFlags));
    AggregationRequest rowsOnly = new AggregationRequest(List.of(), List.of(), true, false);
    assertEquals(0, ((AggregationRequest) RegionRequests.decode(RegionRequests.encode(rowsOnly))).measures().size());
    assertThrows(IllegalArgumentException.class, () -> new AggregationRequest(List.of(), List.of(), false, false));
  }

  @Test
  void responseQualifiersCarryTheGroupAndForAsheTheKeyId() {
    AggregationRequest ashe = AggregationRequest.ofOneMeasure(AggregationRequest.Mode.ASHE, b("f"), b("q"), b("f"), b("g"));
    byte[] q = ashe.responseQualifier(List.of(b("cardiology")), 0, 0x01020304);
    assertEquals(b("cardiology").length + 4, q.length);
    assertArrayEquals(b("cardiology"), ashe.responseKey(q).group().get(0));
    assertThrows(IllegalArgumentException.class, () -> ashe.responseKey(new byte[3]));
    AggregationRequest plain = AggregationRequest.ofOneMeasure(AggregationRequest.Mode.PLAIN, b("f"), b("q"), b("f"), b("g"));
    assertArrayEquals(b("x"), plain.responseKey(plain.responseQualifier(List.of(b("x")), 0, 7)).group().get(0));
  }

  @Test
  void versionTwoResponseQualifiersCarryTheGroupTupleWithAbsentValuesAndTheSlot() {
    AggregationRequest r = new AggregationRequest(List.of(measure(AggregationRequest.Mode.ASHE, "amount")),
        List.of(column("city"), column("tag")), true, true);
    java.util.List<byte[]> group = java.util.Arrays.asList(null, b("odd"));
    AggregationRequest.ResponseKey key = r.responseKey(r.responseQualifier(group, r.rowCountSlot(), 0));
    assertEquals(null, key.group().get(0));
    assertArrayEquals(b("odd"), key.group().get(1));
    assertEquals(1, key.slot());
    // a value that starts like an absent marker is still the value (lengths are explicit)
    java.util.List<byte[]> zero = List.of(new byte[] {0}, new byte[0]);
    AggregationRequest.ResponseKey z = r.responseKey(r.responseQualifier(zero, 0, 9));
    assertArrayEquals(new byte[] {0}, z.group().get(0));
    assertArrayEquals(new byte[0], z.group().get(1));
    byte[] beyond = r.responseQualifier(group, 2, 0);
    assertThrows(IllegalArgumentException.class, () -> r.responseKey(beyond));
    AggregationRequest noNulls = new AggregationRequest(r.measures(), r.groups(), true, false);
    assertThrows(IllegalArgumentException.class, () -> noNulls.responseKey(r.responseQualifier(group, 0, 0)));
  }

  private static AggregationRequest.Measure measure(AggregationRequest.Mode mode, String qualifier) {
    return new AggregationRequest.Measure(mode, column(qualifier));
  }

  private static AggregationRequest.Column column(String qualifier) {
    return new AggregationRequest.Column(b("f"), b(qualifier));
  }

  @Test
  void counterTakeRequestRoundTripsAndRefusesMalformedForms() {
    CounterTakeRequest sent = new CounterTakeRequest(b("c"), b("sse"), List.of(
        new CounterTakeRequest.Take(b("row-a"), 3, -7L), new CounterTakeRequest.Take(b("row-b"), 1, null)));
    CounterTakeRequest got = assertInstanceOf(CounterTakeRequest.class, RegionRequests.decode(RegionRequests.encode(sent)));
    assertArrayEquals(b("c"), got.family());
    assertArrayEquals(b("sse"), got.qualifier());
    assertEquals(2, got.takes().size());
    assertArrayEquals(b("row-a"), got.takes().get(0).row());
    assertEquals(3, got.takes().get(0).amount());
    assertEquals(-7L, got.takes().get(0).initial());
    assertEquals(null, got.takes().get(1).initial());
    assertTrue(CounterTakeRequest.isAnswer(CounterTakeRequest.ANSWER_QUALIFIER));
    assertFalse(CounterTakeRequest.isAnswer(b("sse")));

    byte[] good = RegionRequests.encode(sent);
    for (int cut = 1; cut < good.length; cut++) {
      byte[] truncated = Arrays.copyOf(good, cut);
      assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(truncated), "cut at " + cut);
    }
    byte[] trailing = Arrays.copyOf(good, good.length + 1);
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(trailing));
    byte[] badFlag = good.clone();
    badFlag[good.length - 9] = 2; // the second take's has-initial flag
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(badFlag));
    assertThrows(IllegalArgumentException.class, () -> new CounterTakeRequest.Take(b("r"), 0, null));
    assertThrows(IllegalArgumentException.class, () -> new CounterTakeRequest(b("c"), b("q"), List.of()));
  }

  @Test
  void packedCounterTakesRoundTripAndMalformedAnswersAreRefused() {
    CounterTakeRequest sent = new CounterTakeRequest(b("c"), b("sse"), List.of(
        new CounterTakeRequest.Take(b("row-a"), 3, -7L), new CounterTakeRequest.Take(b("row-b"), 1, null)), true);
    CounterTakeRequest got = assertInstanceOf(CounterTakeRequest.class, RegionRequests.decode(RegionRequests.encode(sent)));
    assertTrue(got.packedAnswer());
    assertFalse(((CounterTakeRequest) RegionRequests.decode(RegionRequests.encode(
        new CounterTakeRequest(b("c"), b("sse"), sent.takes())))).packedAnswer());

    byte[] answer = CounterTakeRequest.packAnswer(new int[] {1, 0}, new long[] {-5L, 42L});
    long[] values = new long[2];
    CounterTakeRequest.unpackAnswer(answer, 2, (position, value) -> values[position] = value);
    assertArrayEquals(new long[] {42L, -5L}, values);
    CounterTakeRequest.AnswerSink ignore = (position, value) -> { };
    assertThrows(IllegalArgumentException.class, () -> CounterTakeRequest.unpackAnswer(answer, 1, ignore),
        "a position outside the request");
    for (int cut = 0; cut < answer.length; cut++) {
      byte[] truncated = Arrays.copyOf(answer, cut);
      assertThrows(IllegalArgumentException.class, () -> CounterTakeRequest.unpackAnswer(truncated, 2, ignore),
          "cut at " + cut);
    }
  }

  @Test
  void malformedRequestsAreRefused() {
    byte[] good = RegionRequests.encode(
        AggregationRequest.ofOneMeasure(AggregationRequest.Mode.ASHE, b("f"), b("q"), new byte[0], new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(null));
    byte[] unknownKind = good.clone();
    unknownKind[0] = 99;
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(unknownKind));
    for (int cut = 1; cut < good.length; cut++) {
      byte[] truncated = Arrays.copyOf(good, cut);
      assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(truncated), "cut at " + cut);
    }
    byte[] badMode = good.clone();
    badMode[2] = 7;
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(badMode));
    byte[] trailing = Arrays.copyOf(good, good.length + 1);
    assertThrows(IllegalArgumentException.class, () -> RegionRequests.decode(trailing));
  }

  @Test
  void legacyAttributeBodyIsAnAggregationRequest() {
    AggregationRequest sent = AggregationRequest.ofOneMeasure(AggregationRequest.Mode.PLAIN, b("f"), b("q"), new byte[0], new byte[0]);
    AggregationRequest a = AggregationRequest.parse(sent.toBytes());
    assertArrayEquals(b("q"), a.measures().get(0).column().qualifier());
  }
}
