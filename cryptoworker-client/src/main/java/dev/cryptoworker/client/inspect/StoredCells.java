package dev.cryptoworker.client.inspect;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.codec.BoxRegistry;
import dev.cryptoworker.client.codec.ColumnExpansion;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.client.spi.StoredUnits;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.ColumnPolicy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * The CELL layout's stored cells, each decoded on its own: one stored cell per logical cell, plus
 * the stored parts some boxes keep beside it (SSE index entries, SPLASHE's indicators and splays).
 */
public final class StoredCells implements StoredUnits {
  /** Rows fetched per scanner round trip while walking a table. */
  private static final int SCAN_CACHING = 500;

  private final TableCodec codec;
  private final Connection cluster;
  private final TableName name;
  private final Set<Integer> keysetKeyIds;
  private final boolean rowKeyed;

  public StoredCells(TableCodec codec, Connection cluster, TableName name, Collection<Integer> keysetKeyIds) {
    this.codec = codec;
    this.cluster = cluster;
    this.name = name;
    this.keysetKeyIds = Set.copyOf(keysetKeyIds);
    this.rowKeyed = !codec.rowKeysInPlaintext();
  }

  /**
   * The stored cells of row {@code row} (as the application writes it), every stored version.
   *
   * @throws IOException if HBase fails, or the row key cannot be encrypted
   */
  @Override
  public List<InspectedCell> row(byte[] row) throws IOException {
    codec.checkRowType(row);
    requireTable();
    try (Table table = cluster.getTable(name)) {
      return inspect(table.get(new Get(codec.encodeRow(row)).readAllVersions()));
    }
  }

  /**
   * The stored rows after stored row {@code after} (null: from the table's start), every version,
   * each as its inspected cells, in stored order: what an audit walks and resumes ({@link RowWalk}).
   */
  @Override
  public RowWalk.Rows<List<InspectedCell>> rows(byte[] after) throws IOException {
    requireTable();
    Table table = cluster.getTable(name);
    RowWalk.Rows<Result> stored;
    try {
      stored = RowWalk.scanned(table, new Scan().readAllVersions().setCaching(SCAN_CACHING), after);
    } catch (IOException | RuntimeException e) {
      table.close();
      throw e;
    }
    RowWalk.Rows<List<InspectedCell>> inspected = stored.map(this::inspect);
    return new RowWalk.Rows<>() {
      @Override
      public List<InspectedCell> next() throws IOException {
        return inspected.next();
      }

      @Override
      public void close() throws IOException {
        inspected.close();
        table.close();
      }
    };
  }

  /** Fails naming the table, rather than with HBase's bare table name from deep in a scanner. */
  private void requireTable() throws IOException {
    try (Admin admin = cluster.getAdmin()) {
      if (!admin.tableExists(name)) {
        throw new TableNotFoundException("table " + name + " does not exist on this cluster");
      }
    }
  }

  private List<InspectedCell> inspect(Result stored) {
    List<InspectedCell> out = new ArrayList<>();
    if (stored == null || stored.isEmpty()) {
      return out;
    }
    byte[] row;
    String rowProblem = null;
    try {
      row = codec.decodeRow(stored.getRow());
    } catch (CellDecodingException e) {
      row = null;
      rowProblem = e.getMessage();
    }
    for (Cell cell : stored.rawCells()) {
      out.add(inspect(row, rowProblem, cell));
    }
    return out;
  }

  /** The cell decoded, with the key headers it should carry: the row key's if keyed, the value's unless its box stores it as is. */
  private InspectedCell inspect(byte[] row, String rowProblem, Cell cell) {
    InspectedCell inspected = decode(row, rowProblem, cell);
    boolean valueKeyed = inspected.policy().map(p -> BoxRegistry.standard().traits(p.box()).keyed()).orElse(true);
    return inspected.expecting(rowKeyed, valueKeyed);
  }

  private InspectedCell decode(byte[] row, String rowProblem, Cell cell) {
    byte[] family = CellUtil.cloneFamily(cell);
    byte[] storedQualifier = CellUtil.cloneQualifier(cell);
    InspectedCell.Kind kind = SearchIndexCells.isIndexQualifier(storedQualifier)
        ? InspectedCell.Kind.SEARCH_INDEX_ENTRY : InspectedCell.Kind.VALUE;
    ColumnPolicy policy = null;
    boolean protectedQualifier = false;
    try {
      ColumnExpansion expansion = codec.expansion(family);
      protectedQualifier = codec.familySchema(family).protectQualifiers();
      if (rowProblem != null) {
        return InspectedCell.failed(cell, kind, null, null, rowProblem, protectedQualifier, keyIds(cell, kind, null));
      }
      if (kind == InspectedCell.Kind.SEARCH_INDEX_ENTRY) {
        byte[] valueQualifier = codec.decodeQualifier(row, family, SearchIndexCells.storedQualifierOf(storedQualifier));
        policy = codec.policy(family, valueQualifier);
        return InspectedCell.decoded(cell, kind, row, valueQualifier, null, policy, protectedQualifier,
            keyIds(cell, kind, policy));
      }
      policy = expansion.storedPolicy(storedQualifier).orElse(null);
      Cell logical = expansion.decode(row, family, cell);
      if (logical == null) {
        return InspectedCell.decoded(cell, kind, row, null, null, policy, protectedQualifier,
            keyIds(cell, kind, policy));
      }
      byte[] qualifier = CellUtil.cloneQualifier(logical);
      if (policy == null) {
        policy = codec.policy(family, qualifier);
      }
      return InspectedCell.decoded(cell, kind, row, qualifier, CellUtil.cloneValue(logical), policy, protectedQualifier,
          keyIds(cell, kind, policy));
    } catch (IOException | RuntimeException e) {
      if (policy == null && !protectedQualifier && kind == InspectedCell.Kind.VALUE) {
        policy = policyOfClearQualifier(family, storedQualifier);
      }
      return InspectedCell.failed(cell, kind, row, policy, e.getMessage(), protectedQualifier,
          keyIds(cell, kind, policy));
    }
  }

  /** The policy of a cell whose stored qualifier is its name; null if the family is unknown. */
  private ColumnPolicy policyOfClearQualifier(byte[] family, byte[] qualifier) {
    try {
      return codec.policy(family, qualifier);
    } catch (RuntimeException | IOException unknownFamily) {
      return null;
    }
  }

  /** The key ids in the cell's headers; an index entry's qualifier is its value column's, under DET. */
  private InspectedCell.KeyIds keyIds(Cell cell, InspectedCell.Kind kind, ColumnPolicy policy) {
    byte[] q = CellUtil.cloneQualifier(cell);
    return new InspectedCell.KeyIds(
        codec.keyIdOf(CellUtil.cloneRow(cell), codec.schema().rowKeyPolicy().box(), keysetKeyIds),
        codec.qualifierKeyIdOf(kind == InspectedCell.Kind.SEARCH_INDEX_ENTRY ? SearchIndexCells.storedQualifierOf(q) : q,
            keysetKeyIds),
        codec.keyIdOf(CellUtil.cloneValue(cell), policy == null ? null : policy.box(), keysetKeyIds));
  }
}
