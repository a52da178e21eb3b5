package dev.cryptoworker.cryptobox.std;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;
import java.util.Set;

/** The STD kind: randomized authenticated encryption ({@link RandomizedBox}); its rows cannot be found again. */
public final class RandomizedBoxProvider implements BoxProvider {
  private static final BoxRules RULES = BoxRules.rowKeysToo(BoxRules.RANK_LENGTH_ONLY, use -> Set.of(),
      use -> "the value's length (+41 bytes in stored format 4, +29 in formats 2 and 3, +33 in format 1); nothing else:"
      + " equal values look different; alteration or moving to another row or column is detected");

  @Override
  public BoxKind kind() {
    return BoxKind.STD;
  }

  @Override
  public BoxTraits traits() {
    return BoxTraits.keyed(false);
  }

  @Override
  public BoxRules rules() {
    return RULES;
  }

  @Override
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    return RandomizedBox.create(context.keyRing(RandomizedBox.KEY_LENGTH_BYTES), context.storedFormat());
  }
}
