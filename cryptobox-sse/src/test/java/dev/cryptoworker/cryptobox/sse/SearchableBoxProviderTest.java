package dev.cryptoworker.cryptobox.sse;

import dev.cryptoworker.cryptobox.DeclaredOperations;
import org.junit.jupiter.api.Test;

class SearchableBoxProviderTest {
  private final SearchableBoxProvider provider = new SearchableBoxProvider();

  @Test
  void declaresWhatItsBoxesCapabilitiesAllow() throws Exception {
    DeclaredOperations.assertDeclaredForColumn(provider, "string", null);
  }
}
