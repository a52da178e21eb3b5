package dev.cryptoworker.cryptobox.std;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.DeclaredOperations;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomizedBoxProviderTest {
  private final RandomizedBoxProvider provider = new RandomizedBoxProvider();

  @Test
  void declaresWhatItsBoxesCapabilitiesAllow() throws Exception {
    DeclaredOperations.assertDeclaredForColumn(provider, "string", null);
    assertEquals(Set.of(), provider.rules().serverOperations(BoxUse.of(BoxUse.Place.ROW_KEY, "bytes")),
        "an STD row key is not found again (traits: " + provider.traits() + ")");
  }
}
