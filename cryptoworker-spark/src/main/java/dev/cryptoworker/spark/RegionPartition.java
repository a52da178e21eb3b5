package dev.cryptoworker.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One region's stored-key range [{@code start}, {@code end}) (empty: unbounded), read on its
 * server's host where Spark can; the whole table when {@code start} is null.
 */
record RegionPartition(byte[] start, byte[] end, String host) implements InputPartition {
  static RegionPartition wholeTable() {
    return new RegionPartition(null, null, null);
  }

  boolean isWholeTable() {
    return start == null;
  }

  @Override
  public String[] preferredLocations() {
    return host == null ? new String[0] : new String[] {host};
  }
}
