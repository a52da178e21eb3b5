package dev.cryptoworker.ycsb;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.hbase.client.Scan;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A binding that forwards every operation to another and reports each one (name, start time,
 * outcome) to {@link #observe}: the one place benchmarks and tests hook latency and failure
 * counting, without YCSB's global measurement state.
 *
 * <p>One YCSB operation is one observation. YCSB's read-modify-write calls the binding's
 * {@code read} and then its {@code update}; a workload that calls them through
 * {@link #readModifyWrite(DB, String, String, Map)} (as {@link HealthcareWorkload} does) gets one
 * {@code READ-MODIFY-WRITE} observation timing both, YCSB's own READ-MODIFY-WRITE latency,
 * instead of a READ and an UPDATE: counting observations then counts each operation once, and
 * the READ and UPDATE latencies stay those of plain reads and updates.
 */
public abstract class ObservedDb extends DB implements FilterScans {
  private final DB inner;

  protected ObservedDb(DB inner) {
    this.inner = inner;
  }

  /** Called after each operation with its name ({@code READ}, {@code QEF}, ...). */
  protected abstract void observe(String operation, long startNanos, Status status);

  private Status observed(String operation, long startNanos, Status status) {
    observe(operation, startNanos, status);
    return status;
  }

  /**
   * YCSB's read-modify-write of {@code key} on {@code db}: a read, then an update with
   * {@code values} whatever the read returned (as YCSB's CoreWorkload does). When {@code db} is
   * observed, the two calls go to the binding it wraps and are reported once, as
   * {@code READ-MODIFY-WRITE} with the time of both (see the class comment); otherwise they go to
   * {@code db}. Returns the read's status if it failed, else the update's.
   */
  public static Status readModifyWrite(DB db, String table, String key, Map<String, ByteIterator> values) {
    if (db instanceof ObservedDb observed) {
      long s = System.nanoTime();
      return observed.observed("READ-MODIFY-WRITE", s, readThenUpdate(observed.inner, table, key, values));
    }
    return readThenUpdate(db, table, key, values);
  }

  private static Status readThenUpdate(DB db, String table, String key, Map<String, ByteIterator> values) {
    Status read = db.read(table, key, null, new HashMap<>());
    Status update = db.update(table, key, values);
    return read.isOk() ? update : read;
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
    return observed("READ", s, inner.read(t, k, f, r));
  }

  @Override
  public Status scan(String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
    long s = System.nanoTime();
    return observed("SCAN", s, inner.scan(t, k, n, f, r));
  }

  @Override
  public Status update(String t, String k, Map<String, ByteIterator> v) {
    long s = System.nanoTime();
    return observed("UPDATE", s, inner.update(t, k, v));
  }

  @Override
  public Status insert(String t, String k, Map<String, ByteIterator> v) {
    long s = System.nanoTime();
    return observed("INSERT", s, inner.insert(t, k, v));
  }

  @Override
  public Status delete(String t, String k) {
    long s = System.nanoTime();
    return observed("DELETE", s, inner.delete(t, k));
  }

  @Override
  public Status filterScan(String table, String operation, Scan scan, Vector<HashMap<String, ByteIterator>> result) {
    long s = System.nanoTime();
    return observed(operation, s, ((FilterScans) inner).filterScan(table, operation, scan, result));
  }
}
