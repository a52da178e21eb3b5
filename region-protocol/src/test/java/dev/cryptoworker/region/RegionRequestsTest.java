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
    AggregationRequest sent = new AggregationRequest(AggregationRequest.Mode.ASHE, b("m"), b("amount"), b("m"), b("dept"));
    RegionRequest received = RegionRequests.decode(RegionRequests.encode(sent));
    AggregationRequest a = assertInstanceOf(AggregationRequest.class, received);
    assertEquals(AggregationRequest.Mode.ASHE, a.mode());
    assertArrayEquals(b("m"), a.family());
    assertArrayEquals(b("amount"), a.qualifier());
    assertArrayEquals(b("dept"), a.groupQualifier());
    assertTrue(a.grouped());
  }

  @Test
  void ungroupedPlainRequestRoundTrips() {
    AggregationRequest sent = new AggregationRequest(AggregationRequest.Mode.PLAIN, b("f"), b("q"), new byte[0], new byte[0]);
    AggregationRequest a = (AggregationRequest) RegionRequests.decode(RegionRequests.encode(sent));
    assertEquals(AggregationRequest.Mode.PLAIN, a.mode());
    assertFalse(a.grouped());
  }

  @Test
  void responseQualifiersCarryTheGroupAndForAsheTheKeyId() {
    AggregationRequest ashe = new AggregationRequest(AggregationRequest.Mode.ASHE, b("f"), b("q"), b("f"), b("g"));
    byte[] q = ashe.responseQualifier(b("cardiology"), 0x01020304);
    assertEquals(b("cardiology").length + 4, q.length);
    assertArrayEquals(b("cardiology"), ashe.groupOf(q));
    assertThrows(IllegalArgumentException.class, () -> ashe.groupOf(new byte[3]));
    AggregationRequest plain = new AggregationRequest(AggregationRequest.Mode.PLAIN, b("f"), b("q"), b("f"), b("g"));
    assertArrayEquals(b("x"), plain.groupOf(plain.responseQualifier(b("x"), 7)));
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
        new AggregationRequest(AggregationRequest.Mode.ASHE, b("f"), b("q"), new byte[0], new byte[0]));
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
    AggregationRequest sent = new AggregationRequest(AggregationRequest.Mode.PLAIN, b("f"), b("q"), new byte[0], new byte[0]);
    AggregationRequest a = AggregationRequest.parse(sent.toBytes());
    assertArrayEquals(b("q"), a.qualifier());
  }
}
