package dev.cryptoworker.layout.packed;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.client.spi.StoredUnits;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.packs.PackCodec;
import dev.cryptoworker.packs.PackDecodingException;
import dev.cryptoworker.packs.PackRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalInt;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A PACKED table's stored cells for inspection and audits: each pack (its id, key ids, whether it
 * opens, how many rows it holds), each APPEND entry, the dictionaries and epoch records, and, for
 * one row, the logical cells its pack and entries hold ({@link InspectedCell.Kind#IN_PACK}).
 */
final class PackedUnits implements StoredUnits {
  private static final int SCAN_CACHING = 100;

  private final Table table;
  private final TableCodec codec;
  private final PackCodec packs;
  private final PackDictionaryStore dictionaries;
  private final List<Integer> keysetKeyIds;
  private final boolean rowKeyed;
  /** APPEND mode: rows may have entries not merged into their pack yet. */
  private final boolean entries;

  PackedUnits(Table table, TableCodec codec, PackCodec packs, PackDictionaryStore dictionaries, boolean entries,
      Collection<Integer> keysetKeyIds) {
    this.table = table;
    this.codec = codec;
    this.packs = packs;
    this.dictionaries = dictionaries;
    this.keysetKeyIds = List.copyOf(keysetKeyIds);
    this.entries = entries;
    this.rowKeyed = !codec.rowKeysInPlaintext();
  }

  @Override
  public List<InspectedCell> row(byte[] row) throws IOException {
    codec.checkRowType(row);
    byte[] storedKey = codec.encodeRow(row);
    List<InspectedCell> out = new ArrayList<>();
    Scan packFor = new Scan().withStartRow(storedKey, true).setReversed(true).setLimit(1).setCaching(1)
        .addColumn(PackedLayout.FAMILY, PackedLayout.PACK);
    try (ResultScanner s = table.getScanner(packFor)) {
      Result pack = s.next();
      if (pack != null) {
        Cell cell = pack.getColumnLatestCell(PackedLayout.FAMILY, PackedLayout.PACK);
        PackRows rows = openPack(cell, out);
        if (rows != null) {
          addRow(rows, storedKey, row, cell.getTimestamp(), out);
        }
      }
    }
    if (entries) {
      Result stored = table.get(new Get(storedKey).addFamily(AppendEntries.FAMILY).readAllVersions());
      for (Cell cell : stored.rawCells()) {
        PackRows rows = openEntry(cell, row, out);
        if (rows != null) {
          addRow(rows, storedKey, row, cell.getTimestamp(), out);
        }
      }
    }
    // The pack found is the one below the key: it holds the row only if it has its cells. One that
    // does not open might: it is reported.
    return out.stream().anyMatch(c -> c.kind() == InspectedCell.Kind.IN_PACK || c.problem().isPresent()) ? out
        : List.of();
  }

  @Override
  public RowWalk.Rows<List<InspectedCell>> rows(byte[] after) throws IOException {
    return RowWalk.scanned(table, new Scan().readAllVersions().setCaching(SCAN_CACHING), after).map(this::units);
  }

  /** Every stored cell of one stored row, as a unit. */
  private List<InspectedCell> units(Result stored) throws IOException {
    List<InspectedCell> out = new ArrayList<>();
    byte[] row = null;
    if (!Arrays.equals(stored.getRow(), PackedLayout.FIRST_PACK)) {
      try {
        row = codec.decodeRow(stored.getRow());
      } catch (CellDecodingException e) {
        row = null; // the pack's or entry's own failure says why
      }
    }
    for (Cell cell : stored.rawCells()) {
      if (CellUtil.matchingFamily(cell, PackedLayout.FAMILY)) {
        openPack(cell, out);
      } else if (CellUtil.matchingFamily(cell, AppendEntries.FAMILY)) {
        openEntry(cell, row, out);
      } else {
        out.add(record(cell));
      }
    }
    return out;
  }

  /** The pack in {@code cell} as a unit; its rows, or null if it does not open. */
  private PackRows openPack(Cell cell, List<InspectedCell> out) {
    byte[] id = CellUtil.cloneRow(cell);
    boolean first = Arrays.equals(id, PackedLayout.FIRST_PACK);
    InspectedCell.Builder unit = InspectedCell.builder(cell, InspectedCell.Kind.PACK)
        .keyIds(new InspectedCell.KeyIds(first ? OptionalInt.empty() : rowKeyId(id), OptionalInt.empty(),
            sealKeyId(CellUtil.cloneValue(cell))))
        .expects(rowKeyed && !first, true);
    try {
      PackRows rows = packs.open(id, CellUtil.cloneValue(cell));
      out.add(unit.note("pack of " + rows.size() + " row" + (rows.size() == 1 ? "" : "s")).build());
      return rows;
    } catch (PackDecodingException e) {
      out.add(unit.problem("table " + codec.table() + ", pack " + codec.printableStoredRow(id) + ": " + e.reason()).build());
      return null;
    }
  }

  /** The APPEND entry in {@code cell} as a unit; its rows, or null if it does not open. */
  private PackRows openEntry(Cell cell, byte[] row, List<InspectedCell> out) {
    byte[] storedKey = CellUtil.cloneRow(cell);
    InspectedCell.Builder unit = InspectedCell.builder(cell, InspectedCell.Kind.PACK_ENTRY).row(row)
        .keyIds(new InspectedCell.KeyIds(rowKeyId(storedKey), OptionalInt.empty(), sealKeyId(CellUtil.cloneValue(cell))))
        .expects(rowKeyed, true);
    try {
      PackRows rows = packs.openEntry(storedKey, CellUtil.cloneQualifier(cell), CellUtil.cloneValue(cell));
      if (rows.size() != 1 || !Arrays.equals(rows.keys().first(), storedKey)) {
        out.add(unit.problem("table " + codec.table() + ", entry " + Bytes.toStringBinary(CellUtil.cloneQualifier(cell))
            + ": holds other rows than its own").build());
        return null;
      }
      out.add(unit.note("entry of one put, not merged into its pack yet").build());
      return rows;
    } catch (PackDecodingException e) {
      out.add(unit.problem("table " + codec.table() + ", entry " + Bytes.toStringBinary(CellUtil.cloneQualifier(cell))
          + ": " + e.reason()).build());
      return null;
    }
  }

  /** A dictionary (sealed) or another record of the layout (epoch records, the current dictionary: in clear). */
  private InspectedCell record(Cell cell) {
    InspectedCell.Builder unit = InspectedCell.builder(cell, InspectedCell.Kind.LAYOUT_RECORD);
    byte[] qualifier = CellUtil.cloneQualifier(cell);
    if (CellUtil.matchingFamily(cell, PackDictionaryStore.FAMILY) && qualifier.length == Integer.BYTES) {
      int version = Bytes.toInt(qualifier);
      unit.keyIds(new InspectedCell.KeyIds(OptionalInt.empty(), OptionalInt.empty(), sealKeyId(CellUtil.cloneValue(cell))))
          .expects(false, true).note("compression dictionary, version " + version);
      try {
        dictionaries.get(version);
      } catch (IOException e) {
        unit.problem("table " + codec.table() + ", dictionary " + version + ": " + e.getMessage());
      }
      return unit.build();
    }
    return unit.expects(false, false).note(CellUtil.matchingFamily(cell, EpochRecords.FAMILY)
        ? "epoch record (APPEND merges), stored in clear" : "which dictionary new packs use, stored in clear").build();
  }

  /** The logical cells of {@code storedKey} in {@code rows}, named by the application's row key. */
  private void addRow(PackRows rows, byte[] storedKey, byte[] row, long timestamp, List<InspectedCell> out) {
    NavigableMap<byte[], NavigableMap<byte[], byte[]>> cells = rows.row(storedKey);
    if (cells == null) {
      return;
    }
    for (Map.Entry<byte[], NavigableMap<byte[], byte[]>> family : cells.entrySet()) {
      for (Map.Entry<byte[], byte[]> c : family.getValue().entrySet()) {
        InspectedCell.Builder cell = InspectedCell.builder(new KeyValue(row, family.getKey(), c.getKey(), timestamp,
            c.getValue()), InspectedCell.Kind.IN_PACK).row(row).qualifier(c.getKey()).value(c.getValue());
        try {
          cell.policy(codec.policy(family.getKey(), c.getKey()));
        } catch (IOException e) {
          cell.problem(e.getMessage());
        }
        out.add(cell.build());
      }
    }
  }

  private OptionalInt rowKeyId(byte[] storedRow) {
    return codec.keyIdOf(storedRow, codec.schema().rowKeyPolicy().box(), keysetKeyIds);
  }

  /** The key id of what the pack key sealed (packs, entries, dictionaries). */
  private OptionalInt sealKeyId(byte[] sealed) {
    // kind: sealed units start with the header of a box in the table's format (STD before, DET now; PackedLayout.packBox)
    return codec.keyIdOf(sealed, BoxKind.STD, keysetKeyIds);
  }
}
