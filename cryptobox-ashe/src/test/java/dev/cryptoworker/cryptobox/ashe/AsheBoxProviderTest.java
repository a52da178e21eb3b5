package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.AdditiveAggregation;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.DeclaredOperations;
import dev.cryptoworker.cryptobox.ServerOperation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AsheBoxProviderTest {
  private final AsheBoxProvider ashe = new AsheBoxProvider();
  private final AsheBoxProvider.Splashe splashe = new AsheBoxProvider.Splashe();

  @Test
  void asheDeclaresWhatItsBoxesCapabilitiesAllow() throws Exception {
    DeclaredOperations.assertDeclaredForColumn(ashe, "long", null);
  }

  /** A dimension's boxes add its indicators; what it answers is the splayed measures' sums, by value. */
  @Test
  void splasheAnswersSplayedSumsThroughItsOwnSplayOptions() throws Exception {
    assertTrue(DeclaredOperations.box(splashe, "string", null).capability(AdditiveAggregation.class).isPresent());
    BoxRules rules = splashe.rules();
    Map<String, List<String>> options = rules.splayOptions(List.of("F", "M"), List.of("salary")).orElseThrow();
    BoxUse use = new BoxUse(BoxUse.Place.COLUMN, "string", Optional.empty(), options,
        Map.of("salary", BoxKind.ASHE, "gender", BoxKind.SPLASHE), false);
    assertEquals(Optional.empty(), rules.refusal(use), "the options it proposes pass its own rules");
    assertEquals(Set.of(ServerOperation.SPLAYED_EQUALITY, ServerOperation.SPLAYED_GROUP), rules.serverOperations(use));
    assertEquals(Optional.empty(), ashe.rules().splayOptions(List.of("F", "M"), List.of("salary")));
    assertTrue(ashe.rules().leakageRank() < rules.leakageRank(), "SPLASHE also shows its value list");
  }
}
