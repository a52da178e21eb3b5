package dev.cryptoworker.searchindex.spi;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Put;

/**
 * How the logical cells of one family map to stored cells: the part of the client's column
 * expansions an entry index needs, to store values as the client does and add its cells beside them.
 */
public interface FamilyCells {

  /** Adds the stored cells of one family's logical cells in one Put to {@code out}. */
  void encode(byte[] row, byte[] family, List<Cell> cells, Put out) throws IOException;

  /**
   * The stored qualifiers of a logical column: those a read fetches, or ({@code forDelete}) every
   * cell that must go with it.
   */
  List<byte[]> storedQualifiers(byte[] family, byte[] qualifier, boolean forDelete) throws IOException;

  /** The logical cell of a stored cell, or null if the stored cell is internal to an expansion. */
  Cell decode(byte[] row, byte[] family, Cell stored) throws IOException;
}
