package dev.cryptoworker.client.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The one resumable row walk: checkpoints every N rows, resumes after their row with their counts. */
@ExtendWith(SharedHBaseCluster.class)
class RowWalkTest {
  private static final List<byte[]> ROWS = List.of(Bytes.toBytes("a"), Bytes.toBytes("b"), Bytes.toBytes("c"),
      Bytes.toBytes("d"), Bytes.toBytes("e"), Bytes.toBytes("f"), Bytes.toBytes("g"));

  /** The rows after {@code after}, as a table scan would give them. */
  private static RowWalk.Rows<byte[]> rowsAfter(byte[] after) {
    Iterator<byte[]> it = ROWS.stream().filter(r -> after == null || Bytes.compareTo(r, after) > 0).iterator();
    return new RowWalk.Rows<>() {
      @Override
      public byte[] next() {
        return it.hasNext() ? it.next() : null;
      }

      @Override
      public void close() {}
    };
  }

  private static String name() {
    return "test/" + SharedHBaseCluster.uniqueTableName("walk").getNameAsString();
  }

  @Test
  void aFailedWalkResumesAfterItsLastCheckpointWithItsCounts(Connection hbase) throws Exception {
    RowWalk walk = RowWalk.named(hbase, name(), 3);
    List<String> events = new ArrayList<>();
    IOException crash = assertThrows(IOException.class, () -> walk.walk(RowWalk.Checkpoint.start(),
        RowWalkTest::rowsAfter, r -> r, (row, counts) -> {
          if (Bytes.toString(row).equals("e")) {
            throw new IOException("killed at e");
          }
          counts.add("seen", 1);
          events.add(Bytes.toString(row));
        }, () -> events.add("flush"), c -> events.add("saved " + Bytes.toString(c.after()))));
    assertEquals("killed at e", crash.getMessage());
    assertEquals(List.of("a", "b", "c", "flush", "saved c", "d"), events, "flushed before each checkpoint");

    RowWalk.Checkpoint saved = walk.load().orElseThrow();
    assertArrayEquals(Bytes.toBytes("c"), saved.after());
    assertEquals(3, saved.count("seen"), "counts as of the checkpoint, not of the row that failed");

    List<String> again = new ArrayList<>();
    RowWalk.Checkpoint end = walk.walk(saved, RowWalkTest::rowsAfter, r -> r, (row, counts) -> {
      counts.add("seen", 1);
      again.add(Bytes.toString(row));
    }, () -> { }, c -> { });
    assertEquals(List.of("d", "e", "f", "g"), again, "every row after the checkpoint's, once");
    assertEquals(7, end.count("seen"));
    assertArrayEquals(Bytes.toBytes("g"), end.after());
    walk.clear();
    assertTrue(walk.load().isEmpty());
  }

  @Test
  void checkpointsMigrationsWroteBeforeTheWalkWasSharedStillLoad(Connection hbase) throws Exception {
    String name = name();
    RowWalk.named(hbase, name, 1).save(RowWalk.Checkpoint.start()); // makes sure the counter table exists
    try (Table counters = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      byte[] f = HBaseIdentifierSource.FAMILY;
      counters.put(new Put(Bytes.toBytes(name)).addColumn(f, Bytes.toBytes("m:next"), Bytes.toBytes("row-9"))
          .addColumn(f, Bytes.toBytes("m:phase"), Bytes.toBytes(2L)).addColumn(f, Bytes.toBytes("m:done"), Bytes.toBytes(0L))
          .addColumn(f, Bytes.toBytes("m:read"), Bytes.toBytes(10L))
          .addColumn(f, Bytes.toBytes("m:rewritten"), Bytes.toBytes(4L)));
    }
    RowWalk.Checkpoint c = RowWalk.named(hbase, name, 1).load().orElseThrow();
    assertEquals(new RowWalk.Checkpoint(Bytes.toBytes("row-9"), 2, false, Map.of("read", 10L, "rewritten", 4L)), c);
  }

  @Test
  void countsCannotTakeTheCheckpointsOwnNames() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RowWalk.Checkpoint(null, 0, false, Map.of("next", 1L)));
    assertTrue(e.getMessage().contains("next"), e.getMessage());
  }
}
