package dev.cryptoworker.region;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Counter-table cells that a row's own region writes before the row: how a single put on a table
 * with a search index (stored formats 6 and 7) stores its count cells and its row in one round trip
 * and still never leaves a stored row that no search finds.
 *
 * <p>The put carries them as one cell of {@link #FAMILY}, a family no table has: qualifier the
 * counter table's name, value {@link #encode}d cells. CryptoWorker's region observer takes that cell
 * out of the put before HBase checks its families, writes the counter cells, and only then lets the
 * row be written. A region without that observer refuses the put (no such family) instead of
 * storing the row alone.
 */
public final class CountCellsFirst {
  /** The family of the carrying cell; not a family any table has. */
  public static final byte[] FAMILY = "cryptoworker.count-cells-first".getBytes(StandardCharsets.US_ASCII);
  private static final byte VERSION = 1;
  /** Cells per put, at most: a put has one count cell per searchable column (format 6) or one log cell (format 7). */
  public static final int MAX_CELLS = 4096;

  private CountCellsFirst() {}

  /** One counter-table cell. */
  public record CounterCell(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value) {}

  /** {@code version (1) || count (4) || per cell: row (2 + n) || family (1 + n) || qualifier (2 + n) || timestamp (8) || value (4 + n)}. */
  public static byte[] encode(List<CounterCell> cells) {
    if (cells.isEmpty() || cells.size() > MAX_CELLS) {
      throw new IllegalArgumentException("between 1 and " + MAX_CELLS + " counter cells, not " + cells.size());
    }
    int size = 1 + Integer.BYTES;
    for (CounterCell c : cells) {
      size += 2 + c.row().length + 1 + c.family().length + 2 + c.qualifier().length + Long.BYTES + Integer.BYTES
          + c.value().length;
    }
    ByteBuffer out = ByteBuffer.allocate(size).put(VERSION).putInt(cells.size());
    for (CounterCell c : cells) {
      if (c.row().length > Short.MAX_VALUE || c.family().length > Byte.MAX_VALUE || c.qualifier().length > Short.MAX_VALUE) {
        throw new IllegalArgumentException("a counter cell's row, family or qualifier is too long");
      }
      out.putShort((short) c.row().length).put(c.row()).put((byte) c.family().length).put(c.family())
          .putShort((short) c.qualifier().length).put(c.qualifier()).putLong(c.timestamp())
          .putInt(c.value().length).put(c.value());
    }
    return out.array();
  }

  /**
   * The cells of an {@link #encode}d value.
   *
   * @throws IllegalArgumentException if {@code value} is not one, naming why
   */
  public static List<CounterCell> decode(byte[] value) {
    try {
      ByteBuffer in = ByteBuffer.wrap(value);
      if (in.get() != VERSION) {
        throw new IllegalArgumentException("unknown version " + value[0] + " of count cells carried in a put");
      }
      int n = in.getInt();
      if (n < 1 || n > MAX_CELLS) {
        throw new IllegalArgumentException("a put carries between 1 and " + MAX_CELLS + " count cells, not " + n);
      }
      List<CounterCell> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        byte[] row = bytes(in, in.getShort());
        byte[] family = bytes(in, in.get());
        byte[] qualifier = bytes(in, in.getShort());
        long timestamp = in.getLong();
        if (row.length == 0 || family.length == 0) {
          throw new IllegalArgumentException("count cell " + i + " has an empty row or family");
        }
        if (timestamp < 0) { // Long.MAX_VALUE is HBase's "the server's clock", as a log cell's
          throw new IllegalArgumentException("count cell " + i + "'s timestamp is " + timestamp + ", below 0");
        }
        out.add(new CounterCell(row, family, qualifier, timestamp, bytes(in, in.getInt())));
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException(in.remaining() + " bytes after the count cells carried in a put");
      }
      return out;
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("count cells carried in a put end early");
    }
  }

  private static byte[] bytes(ByteBuffer in, int length) {
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("a count cell carried in a put has a length of " + length + " past its end");
    }
    byte[] out = new byte[length];
    in.get(out);
    return out;
  }
}
