package dev.cryptoworker.layout.packed;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.packs.CellVersion;
import dev.cryptoworker.packs.PackCodec;
import dev.cryptoworker.packs.PackDecodingException;
import dev.cryptoworker.packs.PackDictionary;
import dev.cryptoworker.packs.PackRows;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The entries of an APPEND-mode PACKED table: each put is one cell in family {@code e} of its own
 * stored row, named by its entry id (epoch, writer, sequence: 8 bytes each, big-endian), holding
 * that put's cells with their {@link CellVersion}, sealed by {@link PackCodec#sealEntry}. Keying
 * entries by row, not by epoch first as MiniCrypt does, spreads writes over the table's regions and
 * lets a get read a row's entries and its pack in one reverse scan; a merge finds an epoch's entries
 * by a column range over family {@code e}, which holds nothing but entries not merged yet.
 *
 * <p>Writes and the merger agree without clocks being in step: a merger reads an epoch's entries
 * only once it has seen the epoch closed for a lease's length ({@code leaseMillis}), and a writer
 * counts an entry as written only if it was stored within half a lease of a read that saw its
 * epoch still open; otherwise it reads the record again and, if the epoch closed meanwhile, writes
 * the entry again, with the same version, into the open one. Not thread-safe.
 */
public final class AppendEntries {
  public static final byte[] FAMILY = Bytes.toBytes("e");
  private static final SecureRandom IDS = new SecureRandom();
  /**
   * The versions this JVM seals into its entries: its clock in milliseconds, never decreasing, and
   * one sequence for all its table handles. Entries are ordered by the region server's timestamp of
   * their cell ({@link #open}), as HBase orders puts, not by these clocks: a writer whose clock runs
   * ahead would otherwise win over later writes of others. The sealed sequence breaks ties within
   * one server millisecond (puts of one JVM in order; puts of two JVMs in one millisecond in either).
   */
  private static final Object CLOCK = new Object();
  private static LongSupplier clock = System::currentTimeMillis;
  private static long clockMillis;
  private static long clockSequence;

  /** A stored entry: its row and cell (for deleting it) and its rows. */
  record Stored(byte[] storedKey, byte[] id, long timestamp, PackRows rows) {}

  private final Table table;
  private final TableCodec codec;
  private final PackCodec packs;
  private final EpochRecords records;
  private final long halfLeaseNanos;
  private final long writer;
  private long openEpoch = -1;
  /** When (System.nanoTime) the read that saw {@link #openEpoch} open began. */
  private long openSeenAt;

  AppendEntries(Table table, TableCodec codec, PackCodec packs, EpochRecords records, long leaseMillis) {
    this.table = table;
    this.codec = codec;
    this.packs = packs;
    this.records = records;
    this.halfLeaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis) / 2;
    this.writer = IDS.nextLong(); // any value: with the sequence it only keeps entry ids apart
  }

  static byte[] id(long epoch, long writer, long sequence) {
    return ByteBuffer.allocate(24).putLong(epoch).putLong(writer).putLong(sequence).array();
  }

  static long epochOf(byte[] id) {
    return Bytes.toLong(id, 0);
  }

  /**
   * Writes one entry per stored key, {@code cells.get(i)} holding that key's cells (no versions):
   * each entry's cells get one version, later than every version this JVM gave before. Returns
   * once every entry is in an epoch no merge has read yet.
   */
  void write(List<byte[]> storedKeys, List<PackRows> cells, PackDictionary dictionary) throws IOException {
    List<PackRows> versioned = new ArrayList<>(cells.size());
    long[] sequences = new long[cells.size()];
    for (int i = 0; i < sequences.length; i++) {
      CellVersion version = nextVersion();
      sequences[i] = version.sequence();
      versioned.add(versioned(storedKeys.get(i), cells.get(i), version));
    }
    if (openEpoch < 0 || System.nanoTime() - openSeenAt >= halfLeaseNanos) {
      readOpenEpoch();
    }
    while (true) {
      long epoch = openEpoch;
      List<Put> puts = new ArrayList<>(sequences.length);
      for (int i = 0; i < sequences.length; i++) {
        byte[] key = storedKeys.get(i);
        byte[] id = id(epoch, writer, sequences[i]);
        try {
          puts.add(new Put(key).addColumn(FAMILY, id, packs.sealEntry(key, id, versioned.get(i), dictionary)));
        } catch (GeneralSecurityException e) {
          throw new IOException("table " + codec.table() + ": cannot encrypt an entry of row "
              + codec.printableStoredRow(key) + ": " + e.getMessage(), e);
        }
      }
      table.put(puts);
      if (System.nanoTime() - openSeenAt < halfLeaseNanos) {
        return;
      }
      readOpenEpoch();
      if (openEpoch == epoch) {
        return; // still open after the write: a merge reads it only later
      }
      // The epoch closed while the entries were written: a merge may have read it without them,
      // so they are written again, same versions, into the open one.
    }
  }

  private static CellVersion nextVersion() {
    synchronized (CLOCK) {
      clockMillis = Math.max(clockMillis, clock.getAsLong());
      return new CellVersion(clockMillis, ++clockSequence);
    }
  }

  /** Tests: the clock new versions are read from, as if this JVM's clock ran elsewhere (the versions start again). */
  static void useClock(LongSupplier millis) {
    synchronized (CLOCK) {
      clock = millis;
      clockMillis = 0;
    }
  }

  private static PackRows versioned(byte[] storedKey, PackRows cells, CellVersion version) {
    PackRows out = new PackRows();
    cells.row(storedKey).forEach((family, columns) -> columns.forEach((qualifier, value) ->
        out.putIfNewer(storedKey, family, qualifier, value, version)));
    return out;
  }

  private void readOpenEpoch() throws IOException {
    long at = System.nanoTime();
    openEpoch = records.open(records.read()).epoch();
    openSeenAt = at;
  }

  /**
   * The rows of entry cell {@code cell} of stored row {@code storedKey}, each cell versioned by the
   * entry cell's server timestamp and the sealed sequence (see {@link #CLOCK}).
   */
  PackRows open(byte[] storedKey, Cell cell) throws IOException {
    byte[] id = CellUtil.cloneQualifier(cell);
    try {
      PackRows rows = packs.openEntry(storedKey, id, CellUtil.cloneValue(cell));
      if (rows.size() != 1 || !Arrays.equals(rows.keys().first(), storedKey)) {
        throw new CellDecodingException(codec.table(), codec.printableStoredRow(storedKey), "entry "
            + Bytes.toStringBinary(id), "holds other rows than its own");
      }
      PackRows byServerTime = new PackRows();
      rows.row(storedKey).forEach((family, columns) -> columns.forEach((qualifier, value) ->
          byServerTime.putIfNewer(storedKey, family, qualifier, value,
              new CellVersion(cell.getTimestamp(), rows.version(storedKey, family, qualifier).sequence()))));
      return byServerTime;
    } catch (PackDecodingException e) {
      throw new CellDecodingException(codec.table(), codec.printableStoredRow(storedKey), "entry "
          + Bytes.toStringBinary(id), e.reason());
    }
  }

  /** Every entry of row {@code stored} merged into one set of rows (null: the row has no entries). */
  PackRows merged(Result stored) throws IOException {
    PackRows out = null;
    for (Cell c : stored.rawCells()) {
      if (CellUtil.matchingFamily(c, FAMILY)) {
        PackRows rows = open(stored.getRow(), c);
        if (out == null) {
          out = rows;
        } else {
          out.merge(rows);
        }
      }
    }
    return out;
  }

  /**
   * The entries of the stored rows in a range (null bounds: unbounded), merged per row, read before
   * the range's packs so that an entry merged and deleted meanwhile is found in its pack.
   */
  NavigableMap<byte[], PackRows> inRange(byte[] low, boolean includeLow, byte[] high, boolean includeHigh)
      throws IOException {
    Scan scan = new Scan().addFamily(FAMILY).setCaching(100);
    if (low != null) {
      scan.withStartRow(low, includeLow);
    }
    if (high != null) {
      scan.withStopRow(high, includeHigh);
    }
    NavigableMap<byte[], PackRows> out = new TreeMap<>(Arrays::compareUnsigned);
    try (ResultScanner s = table.getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        out.put(r.getRow(), merged(r));
      }
    }
    return out;
  }

  /** The stored entries of epochs {@code 0} to {@code lastEpoch}, in stored row order, a chunk at a time. */
  Cursor upTo(long lastEpoch) throws IOException {
    Scan scan = new Scan().addFamily(FAMILY).setCaching(100)
        .setFilter(new ColumnRangeFilter(null, true, Bytes.toBytes(lastEpoch + 1), false)); // later ids sort after
    return new Cursor(table.getScanner(scan));
  }

  /** Entries as a scan finds them; closing it closes the scan. */
  final class Cursor implements AutoCloseable {
    private final ResultScanner scanner;

    private Cursor(ResultScanner scanner) {
      this.scanner = scanner;
    }

    /** The next entries, at least {@code atLeast} unless the scan ends (the last row's entries all in); empty at the end. */
    List<Stored> next(int atLeast) throws IOException {
      List<Stored> out = new ArrayList<>();
      for (Result r = out.size() < atLeast ? scanner.next() : null; r != null;
          r = out.size() < atLeast ? scanner.next() : null) {
        for (Cell c : r.rawCells()) {
          out.add(new Stored(r.getRow(), CellUtil.cloneQualifier(c), c.getTimestamp(), open(r.getRow(), c)));
        }
      }
      return out;
    }

    @Override
    public void close() {
      scanner.close();
    }
  }

  /** How many entries are stored (not merged yet, or merged and not deleted yet). */
  long count() throws IOException {
    long n = 0;
    try (ResultScanner s = table.getScanner(new Scan().addFamily(FAMILY).setCaching(1_000)
        .setFilter(new KeyOnlyFilter()))) {
      for (Result r = s.next(); r != null; r = s.next()) {
        n += r.rawCells().length;
      }
    }
    return n;
  }

  /** Deletes exactly the stored entries {@code entries} (an entry written since is not touched). */
  void delete(List<Stored> entries) throws IOException {
    List<Delete> deletes = new ArrayList<>(entries.size());
    for (Stored e : entries) {
      deletes.add(new Delete(e.storedKey()).addColumn(FAMILY, e.id(), e.timestamp()));
    }
    table.delete(deletes);
  }
}
