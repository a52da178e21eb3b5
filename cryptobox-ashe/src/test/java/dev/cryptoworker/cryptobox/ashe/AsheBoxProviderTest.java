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
    Map<String, List<String>> options = rules.splayOptions(List.of("F", "M"), Map.of(), List.of("salary")).orElseThrow();
    BoxUse use = new BoxUse(BoxUse.Place.COLUMN, "string", Optional.empty(), options,
        Map.of("salary", BoxKind.ASHE, "gender", BoxKind.SPLASHE), false);
    assertEquals(Optional.empty(), rules.refusal(use), "the options it proposes pass its own rules");
    assertEquals(Set.of(ServerOperation.SPLAYED_EQUALITY, ServerOperation.SPLAYED_GROUP), rules.serverOperations(use));
    assertEquals(Optional.empty(), ashe.rules().splayOptions(List.of("F", "M"), Map.of(), List.of("salary")));
    assertTrue(ashe.rules().leakageRank() < rules.leakageRank(), "SPLASHE also shows its value list");
  }

  /** Enhanced SPLASHE's frequent values: among the declared ones, once each, at least two left to share the token. */
  @Test
  void frequentValuesAreDeclaredOnesLeavingTwoInfrequent() {
    BoxRules rules = splashe.rules();
    assertEquals(Optional.empty(), rules.refusal(dimension(List.of("F"))));
    assertEquals(Optional.of(BoxUse.Refusal.at("frequent", "item 1 ('Q') is not one of the declared values")),
        rules.refusal(dimension(List.of("F", "Q"))));
    assertEquals(Optional.of(BoxUse.Refusal.at("frequent", "item 1 ('F') is listed twice")),
        rules.refusal(dimension(List.of("F", "F"))));
    assertTrue(rules.refusal(dimension(List.of())).orElseThrow().reason().startsWith("needs at least one value"));
    assertEquals(Optional.empty(), rules.refusal(dimension(List.of("F", "M"))), "two infrequent values");
    assertTrue(rules.refusal(dimension(List.of("F", "M", "X"))).orElseThrow().reason()
        .startsWith("must leave at least two declared values infrequent"));
    assertTrue(rules.leakage(dimension(List.of("F"))).contains("how many infrequent values there are"));
    assertTrue(rules.leakage(new BoxUse(BoxUse.Place.COLUMN, "string", Optional.empty(),
        rules.splayOptions(List.of("F", "M"), Map.of(), List.of("salary")).orElseThrow(), Map.of("salary", BoxKind.ASHE),
        false)).contains("not the value of any row nor how many rows hold it"));
  }

  private static BoxUse dimension(List<String> frequent) {
    return new BoxUse(BoxUse.Place.COLUMN, "string", Optional.empty(),
        Map.of("values", List.of("F", "M", "X", "U"), "splays", List.of("salary"), "frequent", frequent),
        Map.of("salary", BoxKind.ASHE, "gender", BoxKind.SPLASHE), false);
  }
}
