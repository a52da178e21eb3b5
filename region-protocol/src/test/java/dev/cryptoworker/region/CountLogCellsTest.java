package dev.cryptoworker.region;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountLogCellsTest {
  private static byte[] filled(int length, int b) {
    byte[] out = new byte[length];
    Arrays.fill(out, (byte) b);
    return out;
  }

  @Test
  void logsRoundTripRecordByRecord() {
    List<CountLogCells.LaneCount> counts = List.of(
        new CountLogCells.LaneCount(filled(16, 1), filled(12, 2), 1_700_000_000_000L, -5L),
        new CountLogCells.LaneCount(filled(16, 3), filled(12, 4), 7L, Long.MAX_VALUE));
    byte[] value = CountLogCells.encode(counts);
    assertEquals(1 + 2 * CountLogCells.RECORD_BYTES, value.length);
    assertEquals(2, CountLogCells.records(value, 0, value.length));
    List<CountLogCells.LaneCount> back = CountLogCells.decode(value);
    for (int i = 0; i < counts.size(); i++) {
      assertArrayEquals(counts.get(i).name(), back.get(i).name());
      assertArrayEquals(counts.get(i).lane(), back.get(i).lane());
      assertEquals(counts.get(i).stamp(), back.get(i).stamp());
      assertEquals(counts.get(i).maskedCount(), back.get(i).maskedCount());
    }
    assertEquals(List.of(), CountLogCells.decode(new byte[0]), "an empty answer");
  }

  @Test
  void malformedLogsAreRefusedByReason() {
    byte[] good = CountLogCells.encode(List.of(new CountLogCells.LaneCount(filled(16, 1), filled(12, 2), 1, 2)));
    byte[] truncated = Arrays.copyOf(good, good.length - 1);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CountLogCells.records(truncated, 0, truncated.length))
        .getMessage().contains("records of 44 bytes, not 43 bytes"));
    byte[] otherVersion = good.clone();
    otherVersion[0] = 9;
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CountLogCells.decode(otherVersion))
        .getMessage().contains("starts with version 1"));
    assertThrows(IllegalArgumentException.class, () -> CountLogCells.records(new byte[] {1}, 0, 1), "no records");
    assertThrows(IllegalArgumentException.class, () -> CountLogCells.encode(List.of()));
    assertThrows(IllegalArgumentException.class, () -> new CountLogCells.LaneCount(filled(15, 0), filled(12, 0), 0, 0));
    // a compaction writes stamps as timestamps: a record's stamp must be one
    for (long stamp : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE}) {
      byte[] log = CountLogCells.encode(List.of(new CountLogCells.LaneCount(filled(16, 1), filled(12, 2), 5, 2),
          new CountLogCells.LaneCount(filled(16, 1), filled(12, 3), stamp, 2)));
      assertTrue(assertThrows(IllegalArgumentException.class, () -> CountLogCells.records(log, 0, log.length))
          .getMessage().contains("record 1's stamp is " + stamp + ", not a timestamp"), "stamp " + stamp);
    }
  }

  @Test
  void laneCountRequestsRoundTripAndRefuseMalformedNames() {
    LaneCountRequest request = new LaneCountRequest(List.of(filled(16, 7), filled(16, 8)));
    LaneCountRequest back = assertInstanceOf(LaneCountRequest.class, RegionRequests.decode(RegionRequests.encode(request)));
    assertEquals(2, back.names().size());
    assertArrayEquals(filled(16, 8), back.names().get(1));
    assertThrows(IllegalArgumentException.class, () -> new LaneCountRequest(List.of(filled(17, 0))));
    assertThrows(IllegalArgumentException.class, () -> new LaneCountRequest(List.of()));
    byte[] body = request.toBytes();
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> LaneCountRequest.parse(Arrays.copyOf(body, body.length - 1))).getMessage().contains("malformed"));
  }
}
