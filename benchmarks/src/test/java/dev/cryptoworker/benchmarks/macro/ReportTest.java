package dev.cryptoworker.benchmarks.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.Status;

class ReportTest {

  private static MeasuringDb.Recorder recorder(int reads, int rmws) {
    MeasuringDb.Recorder r = new MeasuringDb.Recorder();
    long start = System.nanoTime();
    for (int i = 0; i < reads; i++) {
      r.record("READ", start, Status.OK);
    }
    for (int i = 0; i < rmws; i++) {
      r.record("READ-MODIFY-WRITE", start, Status.OK);
    }
    return r;
  }

  private static List<WorkloadBenchmark.Row> rows() {
    return List.of(new WorkloadBenchmark.Row("F", Map.of("plain", 1000.0, "secure", 900.0),
        Map.of("plain", recorder(30, 10), "secure", recorder(20, 20)),
        Map.of("plain", CpuClock.Usage.NONE, "secure", CpuClock.Usage.NONE)));
  }

  @Test
  void csvHeaderHasNoDuplicateColumn() {
    String[] header = WorkloadBenchmark.csv(rows()).lines().findFirst().orElseThrow().split(",");
    Set<String> unique = new HashSet<>(Arrays.asList(header));
    assertEquals(header.length, unique.size(), String.join(",", header));
    assertEquals(1, Arrays.stream(header).filter(c -> c.startsWith("throughput")).count());
    assertEquals("workload,side,operation,count,throughput_ops_s,p50_us,p95_us,p99_us", String.join(",", header));
  }

  @Test
  void sideThroughputAppearsOnceInItsAllRow() {
    List<String[]> lines = WorkloadBenchmark.csv(rows()).lines().skip(1).map(l -> l.split(",")).toList();
    assertTrue(lines.stream().allMatch(l -> l.length == 8));
    assertEquals(List.of("F,plain,READ,30,750.0", "F,plain,READ-MODIFY-WRITE,10,250.0", "F,plain,ALL,40,1000.0",
        "F,secure,READ,20,450.0", "F,secure,READ-MODIFY-WRITE,20,450.0", "F,secure,ALL,40,900.0"),
        lines.stream().map(l -> String.join(",", Arrays.copyOf(l, 5))).toList());
  }

  @Test
  void eachRunGetsANewDirectory(@TempDir Path tmp) throws Exception {
    LocalDateTime t = LocalDateTime.of(2026, 1, 2, 3, 4, 5);
    Path first = RunDirectories.newRunDirectory(tmp.resolve("runs"), t);
    Path second = RunDirectories.newRunDirectory(tmp.resolve("runs"), t);
    assertEquals(tmp.resolve("runs").resolve("20260102-030405"), first);
    assertNotEquals(first, second);
    assertTrue(Files.isDirectory(first) && Files.isDirectory(second));
  }
}
