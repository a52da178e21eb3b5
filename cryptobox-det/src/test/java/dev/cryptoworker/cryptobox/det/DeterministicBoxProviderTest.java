package dev.cryptoworker.cryptobox.det;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.DeclaredOperations;
import dev.cryptoworker.cryptobox.ServerOperation;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeterministicBoxProviderTest {
  private final DeterministicBoxProvider provider = new DeterministicBoxProvider();

  @Test
  void declaresWhatItsBoxesCapabilitiesAllow() throws Exception {
    DeclaredOperations.assertDeclaredForColumn(provider, "string", null);
    assertTrue(provider.traits().findsStoredRows());
    assertEquals(Set.of(ServerOperation.ROW_LOOKUP),
        provider.rules().serverOperations(BoxUse.of(BoxUse.Place.ROW_KEY, "bytes")));
  }
}
