package dev.cryptoworker.client.inspect;

import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;

/**
 * One stored cell of a protected table beside what CryptoWorker reads from it: for operators who
 * inspect a row or audit a table ({@link TableInspector}), never for applications, which read
 * through {@link SecureTable}. Immutable; byte arrays are copied out.
 */
public final class InspectedCell {
  /** What a stored cell is to the table's layout. */
  public enum Kind {
    /** A logical cell's value (or, for SPLASHE, one of its stored parts). */
    VALUE,
    /** An SSE column's index entry, kept beside its value in the same row. */
    SEARCH_INDEX_ENTRY
  }

  private final Cell stored;
  private final Kind kind;
  private final byte[] row;
  private final byte[] qualifier;
  private final byte[] value;
  private final ColumnPolicy policy;
  private final String problem;
  private final boolean protectedQualifier;
  private final KeyIds keyIds;

  /** The key ids in the stored row key's, qualifier's and value's headers, as the table's codec reads them. */
  record KeyIds(OptionalInt row, OptionalInt qualifier, OptionalInt value) {}

  private InspectedCell(Cell stored, Kind kind, byte[] row, byte[] qualifier, byte[] value, ColumnPolicy policy,
      String problem, boolean protectedQualifier, KeyIds keyIds) {
    this.protectedQualifier = protectedQualifier;
    this.keyIds = keyIds;
    this.stored = stored;
    this.kind = kind;
    this.row = row;
    this.qualifier = qualifier;
    this.value = value;
    this.policy = policy;
    this.problem = problem;
  }

  static InspectedCell decoded(Cell stored, Kind kind, byte[] row, byte[] qualifier, byte[] value, ColumnPolicy policy,
      boolean protectedQualifier, KeyIds keyIds) {
    return new InspectedCell(stored, kind, row, qualifier, value, policy, null, protectedQualifier, keyIds);
  }

  static InspectedCell failed(Cell stored, Kind kind, byte[] row, ColumnPolicy policy, String problem,
      boolean protectedQualifier, KeyIds keyIds) {
    return new InspectedCell(stored, kind, row, null, null, policy, problem, protectedQualifier, keyIds);
  }

  public Kind kind() {
    return kind;
  }

  /** The row key as stored. */
  public byte[] storedRow() {
    return CellUtil.cloneRow(stored);
  }

  /** The family (family names are stored as written). */
  public byte[] family() {
    return CellUtil.cloneFamily(stored);
  }

  /** The qualifier as stored. */
  public byte[] storedQualifier() {
    return CellUtil.cloneQualifier(stored);
  }

  /** The value as stored. */
  public byte[] storedValue() {
    return CellUtil.cloneValue(stored);
  }

  public long timestamp() {
    return stored.getTimestamp();
  }

  /** The row key as the application wrote it, if it decoded. */
  public Optional<byte[]> row() {
    return Optional.ofNullable(row).map(byte[]::clone);
  }

  /** The qualifier as the application wrote it, if it decoded. */
  public Optional<byte[]> qualifier() {
    return Optional.ofNullable(qualifier).map(byte[]::clone);
  }

  /** The value as the application wrote it, if it decoded (never for index entries). */
  public Optional<byte[]> value() {
    return Optional.ofNullable(value).map(byte[]::clone);
  }

  /** The policy the schema gives this cell, if its column is known. */
  public Optional<ColumnPolicy> policy() {
    return Optional.ofNullable(policy);
  }

  /** The box the schema gives this cell, if its column is known. */
  public Optional<BoxKind> box() {
    return policy().map(ColumnPolicy::box);
  }

  /** Why the cell did not decode, naming table, row, column and reason; empty if it did. */
  public Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** The key id in the stored value's header, if it carries CryptoWorker's keyed header. */
  public OptionalInt valueKeyId() {
    return keyIds.value();
  }

  /** Whether the family stores its qualifier names encrypted ({@code protectQualifiers}). */
  public boolean hasProtectedQualifier() {
    return protectedQualifier;
  }

  /**
   * The key id in the stored qualifier's header, if the family protects qualifier names (for an
   * index entry: its value column's qualifier).
   */
  public OptionalInt qualifierKeyId() {
    return protectedQualifier ? keyIds.qualifier() : OptionalInt.empty();
  }

  /** The key id in the stored row key's header, if it carries one (not for PLAIN row keys). */
  public OptionalInt rowKeyId() {
    return keyIds.row();
  }
}
