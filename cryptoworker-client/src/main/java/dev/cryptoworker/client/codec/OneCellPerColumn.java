package dev.cryptoworker.client.codec;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;

/** The usual mapping: each logical cell is one stored cell, qualifier and value encrypted per the schema. */
public final class OneCellPerColumn implements ColumnExpansion {
  private final TableCodec codec;

  public OneCellPerColumn(TableCodec codec) {
    this.codec = codec;
  }

  @Override
  public void encode(byte[] row, byte[] family, List<Cell> cells, Put out) throws IOException {
    for (Cell cell : cells) {
      byte[] qualifier = CellUtil.cloneQualifier(cell);
      out.addColumn(family, codec.encodeQualifier(family, qualifier), cell.getTimestamp(),
          codec.encodeValue(row, family, qualifier, CellUtil.cloneValue(cell)));
    }
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] family, byte[] qualifier, boolean forDelete) throws IOException {
    return List.of(codec.encodeQualifier(family, qualifier));
  }

  @Override
  public Cell decode(byte[] row, byte[] family, Cell stored) throws IOException {
    byte[] qualifier = codec.decodeQualifier(row, family, CellUtil.cloneQualifier(stored));
    return decoded(row, family, qualifier, stored, codec.decodeValue(row, family, qualifier, CellUtil.cloneValue(stored)));
  }

  /** A logical cell with the stored cell's timestamp and type. */
  static Cell decoded(byte[] row, byte[] family, byte[] qualifier, Cell stored, byte[] value) {
    return CellBuilderFactory.create(CellBuilderType.SHALLOW_COPY)
        .setRow(row)
        .setFamily(family)
        .setQualifier(qualifier)
        .setTimestamp(stored.getTimestamp())
        .setType(stored.getType())
        .setValue(value)
        .build();
  }
}
