package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.ycsb.ObservedDb;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * Wraps a binding and records every operation's latency (microseconds) per operation name. One
 * YCSB operation is one recorded value: {@link ObservedDb} reports a read-modify-write once, as
 * {@code READ-MODIFY-WRITE}, so {@link Recorder#operations()} counts it once (not as its READ and
 * its UPDATE), and the READ and UPDATE histograms hold only plain reads and updates.
 */
final class MeasuringDb extends ObservedDb {
  /** Latency histograms and failure counts of one side (plain or secure), shared by its threads. */
  static final class Recorder {
    private static final long MAX_MICROS = 3_600_000_000L;

    final Map<String, Histogram> latencies = new ConcurrentHashMap<>();
    final AtomicLong failures = new AtomicLong();

    void record(String op, long startNanos, Status status) {
      latencies.computeIfAbsent(op, k -> new ConcurrentHistogram(MAX_MICROS, 3))
          .recordValue(Math.max(1, (System.nanoTime() - startNanos) / 1000));
      if (!status.isOk()) {
        failures.incrementAndGet();
      }
    }

    /** Forgets the warm-up: called while no operation of this side is running. */
    void reset() {
      latencies.clear();
      failures.set(0);
    }

    /** Operations done: one per YCSB operation (see the class comment). */
    long operations() {
      return latencies.values().stream().mapToLong(Histogram::getTotalCount).sum();
    }

    /** The latencies of every operation in one histogram. */
    Histogram all() {
      Histogram all = new Histogram(MAX_MICROS, 3);
      latencies.values().forEach(all::add);
      return all;
    }
  }

  private final Recorder recorder;

  MeasuringDb(DB inner, Recorder recorder) {
    super(inner);
    this.recorder = recorder;
  }

  @Override
  protected void observe(String operation, long startNanos, Status status) {
    recorder.record(operation, startNanos, status);
  }
}
