package dev.cryptoworker.cryptobox;

/** The PLAIN kind: values stored as they are ({@link PlainBox}). */
public final class PlainBoxProvider implements BoxProvider {
  private static final BoxRules RULES = BoxRules.rowKeysToo(use -> "everything: the value itself");
  private static final BoxTraits TRAITS = new BoxTraits(BoxTraits.KeyHeader.NONE, true, false, false, false, false);

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
