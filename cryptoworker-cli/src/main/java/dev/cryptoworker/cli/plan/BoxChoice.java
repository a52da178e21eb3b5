package dev.cryptoworker.cli.plan;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxProviders;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.ServerOperation;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.ValueType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The kind chosen for one column, asked of the installed kinds' rules: among the kinds that encrypt
 * ({@code BoxTraits.keyed()}) and accept the use, the one whose {@link BoxRules#serverOperations}
 * answer the most of the column's demands, and of those the one with the lowest {@link
 * BoxRules#leakageRank()}.
 *
 * @param provider the chosen kind's provider
 * @param use the use it was judged for (companion and list options included)
 * @param operations what it answers on the servers there
 * @param served the demands it answers
 * @param unserved the demands it does not
 */
record BoxChoice(BoxProvider provider, BoxUse use, Set<ServerOperation> operations, List<Demand> served,
    List<Demand> unserved, String passedOver) {

  /**
   * The choice for a use at {@code place} of values of {@code type}.
   *
   * @param declaredValues the column's declared values, which splaying kinds need
   * @param declaredRows how many rows hold each declared value, if the schema says; else empty
   * @param family the kinds of the family's listed columns, by qualifier
   * @param excluded kinds not to choose, and why (for the note), or an empty map
   * @throws IllegalStateException if no installed kind that encrypts accepts the use
   */
  static BoxChoice choose(BoxUse.Place place, ValueType type, List<Demand> demands,
      Optional<List<String>> declaredValues, Map<String, Long> declaredRows, Map<String, BoxKind> family,
      boolean protectQualifiers, Map<BoxKind, String> excluded) {
    List<String> splayed = demands.stream().filter(Demand::splayable).flatMap(d -> d.measures().stream())
        .distinct().toList();
    BoxChoice best = null;
    for (BoxProvider provider : BoxProviders.installed()) {
      BoxRules rules = provider.rules();
      if (!provider.traits().keyed() || place == BoxUse.Place.ROW_KEY && !rules.protectsRowKeys()
          || excluded.containsKey(provider.kind())) {
        continue;
      }
      Map<String, List<String>> options = Map.of();
      if (!rules.options().isEmpty()) {
        // The planner fills only options that splay measures by declared values.
        Optional<Map<String, List<String>>> splay = declaredValues.isPresent() && !splayed.isEmpty()
            ? rules.splayOptions(declaredValues.get(), declaredRows, splayed) : Optional.empty();
        if (splay.isEmpty()) {
          continue;
        }
        options = splay.get();
      }
      BoxUse use = firstAccepted(rules, place, type.yamlName(), options, family, protectQualifiers);
      if (use == null) {
        continue;
      }
      Set<ServerOperation> operations = rules.serverOperations(use);
      List<Demand> served = new ArrayList<>();
      List<Demand> unserved = new ArrayList<>();
      for (Demand d : demands) {
        (d.answeredBy(operations) ? served : unserved).add(d);
      }
      BoxChoice candidate = new BoxChoice(provider, use, operations, served, unserved,
          String.join("; ", excluded.values()));
      if (best == null || candidate.betterThan(best)) {
        best = candidate;
      }
    }
    if (best == null) {
      throw new IllegalStateException("no installed box that encrypts accepts a " + place + " of type "
          + type.yamlName() + " (installed: " + BoxProviders.installed().stream().map(p -> p.kind().name()).toList()
          + ")");
    }
    return best;
  }

  /** The use without companion if the rules accept it, else with the first companion they accept; or null. */
  private static BoxUse firstAccepted(BoxRules rules, BoxUse.Place place, String type, Map<String, List<String>> options,
      Map<String, BoxKind> family, boolean protectQualifiers) {
    List<Optional<BoxKind>> companions = new ArrayList<>();
    companions.add(Optional.empty());
    if (place != BoxUse.Place.ROW_KEY) {
      rules.companions().stream().sorted().forEach(c -> companions.add(Optional.of(c)));
    }
    for (Optional<BoxKind> companion : companions) {
      BoxUse use = new BoxUse(place, type, companion, options, place == BoxUse.Place.ROW_KEY ? Map.of() : family,
          protectQualifiers);
      if (rules.refusal(use).isEmpty()) {
        return use;
      }
    }
    return null;
  }

  private boolean betterThan(BoxChoice other) {
    return served.size() != other.served.size() ? served.size() > other.served.size()
        : provider.rules().leakageRank() < other.provider.rules().leakageRank();
  }

  BoxKind kind() {
    return provider.kind();
  }

  /** The policy this choice stores values under, of the column's given type. */
  ColumnPolicy policy(ValueType type) {
    ColumnPolicy.Builder policy = ColumnPolicy.builder(kind()).type(type);
    use.companion().ifPresent(policy::companion);
    use.options().forEach(policy::listOption);
    return policy.build();
  }

  /** The measures it splits sums of by the column's values: those of the demands it answers only so. */
  Set<String> splayedMeasures() {
    return served.stream().filter(d -> d.onlySplayed(operations)).flatMap(d -> d.measures().stream())
        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
  }

  /** One comment line: the kind, what forced it, and what it leaks. */
  String note() {
    StringBuilder s = new StringBuilder(kind().name());
    use.companion().ifPresent(c -> s.append(" with companion ").append(c));
    if (served.isEmpty()) {
      s.append(": no sample query asks anything of it on the servers");
      if (use.place() == BoxUse.Place.ROW_KEY && !provider.traits().findsStoredRows()) {
        s.append(" (rows cannot be looked up by key: add a query such as WHERE rowkey = ? if they must be)");
      }
    } else {
      Map<String, List<String>> byQuery = new LinkedHashMap<>();
      for (Demand d : served) {
        List<String> whats = byQuery.computeIfAbsent(d.query().where(), k -> new ArrayList<>());
        if (!whats.contains(d.what())) {
          whats.add(d.what());
        }
      }
      s.append(": forced by ").append(byQuery.entrySet().stream()
          .map(e -> e.getKey() + " (" + String.join(", ", e.getValue()) + ")").collect(Collectors.joining(", ")));
    }
    if (!passedOver.isEmpty()) {
      s.append(" (").append(passedOver).append(")");
    }
    return s.append("; leaks ").append(provider.rules().leakage(use)).toString();
  }
}
