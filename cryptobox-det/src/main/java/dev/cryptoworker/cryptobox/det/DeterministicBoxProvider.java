package dev.cryptoworker.cryptobox.det;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.ServerOperation;
import java.security.GeneralSecurityException;
import java.util.Set;

/** The DET kind: deterministic authenticated encryption ({@link DeterministicBox}); rows are found by equality. */
public final class DeterministicBoxProvider implements BoxProvider {
  /** Between SSE's (30: per search only) and OPE's (70: order too): equality of every value at rest. */
  private static final int LEAKAGE_RANK = 50;
  private static final BoxRules RULES = BoxRules.rowKeysToo(LEAKAGE_RANK,
      use -> use.place() == BoxUse.Place.ROW_KEY ? Set.of(ServerOperation.ROW_LOOKUP)
          : Set.of(ServerOperation.EQUALITY, ServerOperation.GROUP),
      use -> use.place() == BoxUse.Place.ROW_KEY
      ? "which operations touch the same row; the number of rows (bound to the table)"
      : "equality of values in the same column (hence frequencies) and the length"
          + " (+21 bytes); a value moved to another row of the same column is not detected");

  @Override
  public BoxKind kind() {
    return BoxKind.DET;
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
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    return DeterministicBox.create(context.keyRing(DeterministicBox.KEY_LENGTH_BYTES), context.storedFormat());
  }
}
