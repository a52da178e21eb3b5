package dev.cryptoworker.cli;

import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxProviders;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.schema.ColumnPolicy;
import java.util.Map;

/**
 * What the server learns under each policy: what holds for every table, and each kind's own leakage
 * as its provider states it ({@link dev.cryptoworker.cryptobox.BoxRules#leakage}).
 */
final class Leakage {
  static final String ALWAYS =
      "access patterns, timestamps, row/cell counts and sizes, family names, unprotected"
          + " qualifier names";
  static final String VISIBLE_QUALIFIERS = "the qualifier names themselves (stored in the clear)";
  static final String PROTECTED_QUALIFIERS =
      "equality of qualifier names within the family; how many per row (DET, bound to table and"
          + " family)";

  private Leakage() {}

  /** What the server learns about a row key under {@code policy}, as its kind's rules say. */
  static String rowKey(ColumnPolicy policy) {
    return describe(policy, BoxUse.Place.ROW_KEY);
  }

  /** What the server learns about the values of a column under {@code policy}, as its kind's rules say. */
  static String value(ColumnPolicy policy) {
    return describe(policy, BoxUse.Place.COLUMN);
  }

  private static String describe(ColumnPolicy policy, BoxUse.Place place) {
    BoxProvider provider = BoxProviders.find(policy.box())
        .orElseThrow(() -> new IllegalStateException(BoxProviders.notInstalled(policy.box())));
    return provider.rules().leakage(
        new BoxUse(place, policy.type().yamlName(), policy.companion(), policy.listOptions(), Map.of(), false));
  }
}
