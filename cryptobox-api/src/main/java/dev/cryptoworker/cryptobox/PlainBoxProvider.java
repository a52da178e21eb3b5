package dev.cryptoworker.cryptobox;

import java.util.EnumSet;
import java.util.Set;

/** The PLAIN kind: values stored as they are ({@link PlainBox}). */
public final class PlainBoxProvider implements BoxProvider {
  private static final BoxRules RULES = BoxRules.rowKeysToo(BoxRules.RANK_EVERYTHING, PlainBoxProvider::operations,
      use -> "everything: the value itself");
  private static final BoxTraits TRAITS = new BoxTraits(BoxTraits.KeyHeader.NONE, true, false, false, false, false);

  /** Anything: stored bytes are the values; sums of numbers only. */
  private static Set<ServerOperation> operations(BoxUse use) {
    if (use.place() == BoxUse.Place.ROW_KEY) {
      return EnumSet.of(ServerOperation.ROW_LOOKUP, ServerOperation.ROW_RANGE);
    }
    Set<ServerOperation> all = EnumSet.of(ServerOperation.EQUALITY, ServerOperation.RANGE, ServerOperation.GROUP);
    if (use.valueType().equals("long") || use.valueType().equals("int")) {
      all.add(ServerOperation.SUM);
    }
    return all;
  }

  @Override
  public BoxKind kind() {
    return BoxKind.PLAIN;
  }

  @Override
  public BoxTraits traits() {
    return TRAITS;
  }

  @Override
  public BoxRules rules() {
    return RULES;
  }

  @Override
  public CryptoBox create(BoxContext context) {
    return PlainBox.get();
  }
}
