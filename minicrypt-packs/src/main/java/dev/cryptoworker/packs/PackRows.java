package dev.cryptoworker.packs;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The logical rows of one pack, sorted by row key (unsigned bytes, as HBase orders them): per row,
 * families and qualifiers to values, the latest version only. Not thread-safe: a client reads a
 * pack, changes it, and seals it again.
 */
public final class PackRows {
  private static final int FORMAT = 1;

  private final NavigableMap<byte[], NavigableMap<byte[], NavigableMap<byte[], byte[]>>> rows =
      new TreeMap<>(Arrays::compareUnsigned);
  /** The stored key at which a split of this pack is under way (null: none); see {@link #markSplit}. */
  private byte[] pendingSplit;

  /**
   * Marks this pack as being split at stored key {@code storedKey}: the rows from there on are to
   * move to a new pack of that id. A split writes the mark first, so that every writer of the pack
   * sees it and finishes the split before changing the pack (no write to the moving rows is lost
   * between the new pack's creation and the old one's shrinking).
   */
  public void markSplit(byte[] storedKey) {
    pendingSplit = storedKey.clone();
  }

  /** The stored key of a split under way, or null. */
  public byte[] pendingSplit() {
    return pendingSplit == null ? null : pendingSplit.clone();
  }

  public void clearSplit() {
    pendingSplit = null;
  }

  private static <V> NavigableMap<byte[], V> byteMap() {
    return new TreeMap<>(Arrays::compareUnsigned);
  }

  /** Sets one cell (replacing its value if present). */
  public void put(byte[] row, byte[] family, byte[] qualifier, byte[] value) {
    Objects.requireNonNull(value, "value");
    rows.computeIfAbsent(row.clone(), r -> byteMap()).computeIfAbsent(family.clone(), f -> byteMap())
        .put(qualifier.clone(), value.clone());
  }

  /** Removes a row; false if it was not here. */
  public boolean deleteRow(byte[] row) {
    return rows.remove(row) != null;
  }

  /** Removes a family of a row (the row too if nothing is left); false if it was not here. */
  public boolean deleteFamily(byte[] row, byte[] family) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> r = rows.get(row);
    if (r == null || r.remove(family) == null) {
      return false;
    }
    if (r.isEmpty()) {
      rows.remove(row);
    }
    return true;
  }

  /** Removes one cell (the family and row too if nothing is left); false if it was not here. */
  public boolean deleteColumn(byte[] row, byte[] family, byte[] qualifier) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> r = rows.get(row);
    NavigableMap<byte[], byte[]> f = r == null ? null : r.get(family);
    if (f == null || f.remove(qualifier) == null) {
      return false;
    }
    if (f.isEmpty()) {
      r.remove(family);
      if (r.isEmpty()) {
        rows.remove(row);
      }
    }
    return true;
  }

  /** Row {@code row}: family to qualifier to value (unmodifiable), or null if absent. */
  public NavigableMap<byte[], NavigableMap<byte[], byte[]>> row(byte[] row) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> r = rows.get(row);
    return r == null ? null : Collections.unmodifiableNavigableMap(r);
  }

  /** The row keys, in order (unmodifiable). */
  public NavigableSet<byte[]> keys() {
    return Collections.unmodifiableNavigableSet(rows.navigableKeySet());
  }

  public int size() {
    return rows.size();
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** A copy holding only the rows {@code keep} accepts (no split mark). */
  public PackRows filter(java.util.function.Predicate<byte[]> keep) {
    PackRows out = new PackRows();
    rows.forEach((k, v) -> {
      if (keep.test(k)) {
        out.rows.put(k, deepCopy(v));
      }
    });
    return out;
  }

  private static NavigableMap<byte[], NavigableMap<byte[], byte[]>> deepCopy(
      NavigableMap<byte[], NavigableMap<byte[], byte[]>> row) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> out = byteMap();
    row.forEach((f, q) -> {
      NavigableMap<byte[], byte[]> copy = byteMap();
      copy.putAll(q);
      out.put(f, copy);
    });
    return out;
  }

  /** The serialized rows: a format byte, the split mark, then counts and length-prefixed bytes (varints). */
  byte[] serialize() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(FORMAT);
    if (pendingSplit == null) {
      out.write(0);
    } else {
      out.write(1);
      Varints.writeBytes(out, pendingSplit);
    }
    Varints.write(out, rows.size());
    rows.forEach((row, families) -> {
      Varints.writeBytes(out, row);
      Varints.write(out, families.size());
      families.forEach((family, columns) -> {
        Varints.writeBytes(out, family);
        Varints.write(out, columns.size());
        columns.forEach((qualifier, value) -> {
          Varints.writeBytes(out, qualifier);
          Varints.writeBytes(out, value);
        });
      });
    });
    return out.toByteArray();
  }

  /**
   * The rows {@link #serialize} wrote.
   *
   * @throws IllegalArgumentException naming what is malformed
   */
  static PackRows parse(byte[] bytes) {
    Varints.Reader in = new Varints.Reader(bytes);
    int format = in.readByte();
    if (format != FORMAT) {
      throw new IllegalArgumentException("rows in format " + format + ", " + FORMAT + " expected");
    }
    PackRows out = new PackRows();
    int marked = in.readByte();
    if (marked > 1) {
      throw new IllegalArgumentException("split mark " + marked + ", 0 or 1 expected");
    }
    out.pendingSplit = marked == 1 ? in.readBytes() : null;
    int rowCount = in.readCount();
    byte[] previous = null;
    for (int r = 0; r < rowCount; r++) {
      byte[] row = in.readBytes();
      if (previous != null && Arrays.compareUnsigned(previous, row) >= 0) {
        throw new IllegalArgumentException("row keys out of order at row " + r);
      }
      previous = row;
      NavigableMap<byte[], NavigableMap<byte[], byte[]>> families = byteMap();
      int familyCount = in.readCount();
      for (int f = 0; f < familyCount; f++) {
        byte[] family = in.readBytes();
        NavigableMap<byte[], byte[]> columns = byteMap();
        int columnCount = in.readCount();
        for (int c = 0; c < columnCount; c++) {
          columns.put(in.readBytes(), in.readBytes());
        }
        families.put(family, columns);
      }
      out.rows.put(row, families);
    }
    if (!in.atEnd()) {
      throw new IllegalArgumentException(in.remaining() + " bytes after the last row");
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PackRows p && Arrays.equals(p.serialize(), serialize());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(serialize());
  }
}
