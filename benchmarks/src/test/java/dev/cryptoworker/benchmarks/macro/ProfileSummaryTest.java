package dev.cryptoworker.benchmarks.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** async-profiler's collapsed stacks are read root first, Java frames named as JFR's, each stack counted by its weight. */
class ProfileSummaryTest {
  @Test
  void collapsedStacksCountEachMethodOncePerStackByWeight(@TempDir Path dir) throws Exception {
    Path profile = dir.resolve("server.collapsed");
    Files.writeString(profile, String.join("\n",
        "java/lang/Thread.run;org/apache/hadoop/hbase/regionserver/HRegion.put;dev/cryptoworker/coprocessor/EntryTable.put 7",
        "java/lang/Thread.run;org/apache/hadoop/hbase/regionserver/HRegion.put;org/apache/hadoop/hbase/regionserver/HRegion.put 2",
        "thread_native_entry;VMThread::run;DefNewGeneration::collect 5",
        "java/lang/Thread.run;dev/cryptoworker/client/codec/TableCodec.column;java/util/HashMap.getNode 3",
        "dev/cryptoworker/client/codec/TableCodec.column;dev/cryptoworker/client/Other.lookup;java/util/HashMap.getNode 1",
        ""));
    ProfileSummary s = ProfileSummary.readCollapsed(List.of(profile));
    assertEquals(18, s.samples());
    String table = s.inclusiveTable(10, List.of("dev.cryptoworker", "org.apache.hadoop.hbase.regionserver", "VMThread::"));
    // A recursive frame counts once per stack: 7 + 2, not 7 + 4.
    assertTrue(table.contains("| `HRegion.put (org.apache.hadoop.hbase.regionserver)` | 9 | 50.0% |"), table);
    assertTrue(table.contains("| `EntryTable.put (dev.cryptoworker.coprocessor)` | 7 | 38.9% |"), table);
    assertTrue(table.contains("| `VMThread::run` | 5 | 27.8% |"), table);
    assertTrue(!table.contains("Thread.run"), "a package not asked for: " + table);
    String leaves = s.selfTable(3);
    assertTrue(leaves.contains("| `EntryTable.put (dev.cryptoworker.coprocessor)` | 7 | 38.9% | |"), leaves);
    assertTrue(leaves.contains("| `DefNewGeneration::collect` | 5 | 27.8% | |"), leaves);
    // The CryptoWorker frame nearest the leaf, by samples: TableCodec.column for 3 of getNode's 4.
    assertTrue(leaves.contains("| `HashMap.getNode (java.util)` | 4 | 22.2% | `TableCodec.column (dev.cryptoworker.client.codec)` (75%) |"),
        leaves);
  }
}
