package dev.cryptoworker.coprocessor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
  void eachLaneAnswersOnceWithItsHighestStampedCount() {
    Random random = new Random(7);
    RegionCountLogs logs = new RegionCountLogs();
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

  @Test
  void malformedLogCellsAreRefusedAndOtherCellsIgnored() {
    KeyValue truncated = new KeyValue(Bytes.toBytes("batch"), FAMILY, CountLogCells.QUALIFIER, new byte[] {1, 2, 3});
    assertThrows(IllegalArgumentException.class, () -> RegionCountLogs.check(truncated));
    RegionCountLogs logs = new RegionCountLogs();
    logs.add(new KeyValue(Bytes.toBytes("row"), FAMILY, Bytes.toBytes("sse"), new byte[] {1, 2, 3}));
    assertEquals(0, logs.lanes());
  }
}
