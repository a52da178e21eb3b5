package dev.cryptoworker.layout.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** The version a SHARED read returns, for what four clusters (r = 1) returned of one cell. */
class NewestVersionTest {
  private static final boolean[] ALL = {true, true, true, true};

  /** Each cluster's newest cell: its timestamp, or 0 for none. */
  private static Cell[] holding(long... timestamps) {
    Cell[] cells = new Cell[timestamps.length];
    for (int i = 0; i < cells.length; i++) {
      cells[i] = timestamps[i] == 0 ? null
          : new KeyValue(Bytes.toBytes("row"), Bytes.toBytes("f"), Bytes.toBytes("q"), timestamps[i], new byte[1]);
    }
    return cells;
  }

  private static OptionalLong choose(Cell[] cells) {
    return NewestVersion.of(cells, ALL, 1);
  }

  @Test
  void aNewerVersionOnOneClusterIsSkipped() {
    assertEquals(OptionalLong.of(10), choose(holding(10, 99, 10, 10)));
  }

  @Test
  void aVersionOneClusterMissedIsReturned() {
    assertEquals(OptionalLong.of(20), choose(holding(20, 20, 20, 10)));
    assertEquals(OptionalLong.of(20), NewestVersion.of(holding(20, 20, 0, 0), new boolean[] {true, true, true, false}, 1));
  }

  @Test
  void aCellDeletedOnMostClustersIsAbsent() {
    assertEquals(OptionalLong.empty(), choose(holding(20, 0, 0, 0)));
    assertEquals(OptionalLong.empty(), choose(holding(0, 0, 0, 0)));
  }

  @Test
  void noVersionOlderThanOneAtMostRLackIsReturned() {
    // Newer versions on three clusters, each lacked by more than r: none of them was acknowledged,
    // and 30 (which the read then refuses for want of shares) is the newest one that may have been.
    assertEquals(OptionalLong.of(30), choose(holding(30, 31, 32, 10)));
    assertEquals(OptionalLong.of(31), choose(holding(31, 31, 32, 10)));
  }
}
