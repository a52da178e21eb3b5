package dev.cryptoworker.cryptobox.expansion;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a box kind stores one family's columns when not one stored cell per logical cell (SPLASHE:
 * a dimension as 0/1 indicators, the measures it splays beside it). Built by the kind's {@link
 * dev.cryptoworker.cryptobox.BoxProvider#expansion} for a family that uses the kind; the client
 * calls it on every write, delete and read of the family, and for aggregates. No HBase types.
 */
public interface FamilyExpansion {
  /** One cell of one family of one row: its qualifier, timestamp and value (logical or stored). */
  record CellValue(byte[] qualifier, long timestamp, byte[] value) {
    public CellValue {
      Objects.requireNonNull(qualifier, "qualifier");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * The stored cells of one row's logical cells of the family, written together (one Put).
   *
   * @throws IllegalArgumentException naming table, column and reason (never the value) if the cells
   *     cannot be stored together
   */
  List<CellValue> encode(byte[] row, List<CellValue> logical) throws IOException;

  /** Whether {@link #beginBatch} plans anything, so that the client shows it batches; not by default. */
  default boolean plansBatches() {
    return false;
  }

  /**
   * Sees the family's logical cells of every row of a batch (a batch put, a bulk-load chunk) before
   * {@link #encode} stores them one by one on this thread, for an expansion whose stored form
   * depends on the other rows (enhanced SPLASHE's padding); {@link #endBatch} follows on this thread
   * whatever happens. Nothing by default.
   *
   * @throws IOException if planning needs the server and it fails: the batch is not written
   */
  default void beginBatch(List<List<CellValue>> rows) throws IOException {}

  /** Ends what {@link #beginBatch} began on this thread. */
  default void endBatch() {}

  /** A re-count of the counts it shares from the stored cells, if it shares any; none by default. */
  default Optional<Recount> recount() {
    return Optional.empty();
  }

  /**
   * The stored qualifiers of a logical column: those a read fetches, or ({@code forDelete}) every
   * cell that must go with it.
   */
  List<byte[]> storedQualifiers(byte[] qualifier, boolean forDelete);

  /**
   * The logical cell of a stored cell, or empty if the stored cell is internal.
   *
   * @throws GeneralSecurityException with the reason if the stored cells were altered
   */
  Optional<CellValue> decode(byte[] row, CellValue stored) throws IOException, GeneralSecurityException;

  /** What an internal stored qualifier is part of, if it is one (else it is its own column). */
  Optional<StoredPart> storedPart(byte[] storedQualifier);

  /** How the stored cells already split {@code measure} by a dimension's values, if they do. */
  Optional<PresplitMeasure> presplit(byte[] measure);
}
