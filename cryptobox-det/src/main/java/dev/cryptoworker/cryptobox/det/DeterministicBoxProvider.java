package dev.cryptoworker.cryptobox.det;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;

/** The DET kind: deterministic authenticated encryption ({@link DeterministicBox}); rows are found by equality. */
public final class DeterministicBoxProvider implements BoxProvider {
  @Override
  public BoxKind kind() {
    return BoxKind.DET;
  }

  @Override
  public BoxTraits traits() {
    return BoxTraits.keyed(true);
  }

  @Override
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    return DeterministicBox.create(context.keyRing(DeterministicBox.KEY_LENGTH_BYTES), context.storedFormat());
  }
}
