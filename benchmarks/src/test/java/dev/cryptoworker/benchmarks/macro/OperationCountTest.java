package dev.cryptoworker.benchmarks.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptoworker.ycsb.HealthcareWorkload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * One YCSB operation counts once, in the round budget and in the throughput: a read-modify-write
 * is one READ-MODIFY-WRITE, not its READ plus its UPDATE. No HBase: the workload runs on an
 * in-memory YCSB binding.
 */
class OperationCountTest {
  private static final int RECORDS = 50;
  private static final int THREADS = 2;

  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
  private final InMemoryDb inner = new InMemoryDb();
  private final MeasuringDb.Recorder recorder = new MeasuringDb.Recorder();

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  /** YCSB's DB interface over a map, counting the calls it receives. */
  static final class InMemoryDb extends DB {
    final Map<String, Map<String, ByteIterator>> rows = new ConcurrentHashMap<>();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong updates = new AtomicLong();
    volatile boolean readsFail;

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      reads.incrementAndGet();
      Map<String, ByteIterator> row = rows.get(key);
      if (row == null || readsFail) {
        return Status.NOT_FOUND;
      }
      result.putAll(row);
      return Status.OK;
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
        Vector<HashMap<String, ByteIterator>> result) {
      return Status.NOT_IMPLEMENTED;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      updates.incrementAndGet();
      rows.merge(key, new HashMap<>(values), (old, added) -> {
        old.putAll(added);
        return old;
      });
      return Status.OK;
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      rows.put(key, new HashMap<>(values));
      return Status.OK;
    }

    @Override
    public Status delete(String table, String key) {
      return rows.remove(key) == null ? Status.NOT_FOUND : Status.OK;
    }
  }

  /** The workload with these proportions, its records loaded into {@link #inner}. */
  private HealthcareWorkload workload(String read, String rmw) throws Exception {
    Properties p = new Properties();
    p.setProperty("healthcare.records", "patients");
    p.setProperty("recordcount", Integer.toString(RECORDS));
    p.setProperty("operationcount", Integer.toString(2 * RECORDS));
    p.setProperty("fieldcount", "1");
    p.setProperty("readproportion", read);
    p.setProperty("updateproportion", "0");
    p.setProperty("readmodifywriteproportion", rmw);
    p.setProperty("requestdistribution", "uniform");
    Measurements.setProperties(p);
    HealthcareWorkload w = new HealthcareWorkload();
    w.init(p);
    Object loader = w.initThread(p, 0, 1);
    for (int i = 0; i < RECORDS; i++) {
      w.doInsert(inner, loader);
    }
    return w;
  }

  /** Runs {@code operations} transactions as the main job does, on {@code THREADS} measured threads. */
  private long run(HealthcareWorkload w, long operations) throws Exception {
    List<MeasuringDb> dbs = new ArrayList<>();
    List<Object> states = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      dbs.add(new MeasuringDb(inner, recorder));
      states.add(w.initThread(new Properties(), t, THREADS));
    }
    return WorkloadBenchmark.runSide(pool, w, dbs, states, operations, 60_000);
  }

  @Test
  void readModifyWriteCountsOnce() throws Exception {
    HealthcareWorkload w = workload("0", "1");

    long done = run(w, 200);

    assertEquals(200, done, "round budget: transactions done");
    assertEquals(200, inner.reads.get(), "each read-modify-write reads once");
    assertEquals(200, inner.updates.get(), "and updates once");
    assertEquals(200, recorder.operations(), "but is one operation, not two");
    assertEquals(Set.of("READ-MODIFY-WRITE"), recorder.latencies.keySet());
    assertEquals(200, recorder.latencies.get("READ-MODIFY-WRITE").getTotalCount());
    assertEquals(200, recorder.all().getTotalCount());
    assertEquals(0, recorder.failures.get());
  }

  @Test
  void workloadFCountsEachTransactionOnce() throws Exception {
    HealthcareWorkload w = workload("0.5", "0.5");

    long done = run(w, 400);

    long rmw = recorder.latencies.get("READ-MODIFY-WRITE").getTotalCount();
    long reads = recorder.latencies.get("READ").getTotalCount();
    assertEquals(400, done);
    assertEquals(400, recorder.operations());
    assertEquals(400, rmw + reads, "READ holds only plain reads");
    assertEquals(400, inner.reads.get(), "every transaction reads once");
    assertEquals(rmw, inner.updates.get(), "only read-modify-writes update");
  }

  @Test
  void failedReadModifyWriteIsOneFailure() throws Exception {
    HealthcareWorkload w = workload("0", "1");
    inner.readsFail = true;

    run(w, 50);

    assertEquals(50, recorder.operations());
    assertEquals(50, recorder.failures.get(), "a failed read fails its read-modify-write, once");
    assertEquals(50, inner.updates.get(), "the write happens whatever the read returned, as in YCSB");
  }
}
