package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.codec.TableCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;

/** Decode: turns a raw Result of stored cells into the plaintext Result the caller expects. */
public final class ResultDecoder implements DecodingResultScanner.RowDecoder {
  private final TableCodec codec;

  public ResultDecoder(TableCodec codec) {
    this.codec = codec;
  }

  /** Decodes every cell; never returns a cell that failed to decode. */
  @Override
  public Result decode(Result raw) throws IOException {
    if (raw == null || raw.rawCells() == null || raw.rawCells().length == 0) {
      return raw;
    }
    Cell[] cells = raw.rawCells();
    byte[] row = codec.decodeRow(CellUtil.cloneRow(cells[0]));
    List<Cell> out = new ArrayList<>(cells.length);
    for (Cell cell : cells) {
      byte[] family = CellUtil.cloneFamily(cell);
      Cell decoded = codec.expansion(family).decode(row, family, cell);
      if (decoded != null) {
        out.add(decoded);
      }
    }
    // Decrypted qualifiers sort differently from their ciphertexts; Result's lookups need order.
    out.sort(CellComparator.getInstance());
    return Result.create(out, raw.getExists(), raw.isStale(), raw.mayHaveMoreCellsInRow());
  }

  Result[] decode(Result[] raw) throws IOException {
    Result[] out = new Result[raw.length];
    for (int i = 0; i < raw.length; i++) {
      out[i] = decode(raw[i]);
    }
    return out;
  }
}
