package dev.cryptoworker.keys;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a derived key protects: one table's row keys, one family's qualifier names, or one
 * column's values under one box. Every scope gets its own key, so no key serves two schemes or
 * two columns.
 *
 * @param table table name, with namespace if any ({@code ns:name})
 * @param family column family, or empty for row keys
 * @param column qualifier, {@code *} for a family default, or empty for row keys and qualifiers
 * @param purpose {@code row}, {@code qualifier}, {@code value}, {@code companion} (an OPE column's
 *     authenticated copy), {@code part} (a stored part of a column under a box of its own kind, such
 *     as enhanced SPLASHE's DET tokens), {@code identifier-counter} (the name of an ASHE counter row),
 *     {@code shared-counts} (the names of counts every writer shares, enhanced SPLASHE's), {@code
 *     key-check} (a table's key check) or a layout's own (PACKED: {@code pack-siv}, the DET key
 *     that seals a table's packs, APPEND entries and dictionaries; {@code pack}, the STD key that
 *     sealed them before, kept so that units sealed by earlier versions still open)
 * @param box the scheme the key is for
 */
public record KeyScope(String table, String family, String column, String purpose, BoxKind box) {

  public KeyScope {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(box, "box");
  }

  /** The key for a table's row keys. */
  public static KeyScope rowKey(String table, BoxKind box) {
    return new KeyScope(table, "", "", "row", box);
  }

  /** The key for the qualifier names of a family with {@code protectQualifiers}. */
  public static KeyScope qualifiers(String table, String family, BoxKind box) {
    return new KeyScope(table, family, "", "qualifier", box);
  }

  /** The key for the values of a column ({@code *} for a family default). */
  public static KeyScope column(String table, String family, String column, BoxKind box) {
    return new KeyScope(table, family, column, "value", box);
  }

  /**
   * The key a storage layout seals its own stored units with, named by the layout (PACKED: {@code
   * pack-siv} seals a table's packs, many rows encrypted as one stored value, and its APPEND entries
   * and dictionaries; {@code pack} opens what earlier versions sealed).
   */
  public static KeyScope layout(String table, String purpose, BoxKind box) {
    return new KeyScope(table, "", "", purpose, box);
  }

  /** The HKDF info string: unambiguous, length-prefixed. */
  byte[] derivationInfo(int keyLengthBytes) {
    return AssociatedData.of(
        "cryptoworker-key-v1",
        utf8(table),
        utf8(family),
        utf8(column),
        utf8(purpose),
        utf8(box.name()),
        utf8(Integer.toString(keyLengthBytes)));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
