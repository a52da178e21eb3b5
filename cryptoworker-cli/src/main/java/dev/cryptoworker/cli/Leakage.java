package dev.cryptoworker.cli;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;

/** What the server learns under each policy: the README's "Security: what the server learns". */
final class Leakage {
  static final String ALWAYS =
      "access patterns, timestamps, row/cell counts and sizes, family names, unprotected"
          + " qualifier names";
  static final String VISIBLE_QUALIFIERS = "the qualifier names themselves (stored in the clear)";
  static final String PROTECTED_QUALIFIERS =
      "equality of qualifier names within the family; how many per row (DET, bound to table and"
          + " family)";

  private Leakage() {}

  /** What the server learns about a row key under {@code policy}. */
  static String rowKey(ColumnPolicy policy) {
    return switch (policy.box()) {
      case DET -> "which operations touch the same row; the number of rows (bound to the table)";
      case OPE -> "as OPE: order, approximate values (leading bytes of each chunk readable),"
          + " equality (integrity as OPE without companion)";
      default -> value(policy);
    };
  }

  /** What the server learns about the values of a column under {@code policy}. */
  static String value(ColumnPolicy policy) {
    BoxKind box = policy.box();
    return switch (box) {
      case PLAIN -> "everything: the value itself";
      case STD -> "the value's length (+33 bytes); nothing else: equal values look different;"
          + " alteration or moving to another row or column is detected";
      case DET -> "equality of values in the same column (hence frequencies) and the length"
          + " (+21 bytes); a value moved to another row of the same column is not detected";
      case OPE -> "the order of all values of the column and approximately the values themselves"
          + " (a number to within about its square root; the first 3-4 bytes of each 7-byte chunk"
          + " of a string are readable), equality, the length; for strings, shared 7-byte-aligned"
          + " prefixes; "
          + (policy.companion().isPresent()
              ? "with companion STD (+33 bytes + value) integrity as STD"
              : "without companion a valid ciphertext moved to another row is not detected");
      case ASHE -> "nothing about values (IND-CPA while identifiers never repeat); per aggregate,"
          + " which rows it covers (identifier sets) and how many; no authentication: the server"
          + " can drop, add or alter values of a sum undetected";
      case SPLASHE -> "the declared value list (qualifier names) and which value a query asks"
          + " about; not the value of any row nor how many rows hold it; integrity as ASHE (none)";
      case SSE -> "at rest the value's length (+33 bytes) and one pseudorandom index cell per value,"
          + " nothing about which rows share a value; per search the tokens, how many entries the value"
          + " ever had and which rows match (access pattern); per insert which value counter moved;"
          + " integrity as STD";
    };
  }
}
