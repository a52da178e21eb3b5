package dev.cryptoworker.coprocessor;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;

/**
 * The search indexes of regions this server closed lately, kept for a while so that the regions a
 * split or a merge makes of them, which HBase opens on the same server, take their entries instead
 * of reading every index cell of their files again. At 1 M rows that read kept a split's daughters
 * closed to writes for 4 and 9 seconds.
 *
 * <p>A region inherits only when it provably holds nothing its parents' indexes lack: each of its
 * store files is a reference or link to a file of a kept region, written before that region closed (its
 * sequence id at most the region's last flushed one), and its memstore is empty (no edits
 * replayed). Otherwise it reads its index cells as any region does. The cost is memory: a
 * parent's index stays beside its daughters' copies for {@link #KEEP_MINUTES} minutes, and a region
 * closed for any other reason (a move, a disabled table) keeps its index that long, unused.
 */
final class ClosedRegionIndexes {
  static final long KEEP_MINUTES = 2;

  /** One per region server JVM: a split's parent and daughters share this class's loader. */
  static final ClosedRegionIndexes SERVER = new ClosedRegionIndexes();

  private record Closed(RegionSearchIndex index, long lastFlushedSequenceId) {}

  private final Map<String, Closed> byRegion = new ConcurrentHashMap<>();

  /** Keeps the index of {@code region}, just closed (its memstore flushed), for its daughters. */
  void keep(Region region, RegionSearchIndex index) {
    String name = region.getRegionInfo().getEncodedName();
    Closed closed = new Closed(index, region.getMaxFlushedSeqId());
    byRegion.put(name, closed);
    CompletableFuture.delayedExecutor(KEEP_MINUTES, TimeUnit.MINUTES).execute(() -> byRegion.remove(name, closed));
  }

  /**
   * The index of {@code region}, opening, from the kept indexes of the regions all its store files
   * refer or link to; empty if it has a file of its own, a file of a region not kept or written after it
   * closed, edits in its memstore, or no file at all (then reading its cells costs little).
   */
  Optional<RegionSearchIndex> inherited(Region region) {
    if (region.getMemStoreDataSize() != 0) {
      return Optional.empty();
    }
    Map<String, Closed> parents = new HashMap<>();
    for (Store store : region.getStores()) {
      for (StoreFile file : store.getStorefiles()) {
        Optional<String> parent = parentOf(file);
        Closed closed = parent.isPresent() ? byRegion.get(parent.get()) : null;
        // A top half's reference reads one above its file's sequence id (HStoreFile.open).
        if (closed == null || file.getMaxSequenceId() > closed.lastFlushedSequenceId() + 1) {
          return Optional.empty();
        }
        parents.put(parent.get(), closed);
      }
    }
    if (parents.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(RegionSearchIndex.within(region.getRegionInfo(),
        parents.values().stream().map(Closed::index).toList()));
  }

  /**
   * The region whose file {@code file} stands for: a split writes a reference to half a parent's
   * file, or a link to a file that lies wholly in one daughter; empty for a file of the region's own.
   */
  private static Optional<String> parentOf(StoreFile file) {
    String name = file.getPath().getName();
    if (file instanceof HStoreFile h && h.isReference()) {
      return Optional.of(StoreFileInfo.getReferredToRegionAndFile(name).getFirst());
    }
    return HFileLink.isHFileLink(name) ? Optional.of(HFileLink.getReferencedRegionName(name)) : Optional.empty();
  }
}
