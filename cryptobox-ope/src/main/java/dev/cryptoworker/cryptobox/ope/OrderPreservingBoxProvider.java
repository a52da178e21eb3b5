package dev.cryptoworker.cryptobox.ope;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.ServerOperation;
import java.security.GeneralSecurityException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The OPE kind ({@link OrderPreservingBox}): values encoded by their type, an optional companion,
 * and the connection's memo size ({@value #MEMO_ENTRIES}).
 */
public final class OrderPreservingBoxProvider implements BoxProvider {
  /** The option naming how many sampled points each column's box remembers. */
  public static final String MEMO_ENTRIES = "ope.memoEntries";

  private static final BoxRules RULES = new BoxRules() {
    @Override
    public boolean protectsRowKeys() {
      return true;
    }

    /** Above DET's 50: order and approximate values besides equality. */
    @Override
    public int leakageRank() {
      return 70;
    }

    /** Ranges and equality through order; grouping only without companion, whose cells differ for equal values. */
    @Override
    public Set<ServerOperation> serverOperations(BoxUse use) {
      if (use.place() == BoxUse.Place.ROW_KEY) {
        return EnumSet.of(ServerOperation.ROW_LOOKUP, ServerOperation.ROW_RANGE);
      }
      Set<ServerOperation> operations = EnumSet.of(ServerOperation.EQUALITY, ServerOperation.RANGE);
      if (use.companion().isEmpty()) {
        operations.add(ServerOperation.GROUP);
      }
      return operations;
    }

    @Override
    public Set<BoxKind> companions() {
      return Set.of(BoxKind.STD);
    }

    @Override
    public Optional<BoxUse.Refusal> refusal(BoxUse use) {
      if (!"date".equals(use.valueType())) {
        return Optional.empty();
      }
      if (use.place() == BoxUse.Place.ROW_KEY) {
        return Optional.of(BoxUse.Refusal.of("an OPE row key cannot have type date (its text form would be lost);"
            + " store epoch milliseconds with type long, or ISO text with type string"));
      }
      return use.companion().isPresent() ? Optional.empty() : Optional.of(BoxUse.Refusal.of(
          "OPE on type date needs companion: STD (the order key, the instant, does not keep the text's form;"
              + " the authenticated companion does)"));
    }

    @Override
    public String leakage(BoxUse use) {
      if (use.place() == BoxUse.Place.ROW_KEY) {
        return "as OPE: order, approximate values (leading bytes of each chunk readable),"
            + " equality (integrity as OPE without companion)";
      }
      return "the order of all values of the column and approximately the values themselves"
          + " (a number to within about its square root; the first 3-4 bytes of each 7-byte chunk"
          + " of a string are readable), equality, the length; for strings, shared 7-byte-aligned prefixes; "
          + (use.companion().isPresent()
              ? "with companion STD (each cell also holds an STD copy of the value, its length + 41 bytes in"
                  + " stored format 4, + 29 in formats 2 and 3, + 33 in format 1, and a 4-byte length) integrity as STD"
              : "without companion a valid ciphertext moved to another row is not detected");
    }
  };

  @Override
  public BoxKind kind() {
    return BoxKind.OPE;
  }

  @Override
  public BoxTraits traits() {
    return BoxTraits.keyed(true);
  }

  @Override
  public BoxRules rules() {
    return RULES;
  }

  @Override
  public Map<String, Integer> options() {
    return Map.of(MEMO_ENTRIES, OrderPreservingBox.DEFAULT_MEMO_ENTRIES);
  }

  @Override
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    return OrderPreservingBox.create(context.keyRing(OrderPreservingBox.KEY_LENGTH_BYTES), context.storedFormat(),
        encoding(context.valueType()), context.companion(),
        context.option(MEMO_ENTRIES, OrderPreservingBox.DEFAULT_MEMO_ENTRIES));
  }

  private static OrderPreservingBox.Encoding encoding(String valueType) {
    return switch (valueType) {
      case "long" -> OrderPreservingBox.Encoding.LONG;
      case "int" -> OrderPreservingBox.Encoding.INT;
      case "date" -> OrderPreservingBox.Encoding.DATE;
      default -> OrderPreservingBox.Encoding.BYTES;
    };
  }
}
