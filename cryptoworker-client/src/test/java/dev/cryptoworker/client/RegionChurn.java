package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Region churn that really happens: each split and each move is waited for and then checked
 * against hbase:meta, so a test cannot count a refused split, or a move to the server that already
 * hosts the region (which HBase skips without a word), as churn.
 */
final class RegionChurn implements AutoCloseable {
  private final Admin admin;
  private final RegionLocator locator;

  RegionChurn(Connection hbase, TableName table) throws IOException {
    this.admin = hbase.getAdmin();
    this.locator = hbase.getRegionLocator(table);
  }

  /** The table's regions as hbase:meta lists them now. */
  List<HRegionLocation> regions() throws IOException {
    return locator.getAllRegionLocations();
  }

  /**
   * Splits the region holding {@code storedKey} at that key, and checks that a region now starts
   * there. Only a region never split before is splittable at once (a daughter holds references to
   * its parent's files until compacted), so callers split regions their table was created with.
   */
  void splitAt(byte[] storedKey) throws IOException, InterruptedException {
    RegionInfo region = locator.getRegionLocation(storedKey, true).getRegion();
    int before = regions().size();
    try {
      admin.splitRegionAsync(region.getRegionName(), storedKey).get();
    } catch (ExecutionException e) {
      throw new IOException("split of " + region.getRegionNameAsString() + " failed", e.getCause());
    }
    List<HRegionLocation> after = regions();
    assertEquals(before + 1, after.size(), "a split makes one region two");
    assertTrue(after.stream().anyMatch(l -> Bytes.equals(storedKey, l.getRegion().getStartKey())),
        "a region starts at the split point " + Bytes.toStringBinary(storedKey));
  }

  /** Moves the region holding {@code storedKey} to a server that does not host it, and checks it landed. */
  ServerName moveAway(byte[] storedKey) throws IOException {
    HRegionLocation where = locator.getRegionLocation(storedKey, true);
    ServerName target = admin.getRegionServers().stream()
        .filter(s -> !s.equals(where.getServerName()))
        .min(Comparator.naturalOrder())
        .orElseThrow(() -> new AssertionError("a move needs a second region server"));
    admin.move(where.getRegion().getEncodedNameAsBytes(), target); // returns once the region is open there
    ServerName now = locator.getRegionLocation(storedKey, true).getServerName();
    assertNotEquals(where.getServerName(), now, "the region left its server");
    assertEquals(target, now, "the region is open on the server it was moved to");
    return now;
  }

  /**
   * For each region the table has now, the candidate key closest to the middle of those inside it
   * (excluding its start key): split points that put stored rows on both sides.
   */
  List<byte[]> midpoints(List<byte[]> candidates) throws IOException {
    List<byte[]> points = new ArrayList<>();
    for (HRegionLocation l : regions()) {
      RegionInfo r = l.getRegion();
      List<byte[]> inside = new ArrayList<>();
      for (byte[] k : candidates) {
        if (r.containsRow(k) && !Bytes.equals(k, r.getStartKey())) {
          inside.add(k);
        }
      }
      if (inside.size() >= 2) {
        inside.sort(Bytes.BYTES_COMPARATOR);
        points.add(inside.get(inside.size() / 2));
      }
    }
    return points;
  }

  @Override
  public void close() throws IOException {
    try {
      locator.close();
    } finally {
      admin.close();
    }
  }
}
