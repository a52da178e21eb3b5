package dev.cryptoworker.benchmarks.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.ope.OrderPreservingBox;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BenchOptionsTest {

  @Test
  void defaultsWithoutArguments() throws Exception {
    BenchOptions o = BenchOptions.parse();
    assertFalse(o.helpRequested());
    assertEquals(List.of("A", "B", "E-1", "E-2", "F", "G", "H"), o.workloads());
    assertEquals(3000, o.integer("records"));
    assertEquals(20, o.integer("seconds"));
    assertEquals("", o.get("out"), "results go to a new benchmarks/runs/ directory unless --out is given");
    assertEquals(OrderPreservingBox.DEFAULT_MEMO_ENTRIES, o.integer("ope-memo"));
  }

  @Test
  void givenValuesReplaceDefaults() throws Exception {
    BenchOptions o = BenchOptions.parse("--workloads=F,micro-rmw", "--records=300", "--out=benchmarks/results",
        "--rowkeys=ope", "--variant=micro-det", "--distribution=uniform", "--ope-memo=0", "--zookeeper=zk1:2181", "--qef=sse", "--cluster=processes");
    assertEquals(List.of("F", "micro-rmw"), o.workloads());
    assertEquals("sse", o.get("qef"));
    assertEquals("processes", o.get("cluster"));
    assertEquals(300, o.integer("records"));
    assertEquals("benchmarks/results", o.get("out"));
    assertEquals(0, o.integer("ope-memo"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h"})
  void helpWinsOverEverythingElse(String flag) throws Exception {
    assertTrue(BenchOptions.parse("--records=oops", flag).helpRequested());
  }

  @Test
  void unknownOptionIsNamed() {
    BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class,
        () -> BenchOptions.parse("--records=10", "--recrods=10"));
    assertEquals("unknown option --recrods; see --help", e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--records", "records=10", "-records=10", "--=10", "--"})
  void malformedOptionIsNamed(String arg) {
    BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse(arg));
    assertTrue(e.getMessage().contains("'" + arg + "'") && e.getMessage().endsWith("see --help"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--workloads=A,Z", "--workloads=", "--workloads=A,,B", "--workloads=a"})
  void unknownWorkloadIsRefused(String arg) {
    BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse(arg));
    assertTrue(e.getMessage().startsWith(arg + ": no workload"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--records=0", "--records=abc", "--records=1e3", "--records=99999999999", "--seconds=0",
      "--rounds=0", "--warmup=0", "--threads=0", "--threads=-1", "--ope-memo=-1", "--ope-memo=", "--seconds=2.5"})
  void badNumbersAreRefused(String arg) {
    BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse(arg));
    assertTrue(e.getMessage().startsWith(arg + ": must be an integer of at least"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--rowkeys=det", "--qef=ope", "--cluster=yarn", "--variant=micro", "--variant=MICRO-STD", "--distribution=latest",
      "--zookeeper=host:0", "--zookeeper=host:port", "--name=a/b", "--name=", "--load=copy", "--regions=0"})
  void badChoicesAreRefused(String arg) {
    BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse(arg));
    assertTrue(e.getMessage().startsWith(arg + ": "), e.getMessage());
  }

  @Test
  void helpListsEveryOptionWithItsDefaultAndEveryWorkload() throws Exception {
    String help = BenchOptions.helpText();
    BenchOptions defaults = BenchOptions.parse();
    for (String name : BenchOptions.names()) {
      String value = defaults.get(name);
      assertTrue(help.contains("  --" + name + "=" + (value.isEmpty() ? "(empty)" : value) + "\n"), "--" + name);
    }
    assertEquals(17, BenchOptions.names().size());
    assertTrue(help.contains("--help, -h"));
    for (String w : List.of("A", "B", "C", "E", "E-1", "E-2", "F", "G", "H", "micro-insert", "micro-read",
        "micro-rmw", "micro-scan", "micro-qrf")) {
      assertTrue(help.contains("\n  " + w + "\n"), w);
    }
    assertEquals(14, WorkloadFiles.available().keySet().size());
  }

  @Test
  void bulkLoadsNeedAClusterThisRunStarts() {
    BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class,
        () -> BenchOptions.parse("--load=bulk", "--zookeeper=zk1:2181"));
    assertTrue(e.getMessage().contains("--load=bulk") && e.getMessage().contains("--load=put"), e.getMessage());
  }
}
