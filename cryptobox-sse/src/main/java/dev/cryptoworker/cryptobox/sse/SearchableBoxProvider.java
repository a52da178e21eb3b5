package dev.cryptoworker.cryptobox.sse;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.ServerOperation;
import java.security.GeneralSecurityException;
import java.util.Set;

/** The SSE kind ({@link SearchableBox}): values found through a search index kept in every region. */
public final class SearchableBoxProvider implements BoxProvider {
  private static final BoxRules RULES = new BoxRules() {
    /** Above SPLASHE's 20 (a search shows which rows hold the value), below DET's 50 (nothing at rest). */
    @Override
    public int leakageRank() {
      return 30;
    }

    @Override
    public Set<ServerOperation> serverOperations(BoxUse use) {
      return Set.of(ServerOperation.INDEXED_EQUALITY);
    }

    @Override
    public String leakage(BoxUse use) {
      return "at rest the value's length (+33 bytes, +45 from stored format 5) and one pseudorandom index"
          + " cell per value, nothing about which rows share a value; per search the tokens, how many entries the value"
          + " ever had and which rows match (access pattern); per insert which value counter moved; integrity as STD";
    }
  };
  private static final BoxTraits TRAITS = new BoxTraits(BoxTraits.KeyHeader.KEY_ID_PREFIX, false, true, true, false,
      false);

  @Override
  public BoxKind kind() {
    return BoxKind.SSE;
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
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    return SearchableBox.create(context.keyRing(SearchableBox.KEY_LENGTH_BYTES), context.storedFormat());
  }
}
