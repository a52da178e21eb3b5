package dev.cryptoworker.client.inspect;

import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import java.util.Objects;
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
    SEARCH_INDEX_ENTRY,
    /** A PACKED table's pack: many rows compressed and sealed as one stored cell. */
    PACK,
    /** An APPEND-mode PACKED table's entry: one put's cells sealed in the put's own row, not merged yet. */
    PACK_ENTRY,
    /** A logical cell read out of a pack or an entry: not stored on its own. */
    IN_PACK,
    /** One share of a SHARED table's value, on one cluster. */
    SHARE,
    /** A layout's own record (PACKED's epoch records and dictionaries), not application data. */
    LAYOUT_RECORD
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
  private final boolean rowKeyExpected;
  private final boolean valueKeyExpected;
  private final String cluster;
  private final String note;

  /**
   * The key ids in the stored row key's, qualifier's and value's headers, as the table's codec reads them.
   *
   * @param row the row key's, empty if none
   * @param qualifier the qualifier's, empty if none
   * @param value the value's, empty if none
   */
  public record KeyIds(OptionalInt row, OptionalInt qualifier, OptionalInt value) {
    /** No header anywhere. */
    public static KeyIds none() {
      return new KeyIds(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty());
    }
  }

  private InspectedCell(Builder b) {
    this.stored = b.stored;
    this.kind = b.kind;
    this.row = b.row;
    this.qualifier = b.qualifier;
    this.value = b.value;
    this.policy = b.policy;
    this.problem = b.problem;
    this.protectedQualifier = b.protectedQualifier;
    this.keyIds = b.keyIds;
    this.rowKeyExpected = b.rowKeyExpected;
    this.valueKeyExpected = b.valueKeyExpected;
    this.cluster = b.cluster;
    this.note = b.note;
  }

  /**
   * A builder for stored cell {@code stored} of kind {@code kind} (a layout's {@code StoredUnits}
   * make them): by default nothing decoded, no key ids, and no key expected.
   */
  public static Builder builder(Cell stored, Kind kind) {
    return new Builder(stored, kind);
  }

  static InspectedCell decoded(Cell stored, Kind kind, byte[] row, byte[] qualifier, byte[] value, ColumnPolicy policy,
      boolean protectedQualifier, KeyIds keyIds) {
    return builder(stored, kind).row(row).qualifier(qualifier).value(value).policy(policy)
        .protectedQualifier(protectedQualifier).keyIds(keyIds).build();
  }

  static InspectedCell failed(Cell stored, Kind kind, byte[] row, ColumnPolicy policy, String problem,
      boolean protectedQualifier, KeyIds keyIds) {
    return builder(stored, kind).row(row).policy(policy).problem(problem).protectedQualifier(protectedQualifier)
        .keyIds(keyIds).build();
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

  /** This cell, expecting the key headers given (see {@link #rowKeyExpected()}). */
  InspectedCell expecting(boolean rowKeyed, boolean valueKeyed) {
    return builder(stored, kind).row(row).qualifier(qualifier).value(value).policy(policy).problem(problem)
        .protectedQualifier(protectedQualifier).keyIds(keyIds).cluster(cluster).note(note)
        .expects(rowKeyed, valueKeyed).build();
  }

  /**
   * Whether the stored row key should carry a key header (its row key protection is keyed and the
   * layout stores it so): without one it is plaintext.
   */
  public boolean rowKeyExpected() {
    return rowKeyExpected;
  }

  /** Whether the stored value should carry a key header: without one it is plaintext. */
  public boolean valueKeyExpected() {
    return valueKeyExpected;
  }

  /** The cluster a SHARED table's share is on. */
  public Optional<String> cluster() {
    return Optional.ofNullable(cluster);
  }

  /** What the layout says of the stored cell beyond its value (a pack's rows, a share's index), if anything. */
  public Optional<String> note() {
    return Optional.ofNullable(note);
  }

  /** Builder of an {@link InspectedCell}; byte arrays are kept as given. */
  public static final class Builder {
    private final Cell stored;
    private final Kind kind;
    private byte[] row;
    private byte[] qualifier;
    private byte[] value;
    private ColumnPolicy policy;
    private String problem;
    private boolean protectedQualifier;
    private KeyIds keyIds = KeyIds.none();
    private boolean rowKeyExpected;
    private boolean valueKeyExpected;
    private String cluster;
    private String note;

    private Builder(Cell stored, Kind kind) {
      this.stored = Objects.requireNonNull(stored, "stored");
      this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** The row key as the application wrote it. */
    public Builder row(byte[] row) {
      this.row = row;
      return this;
    }

    public Builder qualifier(byte[] qualifier) {
      this.qualifier = qualifier;
      return this;
    }

    public Builder value(byte[] value) {
      this.value = value;
      return this;
    }

    public Builder policy(ColumnPolicy policy) {
      this.policy = policy;
      return this;
    }

    /** Why it did not decode, naming table, row, column and reason. */
    public Builder problem(String problem) {
      this.problem = problem;
      return this;
    }

    public Builder protectedQualifier(boolean protectedQualifier) {
      this.protectedQualifier = protectedQualifier;
      return this;
    }

    public Builder keyIds(KeyIds keyIds) {
      this.keyIds = Objects.requireNonNull(keyIds, "keyIds");
      return this;
    }

    /** Which key headers the stored cell should carry (see {@link #rowKeyExpected()}). */
    public Builder expects(boolean rowKey, boolean value) {
      this.rowKeyExpected = rowKey;
      this.valueKeyExpected = value;
      return this;
    }

    public Builder cluster(String cluster) {
      this.cluster = cluster;
      return this;
    }

    public Builder note(String note) {
      this.note = note;
      return this;
    }

    public InspectedCell build() {
      return new InspectedCell(this);
    }
  }
}
