package dev.cryptoworker.cryptobox.ope;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;

/**
 * The OPE kind ({@link OrderPreservingBox}): values encoded by their type, an optional companion,
 * and the connection's memo size ({@value #MEMO_ENTRIES}).
 */
public final class OrderPreservingBoxProvider implements BoxProvider {
  /** The option naming how many sampled points each column's box remembers. */
  public static final String MEMO_ENTRIES = "ope.memoEntries";

  @Override
  public BoxKind kind() {
    return BoxKind.OPE;
  }

  @Override
  public BoxTraits traits() {
    return BoxTraits.keyed(true);
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
