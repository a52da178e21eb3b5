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
 * families and qualifiers to values, the latest version only. Cells written in APPEND mode carry
 * their {@link CellVersion} (serialized in format 2); others have {@link CellVersion#NONE}
 * (format 1). Not thread-safe: a client reads a pack, changes it, and seals it again.
 */
public final class PackRows {
  private static final int FORMAT = 1;
  private static final int VERSIONED_FORMAT = 2;

  private final NavigableMap<byte[], NavigableMap<byte[], NavigableMap<byte[], byte[]>>> rows =
      new TreeMap<>(Arrays::compareUnsigned);
  /** Versions of the cells that have one (row, family, qualifier), kept in step with {@link #rows}. */
  private final NavigableMap<byte[], NavigableMap<byte[], NavigableMap<byte[], CellVersion>>> versions =
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

  /** Sets one cell (replacing its value if present), with no version. */
  public void put(byte[] row, byte[] family, byte[] qualifier, byte[] value) {
    Objects.requireNonNull(value, "value");
    rows.computeIfAbsent(row.clone(), r -> byteMap()).computeIfAbsent(family.clone(), f -> byteMap())
        .put(qualifier.clone(), value.clone());
    removeVersion(row, family, qualifier);
  }

  /**
   * Sets one cell to {@code value} at {@code version} unless it holds a higher version; at an equal
   * version the greater value (unsigned bytes) stays, so the outcome never depends on the order
   * in which versions arrive.
   *
   * @return whether the cell changed
   */
  public boolean putIfNewer(byte[] row, byte[] family, byte[] qualifier, byte[] value, CellVersion version) {
    Objects.requireNonNull(value, "value");
    NavigableMap<byte[], byte[]> columns = rows.computeIfAbsent(row.clone(), r -> byteMap())
        .computeIfAbsent(family.clone(), f -> byteMap());
    byte[] old = columns.get(qualifier);
    if (old != null) {
      int c = version(row, family, qualifier).compareTo(version);
      if (c > 0 || c == 0 && Arrays.compareUnsigned(old, value) >= 0) {
        return false;
      }
    }
    columns.put(qualifier.clone(), value.clone());
    if (version.equals(CellVersion.NONE)) {
      removeVersion(row, family, qualifier);
    } else {
      versions.computeIfAbsent(row.clone(), r -> byteMap()).computeIfAbsent(family.clone(), f -> byteMap())
          .put(qualifier.clone(), version);
    }
    return true;
  }

  /** Applies every cell of {@code newer} with {@link #putIfNewer}; true if any changed. */
  public boolean merge(PackRows newer) {
    boolean changed = false;
    for (var r : newer.rows.entrySet()) {
      for (var f : r.getValue().entrySet()) {
        for (var c : f.getValue().entrySet()) {
          changed |= putIfNewer(r.getKey(), f.getKey(), c.getKey(), c.getValue(),
              newer.version(r.getKey(), f.getKey(), c.getKey()));
        }
      }
    }
    return changed;
  }

  /** The version of a cell ({@link CellVersion#NONE} if it has none or is absent). */
  public CellVersion version(byte[] row, byte[] family, byte[] qualifier) {
    var r = versions.get(row);
    var f = r == null ? null : r.get(family);
    CellVersion v = f == null ? null : f.get(qualifier);
    return v == null ? CellVersion.NONE : v;
  }

  private void removeVersion(byte[] row, byte[] family, byte[] qualifier) {
    var r = versions.get(row);
    var f = r == null ? null : r.get(family);
    if (f != null && f.remove(qualifier) != null && f.isEmpty()) {
      r.remove(family);
      if (r.isEmpty()) {
        versions.remove(row);
      }
    }
  }

  /** Removes a row; false if it was not here. */
  public boolean deleteRow(byte[] row) {
    versions.remove(row);
    return rows.remove(row) != null;
  }

  /** Removes a family of a row (the row too if nothing is left); false if it was not here. */
  public boolean deleteFamily(byte[] row, byte[] family) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> r = rows.get(row);
    if (r == null || r.remove(family) == null) {
      return false;
    }
    var rowVersions = versions.get(row);
    if (rowVersions != null && rowVersions.remove(family) != null && rowVersions.isEmpty()) {
      versions.remove(row);
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
    removeVersion(row, family, qualifier);
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
        var rowVersions = versions.get(k);
        if (rowVersions != null) {
          out.versions.put(k, deepCopy(rowVersions));
        }
      }
    });
    return out;
  }

  private static <V> NavigableMap<byte[], NavigableMap<byte[], V>> deepCopy(
      NavigableMap<byte[], NavigableMap<byte[], V>> row) {
    NavigableMap<byte[], NavigableMap<byte[], V>> out = byteMap();
    row.forEach((f, q) -> {
      NavigableMap<byte[], V> copy = byteMap();
      copy.putAll(q);
      out.put(f, copy);
    });
    return out;
  }

  /**
   * The serialized rows: a format byte, the split mark, then counts and length-prefixed bytes
   * (varints); in format 2 (some cell has a version) each value is followed by its version.
   */
  byte[] serialize() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    boolean versioned = !versions.isEmpty();
    out.write(versioned ? VERSIONED_FORMAT : FORMAT);
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
          if (versioned) {
            CellVersion v = version(row, family, qualifier);
            Varints.write(out, v.timestamp());
            Varints.write(out, v.sequence());
          }
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
    if (format != FORMAT && format != VERSIONED_FORMAT) {
      throw new IllegalArgumentException("rows in format " + format + ", " + FORMAT + " or " + VERSIONED_FORMAT
          + " expected");
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
          byte[] qualifier = in.readBytes();
          columns.put(qualifier, in.readBytes());
          if (format == VERSIONED_FORMAT) {
            CellVersion v = new CellVersion(in.read(), in.read());
            if (!v.equals(CellVersion.NONE)) {
              out.versions.computeIfAbsent(row, k -> byteMap()).computeIfAbsent(family, k -> byteMap())
                  .put(qualifier, v);
            }
          }
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
