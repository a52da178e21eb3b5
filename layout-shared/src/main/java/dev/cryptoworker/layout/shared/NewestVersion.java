package dev.cryptoworker.layout.shared;

import java.util.OptionalLong;
import java.util.TreeSet;
import org.apache.hadoop.hbase.Cell;

/**
 * Which version of one cell a SHARED read returns, from the newest version each of more than r
 * answering clusters returned: the newest that at most r of them provably lack. A cluster provably
 * lacks a version when it answered with an older one or with none (HBase returns a cell's newest
 * version, so it would have returned that one or a newer). An acknowledged write reached at least
 * n - r clusters, so a version that more than r answering clusters lack was never acknowledged (a
 * put whose client crashed mid-way, a share forged by one cluster) or has been deleted since: it is
 * skipped, and one cluster cannot make a cell unreadable by holding a newer version than the
 * others. Nor is an older version returned while a newer acknowledged one exists: at least one of
 * more than r answering clusters took that write, and returns it or a newer version, which at most
 * r lack.
 */
final class NewestVersion {
  private NewestVersion() {}

  /**
   * The timestamp of the version to return, or empty if every version held is skipped (the cell is
   * absent: deleted, or never acknowledged).
   *
   * @param cells cluster i's newest cell, or null (it holds none, or did not answer)
   * @param answered whether cluster i answered; more than r must have
   * @param r the clusters a write may miss and still be acknowledged
   */
  static OptionalLong of(Cell[] cells, boolean[] answered, int r) {
    TreeSet<Long> versions = new TreeSet<>();
    for (Cell c : cells) {
      if (c != null) {
        versions.add(c.getTimestamp());
      }
    }
    for (long ts : versions.descendingSet()) {
      int lacking = 0;
      for (int i = 0; i < cells.length; i++) {
        if (answered[i] && (cells[i] == null || cells[i].getTimestamp() < ts)) {
          lacking++;
        }
      }
      if (lacking <= r) {
        return OptionalLong.of(ts);
      }
    }
    return OptionalLong.empty();
  }
}
