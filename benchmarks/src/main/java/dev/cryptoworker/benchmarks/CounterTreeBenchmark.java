package dev.cryptoworker.benchmarks;

import dev.cryptoworker.cryptobox.search.CounterTree;
import dev.cryptoworker.cryptobox.search.SubtreeToken;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The SSE index's per-value work in each counter tree: the binary tree of stored formats 1 and 2
 * against the wide one of format 3.
 *
 * <ul>
 *   <li>{@code firstLeafOfANewValue}: a writer's first entry of a value it has not written (a new
 *       root each time, so no remembered path helps): what every row of a unique-valued column costs.
 *   <li>{@code nextLeafOfAKnownValue}: the next entry of a value whose last path the writer keeps.
 *   <li>{@code expandCoverOf1000}: a region server's work for a search of a value with 1,000
 *       entries (every leaf of the cover).
 * </ul>
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar CounterTreeBenchmark -rf json -rff counter-tree.json
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class CounterTreeBenchmark {
  @Param({"BINARY", "WIDE"})
  String tree;

  private final SplittableRandom random = new SplittableRandom(29);
  private CounterTree counterTree;
  private byte[] root;
  private long next;
  private Iterable<SubtreeToken> cover;

  @Setup
  public void setUp() {
    counterTree = tree.equals("WIDE") ? CounterTree.WIDE : CounterTree.BINARY;
    root = new byte[CounterTree.SEED_BYTES];
    random.nextBytes(root);
    cover = counterTree.cover(root, 1000);
  }

  @Benchmark
  public byte[] firstLeafOfANewValue() {
    byte[] fresh = new byte[CounterTree.SEED_BYTES];
    random.nextBytes(fresh);
    return counterTree.leaf(fresh, 0);
  }

  @Benchmark
  public byte[] nextLeafOfAKnownValue() {
    next = (next + 1) % CounterTree.MAX_ENTRIES;
    return counterTree.leaf(root, next);
  }

  @Benchmark
  public void expandCoverOf1000(Blackhole leaves) {
    for (SubtreeToken t : cover) {
      CounterTree.expand(t, leaves::consume);
    }
  }
}
