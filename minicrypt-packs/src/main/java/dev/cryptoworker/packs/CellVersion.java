package dev.cryptoworker.packs;

/**
 * The version of a cell written in APPEND mode: a timestamp in milliseconds, then a sequence number
 * that breaks ties. A writer seals its own clock (never decreasing per writer) and its sequence into
 * each entry; the PACKED layout ({@code AppendEntries} in layout-packed) re-stamps the cells of an
 * entry it opens with the region server's timestamp of the entry's cell, keeping the sealed
 * sequence, so cells are ordered as HBase orders puts and a writer whose clock runs ahead does not
 * win over later writes of others. A merge keeps, per cell, the value of the highest version, so
 * merging the same entries twice, or in any order, gives the same pack. Cells written by GENERIC
 * puts have version {@link #NONE}, below every other.
 */
public record CellVersion(long timestamp, long sequence) implements Comparable<CellVersion> {
  public static final CellVersion NONE = new CellVersion(0, 0);

  public CellVersion {
    if (timestamp < 0 || sequence < 0) {
      throw new IllegalArgumentException("a cell version is not negative: " + timestamp + "/" + sequence);
    }
  }

  @Override
  public int compareTo(CellVersion o) {
    int c = Long.compare(timestamp, o.timestamp);
    return c != 0 ? c : Long.compare(sequence, o.sequence);
  }
}
