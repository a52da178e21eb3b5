package dev.cryptoworker.layout.packed;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The epoch-management record of an APPEND-mode PACKED table: one cell per epoch in family
 * {@code m} of the first pack's row (qualifier: the epoch number, 8 bytes big-endian), holding the
 * epoch's state, the client holding its merge lease (0: none) and the lease's renewal count. Every
 * change is a conditional write on the cell's bytes as read, so two clients never both win a
 * transition. Not thread-safe (its table is not).
 *
 * <p>Exactly one epoch is OPEN: writers write into it. Closing it opens the next in the same
 * conditional write. A closed epoch is NOT_MERGED until a merger, holding its lease, has merged its
 * entries into packs (MERGED), then deleted them (DELETED). DELETED records beyond the newest few
 * are removed.
 */
public final class EpochRecords {
  public static final byte[] FAMILY = Bytes.toBytes("m");
  private static final int KEEP_DELETED = 8;
  private static final java.security.SecureRandom HOLDER_IDS = new java.security.SecureRandom();

  /** An epoch's state. */
  enum State {
    OPEN, NOT_MERGED, MERGED, DELETED
  }

  /**
   * One epoch's record as read.
   *
   * @param writtenAt the record cell's timestamp (the region server's clock when written)
   * @param stored the cell's bytes, which a transition compares
   */
  record Epoch(long epoch, State state, long holder, long renewal, long writtenAt, byte[] stored) {
    boolean leased() {
      return holder != 0;
    }
  }

  private final Table table;
  private final String tableName;

  EpochRecords(Table table, String tableName) {
    this.table = table;
    this.tableName = tableName;
  }

  /** A random id for a client holding merge leases: never 0, which records "no holder". */
  static long newHolderId() {
    long id;
    do {
      id = HOLDER_IDS.nextLong();
    } while (id == 0);
    return id;
  }

  static byte[] qualifier(long epoch) {
    return Bytes.toBytes(epoch);
  }

  private static byte[] value(State state, long holder, long renewal) {
    return ByteBuffer.allocate(17).put((byte) state.ordinal()).putLong(holder).putLong(renewal).array();
  }

  /** Adds epoch 1, open, to {@code firstPack}: the put that creates a new table's first pack. */
  static void addFirstEpoch(Put firstPack) {
    firstPack.addColumn(FAMILY, qualifier(1), value(State.OPEN, 0, 0));
  }

  /** Every record, by epoch. */
  NavigableMap<Long, Epoch> read() throws IOException {
    Result r = table.get(new Get(PackedLayout.FIRST_PACK).addFamily(FAMILY));
    NavigableMap<Long, Epoch> out = new TreeMap<>();
    if (r.rawCells() == null) {
      return out;
    }
    for (Cell c : r.rawCells()) {
      byte[] q = CellUtil.cloneQualifier(c);
      byte[] v = CellUtil.cloneValue(c);
      if (q.length != 8 || v.length != 17 || v[0] < 0 || v[0] >= State.values().length) {
        throw new IOException("table " + tableName + ": malformed epoch record " + Bytes.toStringBinary(q) + " = "
            + Bytes.toStringBinary(v));
      }
      ByteBuffer b = ByteBuffer.wrap(v);
      State state = State.values()[b.get()];
      long epoch = Bytes.toLong(q);
      out.put(epoch, new Epoch(epoch, state, b.getLong(), b.getLong(), c.getTimestamp(), v));
    }
    return out;
  }

  /** The OPEN epoch among {@code records}. */
  Epoch open(NavigableMap<Long, Epoch> records) throws IOException {
    for (Epoch e : records.descendingMap().values()) {
      if (e.state() == State.OPEN) {
        return e;
      }
    }
    throw new IOException("table " + tableName + " has no open epoch (not created as an APPEND table by"
        + " SecureConnection.createTable?)");
  }

  /** Closes {@code open} (to NOT_MERGED) and opens the next epoch; false if {@code open} changed meanwhile. */
  boolean close(Epoch open) throws IOException {
    RowMutations m = RowMutations.of(List.of(
        new Put(PackedLayout.FIRST_PACK).addColumn(FAMILY, qualifier(open.epoch()), value(State.NOT_MERGED, 0, 0)),
        new Put(PackedLayout.FIRST_PACK).addColumn(FAMILY, qualifier(open.epoch() + 1), value(State.OPEN, 0, 0))));
    return table.checkAndMutate(CheckAndMutate.newBuilder(PackedLayout.FIRST_PACK)
        .ifEquals(FAMILY, qualifier(open.epoch()), open.stored()).build(m)).isSuccess();
  }

  /**
   * Moves {@code from} to {@code state}, held by {@code holder} at {@code renewal}; the new record,
   * or null if the stored one is no longer {@code from}.
   */
  Epoch transition(Epoch from, State state, long holder, long renewal) throws IOException {
    byte[] v = value(state, holder, renewal);
    boolean done = table.checkAndMutate(CheckAndMutate.newBuilder(PackedLayout.FIRST_PACK)
        .ifEquals(FAMILY, qualifier(from.epoch()), from.stored())
        .build(new Put(PackedLayout.FIRST_PACK).addColumn(FAMILY, qualifier(from.epoch()), v))).isSuccess();
    return done ? new Epoch(from.epoch(), state, holder, renewal, from.writtenAt(), v) : null;
  }

  /** Removes DELETED records but the newest few (kept for operators to see). */
  void prune(NavigableMap<Long, Epoch> records) throws IOException {
    List<Epoch> deleted = new ArrayList<>();
    for (Map.Entry<Long, Epoch> e : records.entrySet()) {
      if (e.getValue().state() == State.DELETED) {
        deleted.add(e.getValue());
      }
    }
    for (int i = 0; i < deleted.size() - KEEP_DELETED; i++) {
      Epoch old = deleted.get(i);
      table.checkAndMutate(CheckAndMutate.newBuilder(PackedLayout.FIRST_PACK)
          .ifEquals(FAMILY, qualifier(old.epoch()), old.stored())
          .build(new Delete(PackedLayout.FIRST_PACK).addColumns(FAMILY, qualifier(old.epoch()))));
    }
  }
}
