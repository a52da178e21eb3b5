package dev.cryptoworker.layout.packed;

import dev.cryptoworker.client.spi.LayoutContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection's mergers of APPEND-mode tables: one layout per table, kept for the connection's
 * life (its merger remembers which leases it saw unchanged, and since when), and one daemon thread
 * running their rounds in the background for the tables asked. Thread-safe.
 */
final class EpochMergers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EpochMergers.class);

  private final Map<TableName, PackedLayout> layouts = new ConcurrentHashMap<>();
  private final Map<TableName, Boolean> scheduled = new ConcurrentHashMap<>();
  /** The last failure logged per table, so that a failing round is logged once, not every round. */
  private final Map<TableName, String> lastFailure = new ConcurrentHashMap<>();
  private ScheduledExecutorService scheduler;
  private boolean closed;

  /** The layout the merges of {@code context}'s table run through. */
  PackedLayout layout(LayoutContext context) throws IOException {
    try {
      return layouts.computeIfAbsent(context.table(), n -> {
        try {
          return PackedLayout.open(context);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Starts merging {@code name} in the background, if not yet. */
  synchronized void mergeInBackground(LayoutContext context) {
    TableName name = context.table();
    PackedTableLayout layout = (PackedTableLayout) context.layout();
    if (closed || scheduled.putIfAbsent(name, Boolean.TRUE) != null) {
      return;
    }
    if (scheduler == null) {
      scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cryptoworker-epoch-merges");
        t.setDaemon(true);
        return t;
      });
    }
    long every = Math.max(100, Math.min(layout.epochMillis(), layout.leaseMillis()) / 2);
    scheduler.scheduleWithFixedDelay(() -> round(context), every, every, TimeUnit.MILLISECONDS);
  }

  private void round(LayoutContext context) {
    TableName name = context.table();
    try {
      layout(context).mergeEpochs();
      lastFailure.remove(name);
    } catch (IOException | RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      if (!Objects.equals(lastFailure.put(name, message), message)) {
        LOG.warn("table {}: a background merge round failed (retried next round): {}", name, message);
      }
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (scheduler != null) {
      scheduler.shutdown();
      try {
        scheduler.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (PackedLayout layout : layouts.values()) {
      try {
        layout.close();
      } catch (IOException e) {
        LOG.debug("closing a merger's table", e);
      }
    }
    layouts.clear();
  }
}
