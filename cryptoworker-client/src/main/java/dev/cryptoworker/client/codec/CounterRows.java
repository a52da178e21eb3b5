package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/**
 * Names of identifier-counter rows: a keyed PRF (HMAC-SHA256, truncated to 16 bytes) of the
 * column's table, family and name, so counter rows reveal neither table, family nor column names
 * (a family with {@code protectQualifiers} keeps its column names secret there too), only how many
 * ASHE columns exist and how many values they have leased. The row walks' checkpoint rows in the
 * same table do name their table (docs/boxes.md).
 */
public final class CounterRows {
  private CounterRows() {}

  /**
   * The counter row of the ASHE column {@code scope}, under {@code keys}' oldest key: the table's
   * identity key (its row keys'), which names stay under until a re-key moves the rows.
   */
  public static byte[] name(KeyProvider keys, KeyScope scope) throws GeneralSecurityException {
    // kind: key-derivation label of counter names, kept so that existing counters are found
    KeyScope counter = new KeyScope(scope.table(), scope.family(), scope.column(), "identifier-counter", BoxKind.ASHE);
    return KeyedPrf.of(keys, counter, AssociatedData.of("identifier-counter", utf8(scope.table()),
        utf8(scope.family()), utf8(scope.column()))).tag();
  }

  /**
   * The counter row of a stored part's shared counts ({@link HBaseCounters}), {@code column} its
   * stored qualifier, under {@code keys}' oldest key as {@link #name}.
   */
  public static byte[] sharedCountsRow(KeyProvider keys, String table, String family, String column)
      throws GeneralSecurityException {
    return sharedCountsTag(keys, table, family, column, "row", "");
  }

  /**
   * The column of {@code name}'s count in that row: a PRF too, so the row's columns show counts but
   * not what they count.
   */
  public static byte[] sharedCountColumn(KeyProvider keys, String table, String family, String column, String name)
      throws GeneralSecurityException {
    return sharedCountsTag(keys, table, family, column, "count", name);
  }

  private static byte[] sharedCountsTag(KeyProvider keys, String table, String family, String column, String what,
      String name) throws GeneralSecurityException {
    // kind: key-derivation label of shared-count names, which must stay for the counts to be found
    KeyScope scope = new KeyScope(table, family, column, "shared-counts", BoxKind.ASHE);
    return KeyedPrf.of(keys, scope, AssociatedData.of("shared-counts", utf8(what), utf8(table), utf8(family),
        utf8(column), utf8(name))).tag();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
