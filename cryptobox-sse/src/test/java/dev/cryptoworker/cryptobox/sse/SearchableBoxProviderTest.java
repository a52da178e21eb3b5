package dev.cryptoworker.cryptobox.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.DeclaredOperations;
import org.junit.jupiter.api.Test;

class SearchableBoxProviderTest {
  private final SearchableBoxProvider provider = new SearchableBoxProvider();

  @Test
  void declaresWhatItsBoxesCapabilitiesAllow() throws Exception {
    assertEquals(DeclaredOperations.impliedBy(DeclaredOperations.box(provider, "string", null)),
        provider.rules().serverOperations(BoxUse.of(BoxUse.Place.COLUMN, "string")));
  }
}
