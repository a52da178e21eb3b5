package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CounterTakeRequest.Take;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.regionserver.OperationStatus;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The counters of one counter-table region as the region's takes see them, so that a take writes
 * its counter blindly instead of reading it through the LSM first, as an HBase Increment does (the
 * read was most of a take's cost).
 *
 * <p>Each counter touched since the region opened is remembered (a bounded LRU per lock stripe),
 * and {@link RowPresence} says which rows the region may hold, built by one keys-only scan when the
 * first take arrives. The takes of a request are one batch of Puts (one write-ahead-log sync). From
 * the observer's {@code preBatchMutate} ({@link #apply}), each Put gets
 * its counter's new value: from memory; from the take's initial value when the row is certainly
 * absent; or, for a counter neither remembered nor certainly absent, from a Get. HBase locks a
 * Put's row shared, not exclusively as for an Increment, so takes of one counter are ordered by the
 * lock stripe of their row instead, and each later take's cell is stamped above the one before it:
 * the store keeps the highest count whichever Put lands last. Answers go out only after the batch,
 * so no client holds a number that a crash could hand out again.
 *
 * <p>A new value is remembered before its batch is durable; if the batch then fails, the numbers
 * it took are gaps that no search reaches (a search reads counters from the store, which never
 * held them). Writes to the region other than takes (identifier leases, a restore with raw Puts)
 * make the region forget the rows they touch. Thread-safe; state lives as long as the region is
 * open here.
 */
final class RegionCounters {
  /** The attribute on the Puts of takes: amount (8) || has initial (1) || initial (8). */
  static final String TAKE_ATTRIBUTE = "cryptoworker.counter.take";
  private static final int STRIPES = 64;
  /** Counters remembered per region: hot values stay, values written once are found absent by {@link RowPresence}. */
  private static final int REMEMBERED = 1 << 14;

  private final Region region;
  private final RowPresence presence = new RowPresence();
  private final Stripe[] stripes = new Stripe[STRIPES];
  private volatile boolean built;
  /** The one column whose counters the region counts, fixed by its first take. */
  private volatile Cell column;

  RegionCounters(Region region) {
    this.region = region;
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Stripe();
    }
  }

  /**
   * Applies {@code takes} (rows of this region, sorted, no row twice) to the counters in ({@code
   * family}, {@code qualifier}) and returns each counter's value after its take.
   */
  long[] take(byte[] family, byte[] qualifier, List<Take> takes) throws IOException {
    build();
    requireColumn(family, qualifier);
    Put[] puts = new Put[takes.size()];
    for (int i = 0; i < takes.size(); i++) {
      Take t = takes.get(i);
      Put put = new Put(t.row()).addColumn(family, qualifier, new byte[Bytes.SIZEOF_LONG]);
      put.setAttribute(TAKE_ATTRIBUTE, ByteBuffer.allocate(17).putLong(t.amount()).put((byte) (t.initial() == null ? 0 : 1))
          .putLong(t.initial() == null ? 0 : t.initial()).array());
      puts[i] = put;
    }
    OperationStatus[] statuses = puts.length == 0 ? new OperationStatus[0] : region.batchMutate(puts);
    long[] values = new long[takes.size()];
    for (int i = 0; i < statuses.length; i++) {
      if (statuses[i].getOperationStatusCode() != HConstants.OperationStatusCode.SUCCESS) {
        throw new IOException("region " + region.getRegionInfo().getRegionNameAsString() + ": the take from counter "
            + Bytes.toStringBinary(takes.get(i).row()) + " failed: " + statuses[i].getOperationStatusCode() + " "
            + statuses[i].getExceptionMsg());
      }
      Cell written = puts[i].get(family, qualifier).get(0);
      values[i] = Bytes.toLong(written.getValueArray(), written.getValueOffset());
    }
    return values;
  }

  private void requireColumn(byte[] family, byte[] qualifier) throws DoNotRetryIOException {
    if (column == null) {
      synchronized (this) {
        if (column == null) {
          column = CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(new byte[1]).setFamily(family)
              .setQualifier(qualifier).setType(Cell.Type.Put).build();
        }
      }
    }
    if (!CellUtil.matchingColumn(column, family, qualifier)) {
      throw new DoNotRetryIOException("refused counter take request: region " + region.getRegionInfo()
          .getRegionNameAsString() + " counts the column " + Bytes.toStringBinary(CellUtil.cloneFamily(column)) + ":"
          + Bytes.toStringBinary(CellUtil.cloneQualifier(column)) + ", not " + Bytes.toStringBinary(family) + ":"
          + Bytes.toStringBinary(qualifier) + " (one counter column per table)");
    }
  }

  /**
   * Gives a take's Put ({@code m}, carrying {@link #TAKE_ATTRIBUTE}) its counter's new value. Runs
   * before the Put is written.
   */
  void apply(Mutation m) throws IOException {
    byte[] attribute = m.getAttribute(TAKE_ATTRIBUTE);
    if (!(m instanceof Put) || attribute.length != 17 || m.getFamilyCellMap().size() != 1 || m.size() != 1) {
      throw new DoNotRetryIOException("refused write to row " + Bytes.toStringBinary(m.getRow()) + " of region "
          + region.getRegionInfo().getRegionNameAsString() + ": the attribute " + TAKE_ATTRIBUTE
          + " belongs on the one-cell Puts of counter takes");
    }
    ByteBuffer take = ByteBuffer.wrap(attribute);
    long amount = take.getLong();
    Long initial = take.get() == 1 ? take.getLong() : null;
    List<Cell> cells = m.getFamilyCellMap().values().iterator().next();
    Cell placeholder = cells.get(0);
    byte[] family = CellUtil.cloneFamily(placeholder);
    byte[] qualifier = CellUtil.cloneQualifier(placeholder);
    ByteBuffer key = ByteBuffer.wrap(m.getRow());
    Stripe stripe = stripes[Math.floorMod(key.hashCode(), STRIPES)];
    Counter after;
    // HBase locks a Put's row shared, so two takes of one counter can be here at once: the stripe
    // orders them, and the later one's cell gets the later timestamp, whichever reaches the store first.
    synchronized (stripe) {
      Counter before = stripe.get(key);
      if (before == null) {
        before = stored(m.getRow(), family, qualifier, initial);
      }
      after = new Counter(before.value() + amount, Math.max(placeholder.getTimestamp(), before.timestamp() + 1));
      stripe.put(key, after);
    }
    cells.set(0, CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(m.getRow()).setFamily(family)
        .setQualifier(qualifier).setTimestamp(after.timestamp()).setType(Cell.Type.Put)
        .setValue(Bytes.toBytes(after.value())).build());
  }

  /** A counter's value and the timestamp of its cell. */
  private record Counter(long value, long timestamp) {}

  /** Notes a write to the region that is not a take: the rows it touches are read from the store again. */
  void written(Mutation m) {
    if (m.getAttribute(TAKE_ATTRIBUTE) != null) {
      return;
    }
    presence.add(m.getRow());
    ByteBuffer key = ByteBuffer.wrap(m.getRow());
    Stripe stripe = stripes[Math.floorMod(key.hashCode(), STRIPES)];
    synchronized (stripe) {
      stripe.remove(key);
    }
  }

  /** The counter as stored: absent (the take's initial value, or 0), or read. */
  private Counter stored(byte[] row, byte[] family, byte[] qualifier, Long initial) throws IOException {
    Counter absent = new Counter(initial == null ? 0 : initial, 0);
    if (!presence.mightHold(row)) {
      return absent;
    }
    Cell cell = region.get(new Get(row).addColumn(family, qualifier)).getColumnLatestCell(family, qualifier);
    if (cell == null) {
      return absent;
    }
    if (cell.getValueLength() != Bytes.SIZEOF_LONG) {
      throw new DoNotRetryIOException("region " + region.getRegionInfo().getRegionNameAsString() + ": counter "
          + Bytes.toStringBinary(row) + " does not hold an 8-byte count");
    }
    return new Counter(Bytes.toLong(cell.getValueArray(), cell.getValueOffset()), cell.getTimestamp());
  }

  /**
   * Reads which rows the region holds, once. Rows the region writes meanwhile reach {@link
   * #written} too, and takes wait for the scan.
   */
  private void build() throws IOException {
    if (built) {
      return;
    }
    synchronized (this) {
      if (built) {
        return;
      }
      Scan scan = new Scan().setFilter(new FirstKeyOnlyFilter()).setCacheBlocks(false);
      RegionCells.forEach(region, scan, cell -> presence.add(CellUtil.cloneRow(cell))); // one cell per row
      built = true;
    }
  }

  /** Remembered counters of one lock stripe, least recently used first. Guarded by itself. */
  private static final class Stripe extends LinkedHashMap<ByteBuffer, Counter> {
    private static final long serialVersionUID = 1L;

    Stripe() {
      super(16, 0.75f, true);
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Counter> eldest) {
      return size() > REMEMBERED / STRIPES;
    }
  }
}
