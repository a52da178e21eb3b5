package dev.cryptoworker.embedded.server;

import dev.cryptoworker.embedded.VisibilityHold;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * Fault injection for tests ({@link VisibilityHold}): holds a write in the window HBase leaves
 * between a batch's {@code postBatchMutate} hooks and the moment its cells become visible to new
 * scanners (its MVCC entry completes after those hooks, under the batch's row locks), until a
 * given number of scanners that opened on the region during the hold have closed. A race between
 * a write and whole scans that run in that window is then certain instead of rare.
 *
 * <p>Only a batch with a mutation carrying {@link VisibilityHold#ATTRIBUTE} is held (its first
 * byte: how many scanners), and at most {@link #MAX_HOLD_SECONDS}, so that a test that never scans
 * cannot wedge the region server. Registered with a priority after the observers under test, so
 * that their {@code postBatchMutate} has run when the write is held.
 */
public final class VisibilityHoldObserver implements RegionCoprocessor, RegionObserver {
  static final long MAX_HOLD_SECONDS = 60;

  private final Queue<CountDownLatch> held = new ConcurrentLinkedQueue<>();
  /** The holds open when each scanner opened, counted down when it closes. */
  private final Map<InternalScanner, List<CountDownLatch>> heldAtOpen = new ConcurrentHashMap<>();

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void postBatchMutate(
      ObserverContext<RegionCoprocessorEnvironment> ctx, MiniBatchOperationInProgress<Mutation> batch) {
    int scanners = scannersToWaitFor(batch);
    if (scanners == 0) {
      return;
    }
    CountDownLatch released = new CountDownLatch(scanners);
    held.add(released);
    try {
      released.await(MAX_HOLD_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      held.remove(released);
    }
  }

  @Override
  public RegionScanner postScannerOpen(
      ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan, RegionScanner scanner) {
    List<CountDownLatch> open = new ArrayList<>(held);
    if (!open.isEmpty()) {
      heldAtOpen.put(scanner, open);
    }
    return scanner;
  }

  @Override
  public void postScannerClose(ObserverContext<RegionCoprocessorEnvironment> ctx, InternalScanner scanner) {
    List<CountDownLatch> latches = heldAtOpen.remove(scanner);
    if (latches != null) {
      latches.forEach(CountDownLatch::countDown);
    }
  }

  private static int scannersToWaitFor(MiniBatchOperationInProgress<Mutation> batch) {
    for (int i = 0; i < batch.size(); i++) {
      byte[] hold = batch.getOperation(i).getAttribute(VisibilityHold.ATTRIBUTE);
      if (hold != null && hold.length > 0) {
        return hold[0];
      }
    }
    return 0;
  }
}
