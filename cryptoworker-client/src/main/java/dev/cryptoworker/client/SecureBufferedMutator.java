package dev.cryptoworker.client;

import dev.cryptoworker.client.spi.PreparedBatch;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;

/**
 * HBase's {@link BufferedMutator} for a protected table: mutations are buffered as given, then
 * encoded and written as one {@link SecureTable#batch batch} (the one batch contract of every
 * layout) once the buffer holds {@link #getWriteBufferSize()} bytes or {@code maxMutations}
 * mutations, on {@link #flush()}, on {@link #close()}, or when the periodic flush timeout passes.
 *
 * <p>A full buffer is handed to two background threads while the caller fills the next one: one
 * prepares it (on a CELL table: encodes it and takes its SSE entry numbers; {@link
 * dev.cryptoworker.client.spi.StorageLayout#prepareBatch}), the other writes prepared buffers one
 * at a time, in the order given, so a mutation never overtakes one of an earlier buffer. A buffer
 * is thus encoded while the one before it is in flight, and at most two buffers are handed off
 * at a time. Within one buffer, as with
 * HBase's own mutator, mutations of the same row are not ordered on a CELL table (the buffer is one
 * HBase batch, and a region server may stamp it with one timestamp: a Delete then a Put of one row
 * can lose the Put); PACKED and SHARED tables apply a buffer in order.
 *
 * <p>As in HBase, a mutation that fails does not stop the others; the failures of a written buffer
 * reach the {@link BufferedMutator.ExceptionListener} of the {@link BufferedMutatorParams} as one
 * {@link RetriesExhaustedWithDetailsException} naming each failed mutation and its cause, on the
 * next call to {@code mutate} (after its own mutations are buffered), {@code flush} or {@code
 * close}. The default listener throws it. A mutation a layout refuses (an {@code Increment} of a
 * protected column, an {@code Append} on a PACKED table) fails alone, named, the same way. The
 * listener runs holding the mutator's lock: it must not wait for another thread that uses it.
 *
 * <p>Thread-safe, like HBase's: several threads may share one mutator.
 */
public final class SecureBufferedMutator implements BufferedMutator {
  private static final ExceptionListener RETHROW = (e, mutator) -> {
    throw e;
  };

  private final SecureTable table;
  private final Configuration configuration;
  private final long writeBufferSize;
  private final int maxMutations;
  private final int maxKeyValueSize;
  private final ExceptionListener listener;
  private final ExecutorService preparer;
  private final ExecutorService writer;
  private final Object lock = new Object();
  /** Filled by the writer thread (which never takes {@code lock}: callers wait on it holding it). */
  private final Queue<Failure> failures = new ConcurrentLinkedQueue<>();

  private record Failure(Throwable cause, Row action, String server) {}

  // Guarded by lock.
  private List<Mutation> buffer = new ArrayList<>();
  private long bufferedBytes;
  private long firstBufferedNanos;
  /** The write of the buffer handed off last, and of the one before it. */
  private Future<?> inFlight = CompletableFuture.completedFuture(null);
  private Future<?> previousInFlight = CompletableFuture.completedFuture(null);
  private ScheduledExecutorService timer;
  private ScheduledFuture<?> periodicFlush;
  private long periodicFlushTimeoutMs;
  private long periodicFlushTimerTickMs;
  private boolean closed;

  SecureBufferedMutator(SecureTable table, BufferedMutatorParams params, Configuration configuration) {
    this.table = Objects.requireNonNull(table, "table");
    this.configuration = configuration;
    this.writeBufferSize = params.getWriteBufferSize() > 0 ? params.getWriteBufferSize()
        : configuration.getLong("hbase.client.write.buffer", 2 * 1024 * 1024);
    this.maxMutations = params.getMaxMutations() > 0 ? params.getMaxMutations()
        : configuration.getInt("hbase.client.write.buffer.maxmutations", -1);
    this.maxKeyValueSize = params.getMaxKeyValueSize() > 0 ? params.getMaxKeyValueSize()
        : configuration.getInt("hbase.client.keyvalue.maxsize", 10 * 1024 * 1024);
    this.listener = params.getListener() != null ? params.getListener() : RETHROW;
    String name = "secure-buffered-mutator-" + table.getName().getNameAsString();
    this.preparer = Executors.newSingleThreadExecutor(runnable -> daemon(runnable, name + "-prepare"));
    this.writer = Executors.newSingleThreadExecutor(runnable -> daemon(runnable, name));
    long timeout = params.getWriteBufferPeriodicFlushTimeoutMs() > 0 ? params.getWriteBufferPeriodicFlushTimeoutMs()
        : configuration.getLong("hbase.client.write.buffer.periodicflush.timeout.ms", 0);
    long tick = params.getWriteBufferPeriodicFlushTimerTickMs() > 0 ? params.getWriteBufferPeriodicFlushTimerTickMs()
        : configuration.getLong("hbase.client.write.buffer.periodicflush.timertick.ms", 1000);
    this.periodicFlushTimerTickMs = Math.max(MIN_WRITE_BUFFER_PERIODIC_FLUSH_TIMERTICK_MS, tick);
    if (timeout > 0) {
      setWriteBufferPeriodicFlush(timeout, tick);
    }
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread t = new Thread(runnable, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public TableName getName() {
    return table.getName();
  }

  @Override
  public Configuration getConfiguration() {
    return configuration;
  }

  @Override
  public long getWriteBufferSize() {
    return writeBufferSize;
  }

  @Override
  public int getMaxMutations() {
    return maxMutations;
  }

  @Override
  public void mutate(Mutation mutation) throws IOException {
    mutate(List.of(Objects.requireNonNull(mutation, "mutation")));
  }

  @Override
  public void mutate(List<? extends Mutation> mutations) throws IOException {
    for (Mutation m : mutations) {
      validate(m);
    }
    synchronized (lock) {
      requireOpen();
      // Everything given is buffered before any failure is reported, as HBase does: none is dropped.
      for (Mutation m : mutations) {
        if (buffer.isEmpty()) {
          firstBufferedNanos = System.nanoTime();
        }
        buffer.add(m);
        bufferedBytes += m.heapSize();
      }
      if (bufferedBytes >= writeBufferSize || (maxMutations > 0 && buffer.size() >= maxMutations)) {
        awaitPrevious(); // at most two buffers handed off: one being prepared, one being written
        handOff();
      }
      reportFailures();
    }
  }

  /** HBase's own checks of {@code BufferedMutator.mutate} (puts), on the mutation as given. */
  private void validate(Mutation m) {
    Objects.requireNonNull(m, "mutation");
    if (m instanceof Put && m.isEmpty()) { // a Delete without cells deletes the whole row
      throw new IllegalArgumentException("table " + table.getName() + ": no columns to insert in a Put"
          + " (refused on mutate, as HBase refuses it)");
    }
    for (List<Cell> cells : m.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        if (c.getSerializedSize() > maxKeyValueSize) {
          throw new IllegalArgumentException("table " + table.getName() + ": a cell of " + c.getSerializedSize()
              + " bytes is larger than hbase.client.keyvalue.maxsize (" + maxKeyValueSize + ")");
        }
      }
    }
  }

  /** Writes everything buffered so far and waits for it; failures go to the listener. */
  @Override
  public void flush() throws IOException {
    synchronized (lock) {
      requireOpen();
      flushLocked();
    }
  }

  private void flushLocked() throws IOException {
    awaitPrevious();
    handOff();
    awaitPrevious();
    awaitInFlight();
    reportFailures();
  }

  /**
   * Starts preparing the buffer in the background, and its write after the writes handed off
   * before it (at most one is still running).
   */
  private void handOff() {
    if (buffer.isEmpty()) {
      return;
    }
    List<Mutation> batch = buffer;
    buffer = new ArrayList<>();
    bufferedBytes = 0;
    Future<PreparedBatch> prepared = preparer.submit(() -> table.prepareBatch(batch));
    previousInFlight = inFlight;
    inFlight = writer.submit(() -> write(batch, prepared));
  }

  private void write(List<Mutation> batch, Future<PreparedBatch> prepared) {
    Object[] results = new Object[batch.size()];
    try {
      preparedBatch(prepared).send(results);
    } catch (RetriesExhaustedWithDetailsException e) {
      for (int i = 0; i < e.getNumExceptions(); i++) {
        String server = e.getHostnamePort(i);
        failures.add(new Failure(e.getCause(i), e.getRow(i), server == null ? "" : server));
      }
    } catch (IOException | RuntimeException | InterruptedException | Error e) {
      // Even an Error: recorded per mutation, so the mutator goes on and the caller hears of it.
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      // The batch as a whole failed: each action without a result of its own failed with it.
      for (int i = 0; i < batch.size(); i++) {
        if (results[i] == null || results[i] instanceof Throwable) {
          failures.add(new Failure(results[i] instanceof Throwable t ? t : e, batch.get(i), ""));
        }
      }
    }
  }

  /** The prepared batch, or the failure that prepared none (the whole batch failed with it). */
  private static PreparedBatch preparedBatch(Future<PreparedBatch> prepared) throws IOException, InterruptedException {
    try {
      return prepared.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException(cause);
    }
  }

  private void awaitInFlight() throws IOException {
    Throwable failure = waitFor(inFlight);
    if (failure != null) {
      inFlight = CompletableFuture.completedFuture(null); // reported once
      throw new IOException("buffered write to " + table.getName() + " failed", failure);
    }
  }

  private void awaitPrevious() throws IOException {
    Throwable failure = waitFor(previousInFlight);
    if (failure != null) {
      previousInFlight = CompletableFuture.completedFuture(null); // reported once
      throw new IOException("buffered write to " + table.getName() + " failed", failure);
    }
  }

  /**
   * Waits for {@code write} and returns what stopped its thread, or null: write() records its
   * mutations' failures itself, so this is only ever an unexpected one.
   */
  private Throwable waitFor(Future<?> write) throws InterruptedIOException {
    try {
      write.get();
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a buffered write to " + table.getName());
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  /** Waits for every write handed off, even if interrupted: close must not lose a buffer. */
  private void awaitAllUninterruptibly() {
    boolean interrupted = false;
    for (Future<?> write : List.of(previousInFlight, inFlight)) {
      while (true) {
        try {
          write.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          break; // write() records its failures itself
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Hands the failures collected so far to the listener, once. */
  private void reportFailures() throws RetriesExhaustedWithDetailsException {
    List<Throwable> causes = new ArrayList<>();
    List<Row> actions = new ArrayList<>();
    List<String> servers = new ArrayList<>();
    for (Failure f = failures.poll(); f != null; f = failures.poll()) {
      causes.add(f.cause());
      actions.add(f.action());
      servers.add(f.server());
    }
    if (!causes.isEmpty()) {
      listener.onException(new RetriesExhaustedWithDetailsException(causes, actions, servers), this);
    }
  }

  @Override
  public void setWriteBufferPeriodicFlush(long timeoutMs, long timerTickMs) {
    synchronized (lock) {
      if (periodicFlush != null) {
        periodicFlush.cancel(false);
        periodicFlush = null;
      }
      periodicFlushTimeoutMs = Math.max(0, timeoutMs);
      periodicFlushTimerTickMs = Math.max(MIN_WRITE_BUFFER_PERIODIC_FLUSH_TIMERTICK_MS, timerTickMs);
      if (periodicFlushTimeoutMs == 0 || closed) {
        return;
      }
      if (timer == null) {
        String name = "secure-buffered-mutator-timer-" + table.getName().getNameAsString();
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, name));
      }
      periodicFlush = timer.scheduleWithFixedDelay(this::flushIfOld, periodicFlushTimerTickMs,
          periodicFlushTimerTickMs, TimeUnit.MILLISECONDS);
    }
  }

  /** The timer's tick: starts writing a buffer older than the timeout unless a write is running. */
  private void flushIfOld() {
    synchronized (lock) {
      if (!closed && !buffer.isEmpty() && inFlight.isDone()
          && System.nanoTime() - firstBufferedNanos >= TimeUnit.MILLISECONDS.toNanos(periodicFlushTimeoutMs)) {
        handOff(); // its failures reach the listener on the next call, as a full buffer's do
      }
    }
  }

  @Override
  public void disableWriteBufferPeriodicFlush() {
    setWriteBufferPeriodicFlush(0, MIN_WRITE_BUFFER_PERIODIC_FLUSH_TIMERTICK_MS);
  }

  @Override
  public long getWriteBufferPeriodicFlushTimeoutMs() {
    synchronized (lock) {
      return periodicFlushTimeoutMs;
    }
  }

  @Override
  public long getWriteBufferPeriodicFlushTimerTickMs() {
    synchronized (lock) {
      return periodicFlushTimerTickMs;
    }
  }

  /**
   * Writes what is buffered (even if the calling thread is interrupted), releases the threads and
   * the table, then reports the failures.
   */
  @Override
  public void close() throws IOException {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      try {
        if (timer != null) {
          timer.shutdownNow();
        }
        handOff();
        awaitAllUninterruptibly();
      } finally {
        preparer.shutdown();
        writer.shutdown();
        table.close();
      }
      reportFailures();
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the buffered mutator of " + table.getName() + " is closed");
    }
  }
}
