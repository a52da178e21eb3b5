package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.SecureConnection;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Runs a region request in every region a scan touches, in parallel: the scan is cut at region
 * boundaries and each piece is scanned on its own thread; each region answers with its result
 * rows (see {@code RegionRequestObserver}). One per stored table (the CELL layout's; each cluster's
 * of a SHARED table).
 */
public final class RegionFanOut {
  private final Table raw;
  private final ExecutorService pool;

  public RegionFanOut(Table raw, ExecutorService pool) {
    this.raw = raw;
    this.pool = pool;
  }

  /** Set once the table was seen with the region observer: a table rarely loses it. */
  private volatile boolean observed;

  /**
   * Whether the table's descriptor names the region observer {@code className}; without it, the
   * regions would answer a request with the rows it scans.
   */
  public boolean hasObserver(String className) throws IOException {
    if (!observed) {
      observed = raw.getDescriptor().hasCoprocessor(className);
    }
    return observed;
  }

  /** Every row the regions return for {@code scan} (forward; its request attribute set). */
  public List<Result> scanEachRegion(Scan scan) throws IOException {
    List<Future<List<Result>>> parts = new ArrayList<>();
    for (Scan regionScan : perRegion(scan)) {
      parts.add(submit(() -> {
        List<Result> out = new ArrayList<>();
        try (ResultScanner s = raw.getScanner(regionScan)) {
          for (Result r = s.next(); r != null; r = s.next()) {
            out.add(r);
          }
        }
        return out;
      }));
    }
    List<Result> out = new ArrayList<>();
    for (Future<List<Result>> part : parts) {
      out.addAll(await(part));
    }
    return out;
  }

  private <T> Future<T> submit(Callable<T> task) throws IOException {
    try {
      return pool.submit(task);
    } catch (RejectedExecutionException e) {
      throw new IOException("the SecureConnection of this table is closed: region calls need its thread pool", e);
    }
  }

  /** The scan cut at region boundaries, one per region it touches. */
  private List<Scan> perRegion(Scan scan) throws IOException {
    List<Scan> out = new ArrayList<>();
    try (RegionLocator locator = raw.getRegionLocator()) {
      for (HRegionLocation location : locator.getAllRegionLocations()) {
        Scan s = within(scan, location.getRegion().getStartKey(), location.getRegion().getEndKey());
        if (s != null) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /**
   * The part of forward {@code scan} whose stored rows lie in [{@code rangeStart}, {@code rangeEnd})
   * (an empty array is unbounded), or null if they do not overlap.
   */
  public static Scan within(Scan scan, byte[] rangeStart, byte[] rangeEnd) throws IOException {
    byte[] start = scan.getStartRow();
    byte[] stop = scan.getStopRow();
    boolean beforeStop = stop.length == 0 || Bytes.compareTo(rangeStart, stop) < 0
        || (scan.includeStopRow() && Bytes.compareTo(rangeStart, stop) == 0);
    boolean afterStart = rangeEnd.length == 0 || Bytes.compareTo(rangeEnd, start) > 0;
    if (!beforeStop || !afterStart) {
      return null;
    }
    Scan s = new Scan(scan);
    if (Bytes.compareTo(rangeStart, start) > 0) {
      s.withStartRow(rangeStart, true);
    }
    if (rangeEnd.length > 0 && (stop.length == 0 || Bytes.compareTo(rangeEnd, stop) < 0)) {
      s.withStopRow(rangeEnd, false);
    }
    return s;
  }

  /**
   * {@code scan} made forward in place if it was reversed, over the same rows: for region work
   * that has no order (a sum), since regions are cut in forward order.
   */
  public static Scan forward(Scan scan) {
    if (scan.isReversed()) {
      byte[] start = scan.getStartRow();
      boolean startInclusive = scan.includeStartRow();
      scan.setReversed(false);
      scan.withStartRow(scan.getStopRow(), scan.includeStopRow()).withStopRow(start, startInclusive);
    }
    return scan;
  }

  private static <T> T await(Future<T> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the regions");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException) {
        throw (IOException) e.getCause();
      }
      throw new IOException(e.getCause());
    }
  }
}
