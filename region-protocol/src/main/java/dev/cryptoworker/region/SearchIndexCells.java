package dev.cryptoworker.region;

import java.util.Arrays;

/**
 * Where the encrypted search index lives: each searchable (SSE) cell has an index cell in the same
 * row and family, so an entry always sits in its row's region, through splits, merges and moves.
 * The region server keeps an in-memory map from entry key to row, built from these cells when the
 * region opens and extended on every write.
 *
 * <p>Qualifier: {@link #QUALIFIER_PREFIX} then the stored qualifier of the searchable column.
 * Value: the 5-byte key-id header of the key the entry was made under, then the 16-byte entry key.
 */
public final class SearchIndexCells {
  /** The table attribute that makes region servers keep the index map (set at table creation). */
  public static final String TABLE_ATTRIBUTE = "cryptoworker.search";
  /** Reserved first bytes of index-cell qualifiers. */
  private static final byte[] QUALIFIER_PREFIX = {0, 's', 's', 'e', 0};
  /** Bytes of an entry key. */
  public static final int ENTRY_KEY_BYTES = 16;
  private static final int HEADER_BYTES = 5;
  /** Bytes of an index cell's value. */
  public static final int VALUE_BYTES = HEADER_BYTES + ENTRY_KEY_BYTES;

  private SearchIndexCells() {}

  /** The qualifier prefix shared by every index cell. */
  public static byte[] qualifierPrefix() {
    return QUALIFIER_PREFIX.clone();
  }

  /** The qualifier of the index cell of the column stored under {@code storedQualifier}. */
  public static byte[] qualifier(byte[] storedQualifier) {
    byte[] out = Arrays.copyOf(QUALIFIER_PREFIX, QUALIFIER_PREFIX.length + storedQualifier.length);
    System.arraycopy(storedQualifier, 0, out, QUALIFIER_PREFIX.length, storedQualifier.length);
    return out;
  }

  /** The stored qualifier of the column whose index cell is {@code indexQualifier}. */
  public static byte[] storedQualifierOf(byte[] indexQualifier) {
    if (!isIndexQualifier(indexQualifier)) {
      throw new IllegalArgumentException("not an index cell qualifier");
    }
    return Arrays.copyOfRange(indexQualifier, QUALIFIER_PREFIX.length, indexQualifier.length);
  }

  /** Whether the qualifier bytes at {@code offset, length} name an index cell. */
  public static boolean isIndexQualifier(byte[] qualifier, int offset, int length) {
    return length >= QUALIFIER_PREFIX.length
        && Arrays.equals(QUALIFIER_PREFIX, 0, QUALIFIER_PREFIX.length, qualifier, offset, offset + QUALIFIER_PREFIX.length);
  }

  public static boolean isIndexQualifier(byte[] qualifier) {
    return isIndexQualifier(qualifier, 0, qualifier.length);
  }

  /** An index cell's value: the key-id header, then the entry key. */
  public static byte[] value(byte[] keyIdHeader, byte[] entryKey) {
    if (keyIdHeader.length != HEADER_BYTES || entryKey.length != ENTRY_KEY_BYTES) {
      throw new IllegalArgumentException("an index cell holds a 5-byte header and a 16-byte entry key");
    }
    byte[] out = Arrays.copyOf(keyIdHeader, VALUE_BYTES);
    System.arraycopy(entryKey, 0, out, HEADER_BYTES, ENTRY_KEY_BYTES);
    return out;
  }

  /**
   * Whether a cell whose qualifier is at {@code offset, length} of {@code qualifier} and whose value
   * is {@code valueLength} bytes is an index cell.
   */
  public static boolean isIndexCell(byte[] qualifier, int offset, int length, int valueLength) {
    return isIndexQualifier(qualifier, offset, length) && isIndexValue(valueLength);
  }

  /** Whether a value of {@code length} bytes can be an index cell's. */
  public static boolean isIndexValue(int length) {
    return length == VALUE_BYTES;
  }

  /** Offset of the entry key within an index cell's value. */
  public static int entryKeyOffset() {
    return HEADER_BYTES;
  }
}
