package dev.cryptoworker.cryptobox.ope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.DeclaredOperations;
import dev.cryptoworker.cryptobox.ServerOperation;
import dev.cryptoworker.cryptobox.std.RandomizedBoxProvider;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OrderPreservingBoxProviderTest {
  private final OrderPreservingBoxProvider provider = new OrderPreservingBoxProvider();

  @Test
  void declaresWhatItsBoxesCapabilitiesAllowWithAndWithoutCompanion() throws Exception {
    for (String type : List.of("long", "string")) {
      DeclaredOperations.assertDeclaredForColumn(provider, type, null);
      DeclaredOperations.assertDeclaredForColumn(provider, type, new RandomizedBoxProvider()); // no grouping
    }
    assertTrue(provider.traits().findsStoredRows());
    assertEquals(Set.of(ServerOperation.ROW_LOOKUP, ServerOperation.ROW_RANGE),
        provider.rules().serverOperations(BoxUse.of(BoxUse.Place.ROW_KEY, "long")));
  }
}
