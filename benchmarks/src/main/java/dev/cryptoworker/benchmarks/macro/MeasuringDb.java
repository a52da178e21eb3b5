package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.ycsb.FilterScans;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.client.Scan;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/** Wraps a binding and records every operation's latency (microseconds) per operation name. */
final class MeasuringDb extends DB implements FilterScans {
  /** Latency histograms and failure counts of one side (plain or secure), shared by its threads. */
  static final class Recorder {
    final Map<String, Histogram> latencies = new ConcurrentHashMap<>();
    final AtomicLong failures = new AtomicLong();

    void record(String op, long startNanos, Status status) {
      latencies.computeIfAbsent(op, k -> new ConcurrentHistogram(3_600_000_000L, 3))
          .recordValue(Math.max(1, (System.nanoTime() - startNanos) / 1000));
      if (!status.isOk()) {
        failures.incrementAndGet();
      }
    }

    long operations() {
      return latencies.values().stream().mapToLong(Histogram::getTotalCount).sum();
    }
  }

  private final DB inner;
  private final Recorder recorder;

  MeasuringDb(DB inner, Recorder recorder) {
    this.inner = inner;
    this.recorder = recorder;
  }

  @Override
  public void setProperties(Properties p) {
    super.setProperties(p);
    inner.setProperties(p);
  }

  @Override
  public void init() throws DBException {
    inner.init();
  }

  @Override
  public void cleanup() throws DBException {
    inner.cleanup();
  }

  @Override
  public Status read(String t, String k, Set<String> f, Map<String, ByteIterator> r) {
    long s = System.nanoTime();
    Status st = inner.read(t, k, f, r);
    recorder.record("READ", s, st);
    return st;
  }

  @Override
  public Status scan(String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
    long s = System.nanoTime();
    Status st = inner.scan(t, k, n, f, r);
    recorder.record("SCAN", s, st);
    return st;
  }

  @Override
  public Status update(String t, String k, Map<String, ByteIterator> v) {
    long s = System.nanoTime();
    Status st = inner.update(t, k, v);
    recorder.record("UPDATE", s, st);
    return st;
  }

  @Override
  public Status insert(String t, String k, Map<String, ByteIterator> v) {
    long s = System.nanoTime();
    Status st = inner.insert(t, k, v);
    recorder.record("INSERT", s, st);
    return st;
  }

  @Override
  public Status delete(String t, String k) {
    long s = System.nanoTime();
    Status st = inner.delete(t, k);
    recorder.record("DELETE", s, st);
    return st;
  }

  @Override
  public Status filterScan(String table, String operation, Scan scan, Vector<HashMap<String, ByteIterator>> result) {
    long s = System.nanoTime();
    Status st = ((FilterScans) inner).filterScan(table, operation, scan, result);
    recorder.record(operation, s, st);
    return st;
  }
}
