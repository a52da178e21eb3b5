package dev.cryptoworker.layout.packed;

import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.ClientFilteredScanner;
import dev.cryptoworker.client.spi.ClientSideFilter;
import dev.cryptoworker.packs.PackRows;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;

/**
 * A scan of a PACKED table: packs in stored key order (or reversed), each opened (in APPEND mode
 * with the entries of its range merged in) and its rows given out in order, keeping only the rows in the scan's bounds and, of each pack, those below the
 * next pack's id (a pack whose split is under way still holds rows already copied to the next).
 */
final class PackedScanner extends ClientFilteredScanner {
  /** A scan's row bounds in stored keys (null: unbounded); for a reversed scan start is the highest. */
  record Bounds(byte[] start, boolean includeStart, byte[] stop, boolean includeStop, boolean reversed) {
    boolean contains(byte[] key) {
      int sign = reversed ? -1 : 1;
      if (start != null) {
        int c = sign * Arrays.compareUnsigned(key, start);
        if (c < 0 || c == 0 && !includeStart) {
          return false;
        }
      }
      if (stop != null) {
        int c = sign * Arrays.compareUnsigned(key, stop);
        return c < 0 || c == 0 && includeStop;
      }
      return true;
    }
  }

  /** Opens a stored pack row. */
  @FunctionalInterface
  interface Opener {
    StoredPack open(Result stored) throws IOException;
  }

  private final ResultScanner stored;
  private final Opener opener;
  private final Bounds bounds;
  private final NavigableMap<byte[], PackRows> entries;
  private final Map<byte[], NavigableSet<byte[]>> columns;
  private final TableCodec codec;
  private final Deque<byte[]> keys = new ArrayDeque<>();
  private StoredPack current;
  private StoredPack lookahead;
  private byte[] previousId;
  private boolean started;
  private boolean lastPack;

  /**
   * @param stored the stored packs from the one holding the scan's start, in the scan's order
   * @param entries APPEND mode: the entries not merged yet in the scan's range, by stored key, read
   *     before the packs (empty: none)
   * @param filter the caller's filter, run on decoded rows (null: none)
   * @param limit rows to return at most (0 or less: no limit)
   */
  PackedScanner(ResultScanner stored, Opener opener, Bounds bounds, NavigableMap<byte[], PackRows> entries,
      Map<byte[], NavigableSet<byte[]>> columns, TableCodec codec, ClientSideFilter filter, int limit) {
    super(filter, limit);
    this.stored = stored;
    this.opener = opener;
    this.bounds = bounds;
    this.entries = entries;
    this.columns = columns;
    this.codec = codec;
  }

  private StoredPack read() throws IOException {
    Result r = stored.next();
    return r == null ? null : opener.open(r);
  }

  /** Moves to the next pack with rows to give; false at the end. */
  private boolean advance() throws IOException {
    while (keys.isEmpty()) {
      if (lastPack) {
        return false;
      }
      byte[] clip;
      if (bounds.reversed()) {
        current = read();
        if (current == null) {
          return false;
        }
        clip = previousId;
        previousId = current.id();
        // Packs further down hold nothing above this one's id: past the low bound, this is the last.
        lastPack = bounds.stop() != null && Arrays.compareUnsigned(current.id(), bounds.stop()) <= 0;
      } else {
        if (!started) {
          lookahead = read();
          started = true;
        }
        current = lookahead;
        if (current == null) {
          return false;
        }
        lookahead = read();
        clip = lookahead == null ? null : lookahead.id();
      }
      // Entries of this pack's range join its rows (a row may be in entries only).
      var ofPack = clip == null ? entries.tailMap(current.id(), true) : entries.subMap(current.id(), true, clip, false);
      ofPack.values().forEach(current.rows()::merge);
      keys.addAll(current.keys(k -> StoredPack.below(k, clip) && bounds.contains(k), bounds.reversed()));
    }
    return true;
  }

  @Override
  protected Result nextRow() throws IOException {
    if (keys.isEmpty() && !advance()) {
      return null;
    }
    byte[] key = keys.poll();
    Result row = current.result(key, codec.decodeRow(key), columns);
    return row == null ? Result.EMPTY_RESULT : row;
  }

  @Override
  public void close() {
    stored.close();
  }
}
