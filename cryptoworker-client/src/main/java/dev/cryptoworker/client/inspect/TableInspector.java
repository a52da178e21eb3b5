package dev.cryptoworker.client.inspect;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.client.spi.StoredUnits;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;

/**
 * Reads a protected table's stored cells and decodes each one on its own, so that an operator sees
 * what is stored beside what it means, and a cell that does not decode is reported with its reason
 * instead of failing the read ({@link SecureTable} refuses such rows). What a stored cell is comes
 * from the table's layout ({@link StoredUnits}): one per logical cell (CELL), packs and the rows in
 * them (PACKED), shares per cluster (SHARED). Obtained from {@link
 * SecureConnection#inspector(TableName)}; reads only.
 */
public final class TableInspector {
  /** Opens the layout's stored units, format-2 key headers also resolved among the given key ids. */
  @FunctionalInterface
  public interface Opener {
    StoredUnits open(Collection<Integer> keysetKeyIds) throws IOException;
  }

  private final Opener opener;
  private final Set<Integer> keysetKeyIds;

  public TableInspector(Opener opener) {
    this(opener, Set.of());
  }

  private TableInspector(Opener opener, Set<Integer> keysetKeyIds) {
    this.opener = opener;
    this.keysetKeyIds = keysetKeyIds;
  }

  /**
   * This inspector, naming the keys of tables in stored format 2 among {@code keyIds} too: format
   * 2's one-byte headers are resolved among the key provider's keys, which lack disabled ones. Give
   * every id of the keyset (enabled or not) so that cells under a disabled key are named as such.
   */
  public TableInspector resolvingKeyIds(Collection<Integer> keyIds) {
    return new TableInspector(opener, Set.copyOf(keyIds));
  }

  /** Receives the stored cells of one stored row at a time. */
  @FunctionalInterface
  public interface RowVisitor {
    void visit(List<InspectedCell> row) throws IOException;
  }

  /**
   * The stored cells that hold row {@code row} (as the application writes it), every stored version.
   *
   * @throws IOException if HBase fails, or the row key cannot be encrypted
   */
  public List<InspectedCell> row(byte[] row) throws IOException {
    return opener.open(keysetKeyIds).row(row);
  }

  /**
   * Walks every stored row of the table, every version, in stored order; a cell that does not
   * decode is handed over with its {@link InspectedCell#problem() problem}, never skipped.
   */
  public void forEachRow(RowVisitor visitor) throws IOException {
    try (RowWalk.Rows<List<InspectedCell>> rows = rows(null)) {
      for (List<InspectedCell> row = rows.next(); row != null; row = rows.next()) {
        visitor.visit(row);
      }
    }
  }

  /**
   * The stored rows after stored row {@code after} (null: from the table's start), every version,
   * each as its inspected cells, in stored order: what an audit walks and resumes ({@link RowWalk}).
   */
  public RowWalk.Rows<List<InspectedCell>> rows(byte[] after) throws IOException {
    return opener.open(keysetKeyIds).rows(after);
  }
}
