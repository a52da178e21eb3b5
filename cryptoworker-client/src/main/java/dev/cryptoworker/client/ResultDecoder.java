package dev.cryptoworker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;

/** Decode: turns a raw Result of ciphertext cells into the plaintext Result the caller expects. */
final class ResultDecoder {
  private final TableCodec codec;

  ResultDecoder(TableCodec codec) {
    this.codec = codec;
  }

  /** Decodes every cell; never returns a cell that failed to decode. */
  Result decode(Result raw) throws IOException {
    if (raw == null || raw.rawCells() == null || raw.rawCells().length == 0) {
      return raw;
    }
    Cell[] cells = raw.rawCells();
    byte[] row = codec.decodeRow(CellUtil.cloneRow(cells[0]));
    List<Cell> out = new ArrayList<>(cells.length);
    for (Cell cell : cells) {
      byte[] family = CellUtil.cloneFamily(cell);
      String splayBase = SplayedColumns.base(CellUtil.cloneQualifier(cell));
      if (splayBase != null && codec.familySchema(family).isListed(splayBase)) {
        Cell dimension = decodeIndicator(row, family, splayBase, cell);
        if (dimension != null) {
          out.add(dimension);
        }
        continue;
      }
      byte[] qualifier = codec.decodeQualifier(row, family, CellUtil.cloneQualifier(cell));
      byte[] value = codec.decodeValue(row, family, qualifier, CellUtil.cloneValue(cell));
      out.add(
          CellBuilderFactory.create(CellBuilderType.SHALLOW_COPY)
              .setRow(row)
              .setFamily(family)
              .setQualifier(qualifier)
              .setTimestamp(cell.getTimestamp())
              .setType(cell.getType())
              .setValue(value)
              .build());
    }
    // Decrypted qualifiers sort differently from their ciphertexts; Result's lookups need order.
    out.sort(CellComparator.getInstance());
    return Result.create(out, raw.getExists(), raw.isStale(), raw.mayHaveMoreCellsInRow());
  }

  /**
   * A SPLASHE cell: a dimension indicator of 1 becomes the dimension's value; indicators of 0 and
   * the splayed copies of measures are internal and dropped.
   */
  private Cell decodeIndicator(byte[] row, byte[] family, String base, Cell cell) throws IOException {
    if (!SplayedColumns.isDimension(codec.familySchema(family), base)) {
      return null;
    }
    byte[] stored = CellUtil.cloneQualifier(cell);
    long indicator = codec.decodeSplayed(row, family, stored, CellUtil.cloneValue(cell));
    if (indicator == 0) {
      return null;
    }
    if (indicator != 1) {
      throw new CellDecodingException(codec.table(), org.apache.hadoop.hbase.util.Bytes.toStringBinary(row),
          "column " + org.apache.hadoop.hbase.util.Bytes.toString(family) + ":" + base + " (SPLASHE)",
          "indicator decrypts to " + indicator + ", neither 0 nor 1: the stored cells were altered");
    }
    return CellBuilderFactory.create(CellBuilderType.SHALLOW_COPY)
        .setRow(row)
        .setFamily(family)
        .setQualifier(org.apache.hadoop.hbase.util.Bytes.toBytes(base))
        .setTimestamp(cell.getTimestamp())
        .setType(cell.getType())
        .setValue(org.apache.hadoop.hbase.util.Bytes.toBytes(SplayedColumns.value(stored)))
        .build();
  }

  Result[] decode(Result[] raw) throws IOException {
    Result[] out = new Result[raw.length];
    for (int i = 0; i < raw.length; i++) {
      out[i] = decode(raw[i]);
    }
    return out;
  }
}
