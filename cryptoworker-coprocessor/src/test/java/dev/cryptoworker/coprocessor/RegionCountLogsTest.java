package dev.cryptoworker.coprocessor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.region.CountLogCells;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The counter regions' index of count logs, against a map of the highest-stamped count per lane. */
class RegionCountLogsTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] FAMILY = Bytes.toBytes("f");

  private static KeyValue logCell(List<CountLogCells.LaneCount> counts) {
    return new KeyValue(Bytes.toBytes("batch"), FAMILY, CountLogCells.QUALIFIER, CountLogCells.encode(counts));
  }

  /**
   * Logs of a few names, many lanes each (more than a chunk holds for one of them), counts
   * arriving out of stamp order and lanes logged again: each name answers with each lane once, at
   * its highest stamp.
   */
  @Test
  void eachLaneAnswersOnceWithItsHighestStampedCount() throws Exception {
    Random random = new Random(7);
    RegionCountLogs logs = new RegionCountLogs(new RegionCountLogs.LaneBudget(1L << 30, 1));
    Map<String, CountLogCells.LaneCount> oracle = new HashMap<>();
    byte[][] names = new byte[4][16];
    for (byte[] name : names) {
      random.nextBytes(name);
    }
    int[] lanesOf = {1, 40, RegionCountLogs.LANES_PER_CHUNK + 300, 3};
    List<List<byte[]>> lanes = new ArrayList<>();
    for (int n = 0; n < names.length; n++) {
      List<byte[]> own = new ArrayList<>();
      for (int l = 0; l < lanesOf[n]; l++) {
        byte[] lane = new byte[12];
        random.nextBytes(lane);
        own.add(lane);
      }
      lanes.add(own);
    }
    for (int batch = 0; batch < 60; batch++) {
      List<CountLogCells.LaneCount> cell = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        int n = random.nextInt(names.length);
        byte[] lane = lanes.get(n).get(random.nextInt(lanes.get(n).size()));
        CountLogCells.LaneCount c = new CountLogCells.LaneCount(names[n], lane, random.nextInt(1000), random.nextLong());
        cell.add(c);
        oracle.merge(HEX.formatHex(names[n]) + HEX.formatHex(lane), c, (a, b) -> b.stamp() > a.stamp() ? b : a);
      }
      logs.add(logCell(cell));
    }
    Map<String, CountLogCells.LaneCount> answered = new HashMap<>();
    for (CountLogCells.LaneCount c : CountLogCells.decode(logs.answer(List.of(names)))) {
      String key = HEX.formatHex(c.name()) + HEX.formatHex(c.lane());
      assertEquals(null, answered.put(key, c), "a lane answered twice");
    }
    assertEquals(oracle.keySet(), answered.keySet());
    for (Map.Entry<String, CountLogCells.LaneCount> e : oracle.entrySet()) {
      assertEquals(e.getValue().stamp(), answered.get(e.getKey()).stamp(), e.getKey());
      assertEquals(e.getValue().maskedCount(), answered.get(e.getKey()).maskedCount(), e.getKey());
    }
    assertEquals(oracle.size(), logs.lanes());
    byte[] unknown = new byte[16];
    assertEquals(0, logs.answer(List.of(unknown)).length, "a name never logged has no lanes");
  }

  /**
   * The regions of one server share its budget: lanes count once however often they are logged,
   * a log cell that could pass the budget is not admitted, and a closed region gives its lanes back.
   */
  @Test
  void regionsOfOneServerHoldNoMoreLanesThanTheirHeapShare() {
    RegionCountLogs.LaneBudget budget = new RegionCountLogs.LaneBudget(RegionCountLogs.BYTES_PER_LANE * 100, 0.5);
    RegionCountLogs first = new RegionCountLogs(budget);
    RegionCountLogs second = new RegionCountLogs(budget);
    List<CountLogCells.LaneCount> thirty = lanes(30, 1);
    first.add(logCell(thirty));
    first.add(logCell(thirty)); // the same lanes again: nothing more held
    assertEquals(30, budget.held());
    assertTrue(second.admits(20));
    assertFalse(second.admits(21), "a cell that may hold 21 new lanes passes the budget of 50");
    second.add(logCell(lanes(20, 2)));
    assertEquals(50, budget.held());
    assertFalse(first.admits(1));
    first.release();
    assertEquals(20, budget.held(), "a closed region's lanes are given back");
    assertTrue(first.admits(30));
    assertThrows(IllegalArgumentException.class, () -> new RegionCountLogs.LaneBudget(1 << 20, 0));
  }

  /** {@code n} lanes of distinct names, drawn from {@code seed}. */
  private static List<CountLogCells.LaneCount> lanes(int n, long seed) {
    Random random = new Random(seed);
    List<CountLogCells.LaneCount> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] name = new byte[16];
      byte[] lane = new byte[12];
      random.nextBytes(name);
      random.nextBytes(lane);
      out.add(new CountLogCells.LaneCount(name, lane, i, i));
    }
    return out;
  }

  /** Compacted lanes go under a 4-byte prefix all of whose rows lie in the region. */
  @Test
  void anAnchorIsTheFirstFourBytePrefixWholeInTheRegion() {
    byte ff = (byte) 0xff;
    assertArrayEquals(new byte[] {0, 0, 0, 0}, RegionCountLogs.laneAnchor(new byte[0], new byte[] {0x10}));
    assertArrayEquals(new byte[] {0x10, 0, 0, 0}, RegionCountLogs.laneAnchor(new byte[] {0x10}, new byte[] {0x20}));
    assertArrayEquals(new byte[] {0x10, 0, 0, 0}, RegionCountLogs.laneAnchor(new byte[] {0x10, 0, 0, 0}, new byte[0]));
    assertArrayEquals(new byte[] {0x10, 0, 0, 0}, RegionCountLogs.laneAnchor(new byte[] {0x10}, new byte[] {0x10, 0, 0, 1}),
        "the next prefix is the region's end");
    assertArrayEquals(new byte[] {0x10, 0, 0, 1}, RegionCountLogs.laneAnchor(new byte[] {0x10, 0, 0, 0, 5}, new byte[] {0x20}),
        "a start inside a prefix: the next one");
    assertArrayEquals(new byte[] {ff, ff, ff, ff}, RegionCountLogs.laneAnchor(new byte[] {ff, ff, ff, ff}, new byte[0]));
    assertNull(RegionCountLogs.laneAnchor(new byte[] {0x10, 0, 0, 0, 5}, new byte[] {0x10, 0, 0, 1, 0}),
        "a region narrower than one prefix has none");
    assertNull(RegionCountLogs.laneAnchor(new byte[] {ff, ff, ff, ff, 1}, new byte[0]), "past the last prefix");
  }

  @Test
  void malformedLogCellsAreRefusedAndOtherCellsIgnored() {
    KeyValue truncated = new KeyValue(Bytes.toBytes("batch"), FAMILY, CountLogCells.QUALIFIER, new byte[] {1, 2, 3});
    assertThrows(IllegalArgumentException.class, () -> RegionCountLogs.check(truncated));
    RegionCountLogs logs = new RegionCountLogs(new RegionCountLogs.LaneBudget(1L << 30, 1));
    logs.add(new KeyValue(Bytes.toBytes("row"), FAMILY, Bytes.toBytes("sse"), new byte[] {1, 2, 3}));
    assertEquals(0, logs.lanes());
  }
}
