package dev.cryptoworker.client.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.security.SecureRandom;
import java.util.List;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Shared counts in the counter table of a real HBase: read without writing, added atomically. */
@ExtendWith(SharedHBaseCluster.class)
class HBaseCountersTest {
  private static final List<String> NAMES = List.of("Antarctica", "Bermuda");

  private static SharedCounts counts(Connection hbase, byte[] row) throws Exception {
    try (Admin admin = hbase.getAdmin()) {
      RegionSupport.createCounterTable(admin);
    }
    return new HBaseCounters(hbase, 100).sharedCounts(row, Bytes::toBytes);
  }

  private static byte[] randomRow() {
    byte[] row = new byte[16];
    new SecureRandom().nextBytes(row);
    return row;
  }

  @Test
  void aReadOfCountsNeverAddedIsZeroAndWritesNothing(Connection hbase) throws Exception {
    byte[] row = randomRow();
    SharedCounts counts = counts(hbase, row);
    assertArrayEquals(new long[] {0, 0}, counts.add(NAMES, new long[] {0, 0}));
    try (Table counters = hbase.getTable(HBaseIdentifierSource.TABLE)) {
      assertEquals(0, counters.get(new Get(row)).size(), "a read wrote the counter row");
    }
  }

  @Test
  void aReadAfterAddsReturnsTheirSums(Connection hbase) throws Exception {
    SharedCounts counts = counts(hbase, randomRow());
    assertArrayEquals(new long[] {3, 0}, counts.add(NAMES, new long[] {3, 0}));
    assertArrayEquals(new long[] {5, 4}, counts.add(NAMES, new long[] {2, 4}));
    assertArrayEquals(new long[] {5, 4}, counts.add(NAMES, new long[] {0, 0}));
  }
}
