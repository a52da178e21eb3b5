package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;

/**
 * The ASHE kind ({@link AsheBox}): sums on region servers, identifiers leased from the client's
 * {@link IdentifierSource}. {@link #splashe()} is SPLASHE, whose dimension is stored as ASHE 0/1
 * indicators and whose measures are splayed per value.
 */
public final class AsheBoxProvider implements BoxProvider {
  private final BoxKind kind;
  private final BoxTraits traits;

  /** ASHE (the no-argument constructor {@link java.util.ServiceLoader} calls). */
  public AsheBoxProvider() {
    this(BoxKind.ASHE, false);
  }

  private AsheBoxProvider(BoxKind kind, boolean severalCellsPerValue) {
    this.kind = kind;
    this.traits = new BoxTraits(BoxTraits.KeyHeader.KEY_ID_PREFIX, false, true, false, true, severalCellsPerValue);
  }

  /** SPLASHE. */
  public static final class Splashe implements BoxProvider {
    private final AsheBoxProvider boxes = new AsheBoxProvider(BoxKind.SPLASHE, true);

    @Override
    public BoxKind kind() {
      return boxes.kind();
    }

    @Override
    public BoxTraits traits() {
      return boxes.traits();
    }

    @Override
    public CryptoBox create(BoxContext context) throws GeneralSecurityException {
      return boxes.create(context);
    }
  }

  @Override
  public BoxKind kind() {
    return kind;
  }

  @Override
  public BoxTraits traits() {
    return traits;
  }

  @Override
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    IdentifierSource ids = context.service(IdentifierSource.class).orElseThrow(() -> new GeneralSecurityException(
        "no identifier leases for an " + kind + " column: the client offers none"));
    return AsheBox.create(context.keyRing(AsheBox.KEY_LENGTH_BYTES), ids, "int".equals(context.valueType()));
  }
}
