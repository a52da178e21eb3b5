package dev.cryptoworker.testing;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Writers and readers using a table of patient rows (mainId and a phone number) while something
 * else runs, such as a migration. Rows {@code p-0000} to {@code p-<updated-1>} are rewritten by the
 * writers, which also add rows of their own; the rest never change, and the readers check them by
 * Get and by an equality search on mainId. {@link #expected()} is every row's last acknowledged
 * mainId.
 */
public final class PatientsUnderLoad implements AutoCloseable {
  public static final byte[] ID = Bytes.toBytes("identification");
  public static final byte[] MAIN_ID = Bytes.toBytes("mainId");
  private static final byte[] CONTACTS = Bytes.toBytes("contacts");
  private static final byte[] PHONE = Bytes.toBytes("phone");

  private final Map<String, String> expected;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicReference<String> readerError = new AtomicReference<>();
  private final ExecutorService pool;
  private final List<Future<?>> tasks = new ArrayList<>();
  private final AtomicLong checks = new AtomicLong();
  /**
   * One reader check per writer round: readers keep pace with the writers. Spinning, four readers
   * took the CPU the migration under test and its writers needed.
   */
  private final Semaphore readerTurns = new Semaphore(0);

  private PatientsUnderLoad(Map<String, String> expected, int threads) {
    this.expected = expected;
    this.pool = Executors.newFixedThreadPool(threads);
  }

  /** Row {@code i}'s key: {@code p-0000}, {@code p-0001}, ... */
  public static String row(int i) {
    return String.format("p-%04d", i);
  }

  /** A patient row with {@code mainId} and a phone number. */
  public static Put patient(String row, String mainId) {
    return new Put(Bytes.toBytes(row)).addColumn(ID, MAIN_ID, Bytes.toBytes(mainId))
        .addColumn(CONTACTS, PHONE, Bytes.toBytes("+351 " + row));
  }

  /** Writes rows {@code 0..rows-1} with mainIds {@code m-<i>} and returns what they hold. */
  public static Map<String, String> load(Table table, int rows) throws Exception {
    Map<String, String> expected = new ConcurrentHashMap<>();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      puts.add(patient(row(i), "m-" + i));
      expected.put(row(i), "m-" + i);
    }
    table.put(puts);
    return expected;
  }

  /** The rows an equality filter on mainId finds, in the order the scan returns them. */
  public static List<String> rowsWithMainId(Table table, String mainId) throws Exception {
    SingleColumnValueFilter f = new SingleColumnValueFilter(ID, MAIN_ID, CompareOperator.EQUAL,
        new BinaryComparator(Bytes.toBytes(mainId)));
    f.setFilterIfMissing(true);
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(new Scan().setFilter(f))) {
      for (Result r : scanner) {
        rows.add(Bytes.toString(r.getRow()));
      }
    }
    return rows;
  }

  /**
   * Starts the writers and readers on tables from {@code tables}, over the {@code rows} rows of
   * {@code expected} (from {@link #load}), of which the first {@code updated} are rewritten. Each
   * round of a writer lets one reader check once.
   *
   * @throws IllegalArgumentException if there are readers but no writer to pace them
   */
  public static PatientsUnderLoad start(Callable<Table> tables, Map<String, String> expected, int rows, int updated,
      int writers, int readers) {
    if (readers > 0 && writers < 1) {
      throw new IllegalArgumentException("readers check once per writer round: " + readers + " readers need a writer");
    }
    PatientsUnderLoad load = new PatientsUnderLoad(expected, writers + readers);
    for (int w = 0; w < writers; w++) {
      int writer = w;
      load.tasks.add(load.pool.submit(() -> {
        try (Table t = tables.call()) {
          for (int j = 0; !load.stop.get(); j++) {
            String fresh = "w" + writer + "-" + j;
            t.put(patient(fresh, "n-" + fresh));
            expected.put(fresh, "n-" + fresh);
            String rewritten = row(writer * (updated / writers) + j % (updated / writers));
            t.put(new Put(Bytes.toBytes(rewritten)).addColumn(ID, MAIN_ID, Bytes.toBytes("u-" + fresh)));
            expected.put(rewritten, "u-" + fresh);
            Thread.sleep(2);
            load.readerTurns.release();
          }
        }
        return null;
      }));
    }
    for (int r = 0; r < readers; r++) {
      load.tasks.add(load.pool.submit(() -> {
        try (Table t = tables.call()) {
          for (int j = 0; !load.stop.get(); j++) {
            load.readerTurns.acquire();
            if (load.stop.get()) {
              break;
            }
            int i = updated + ThreadLocalRandom.current().nextInt(rows - updated);
            String mainId = Bytes.toString(t.get(new Get(Bytes.toBytes(row(i)))).getValue(ID, MAIN_ID));
            if (!("m-" + i).equals(mainId)) {
              load.readerError.compareAndSet(null, "get " + row(i) + " read mainId " + mainId);
            }
            if (j % 20 == 0) {
              List<String> found = rowsWithMainId(t, "m-" + i);
              if (!found.equals(List.of(row(i)))) {
                load.readerError.compareAndSet(null, "search for m-" + i + " found " + found);
              }
            }
            load.checks.incrementAndGet();
          }
        }
        return null;
      }));
    }
    return load;
  }

  /** Every row's last acknowledged mainId (live while the writers run). */
  public Map<String, String> expected() {
    return expected;
  }

  /**
   * Stops the writers and readers and waits for them.
   *
   * @throws AssertionError if a reader saw a wrong value, or no reader checked anything
   * @throws IOException if a writer or reader failed, or did not stop within a minute
   */
  @Override
  public void close() throws IOException {
    stop.set(true);
    readerTurns.release(tasks.size()); // readers waiting for a turn see the stop
    try {
      for (Future<?> task : tasks) {
        task.get(60, TimeUnit.SECONDS);
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("a writer or reader failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while stopping the writers and readers");
    } finally {
      pool.shutdownNow();
    }
    if (readerError.get() != null) {
      throw new AssertionError("a reader saw: " + readerError.get());
    }
    if (checks.get() == 0) {
      throw new AssertionError("the readers checked nothing");
    }
  }
}
