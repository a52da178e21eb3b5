package dev.cryptoworker.cryptobox.expansion;

import java.io.IOException;
import java.util.List;

/**
 * What the client offers a {@link FamilyExpansion} of one family: its listed columns and the
 * encryption of stored parts under their logical columns' boxes ({@link FamilyExpansion#storedPart}).
 * Implemented by the client; no HBase or schema types.
 */
public interface FamilyStore {
  /** The logical table, for messages. */
  String table();

  /** The family, for messages. */
  String family();

  /** The columns the family's schema lists. */
  List<DeclaredColumn> columns();

  /** Encrypts {@code value} for the stored qualifier {@code storedQualifier} of row {@code row}. */
  byte[] encodeValue(byte[] row, byte[] storedQualifier, byte[] value) throws IOException;

  /** Encrypts a 64-bit number for an additive stored qualifier. */
  byte[] encodeNumber(byte[] storedQualifier, long value) throws IOException;

  /** Decrypts what {@link #encodeValue} stored. */
  byte[] decodeValue(byte[] row, byte[] storedQualifier, byte[] stored) throws IOException;

  /** Decrypts what {@link #encodeNumber} stored. */
  long decodeNumber(byte[] row, byte[] storedQualifier, byte[] stored) throws IOException;

  /**
   * The counters of the stored qualifier {@code storedQualifier} that every writer of the table
   * shares.
   *
   * @throws IOException when calls to the result are made, if this client keeps no shared counters
   */
  SharedCounts sharedCounts(byte[] storedQualifier);
}
