package dev.cryptoworker.cryptobox;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Where a schema may use a kind and what it leaks there, declared by the kind's {@link BoxProvider}.
 * Schemas check every use against its kind's rules (besides the rules common to all kinds: names,
 * companions and options the kind does not accept), and tools describe leakage from them and plan
 * schemas from what each kind answers on the servers, so that none names a kind.
 *
 * <p><b>Leakage rank.</b> {@link #leakageRank()} orders kinds by what the servers learn, so that the
 * schema planner can pick the kind that leaks least among those answering a column's queries. The
 * scale, lower leaking less: {@value #RANK_LENGTH_ONLY} the length only (STD); 10 nothing about
 * values at rest but, per aggregate, which rows it covers, and no integrity (ASHE); 20 the declared
 * value list and which value a query asks, not how many rows hold it (SPLASHE); 30 nothing about
 * equal values at rest, but per search which rows hold the searched value (SSE); 50 equality of all
 * values at rest, hence their frequencies (DET); 70 order and approximate values (OPE); {@value
 * #RANK_EVERYTHING} the values themselves (PLAIN). A kind that does not rank itself ranks {@value
 * #RANK_EVERYTHING}: a planner picks it only where nothing else serves.
 */
public interface BoxRules {
  /** The rank of a kind from which the servers learn only lengths. */
  int RANK_LENGTH_ONLY = 0;
  /** The rank of a kind from which the servers learn the values themselves (and of kinds that do not say). */
  int RANK_EVERYTHING = 100;

  /** Whether the kind may protect row keys. */
  default boolean protectsRowKeys() {
    return false;
  }

  /** The kinds a use may keep an authenticated companion copy under (none by default). */
  default Set<BoxKind> companions() {
    return Set.of();
  }

  /** The list options a use may give, such as SPLASHE's {@code values} and {@code splays} (none by default). */
  default Set<String> options() {
    return Set.of();
  }

  /** The value type values of {@code use} are read as ({@code use}'s own by default). */
  default String valueType(BoxUse use) {
    return use.valueType();
  }

  /**
   * Why this kind cannot serve {@code use}, if it cannot. Called only for uses that pass the common
   * rules (the place is allowed, and the companion and options are among those accepted).
   */
  default Optional<BoxUse.Refusal> refusal(BoxUse use) {
    return Optional.empty();
  }

  /** What the server learns from values stored in {@code use}, in one sentence for operators. */
  String leakage(BoxUse use);

  /** Where the kind stands in the order of leakage (see the class comment); {@value #RANK_EVERYTHING} by default. */
  default int leakageRank() {
    return RANK_EVERYTHING;
  }

  /**
   * What region servers answer on values stored in {@code use}, without keys (nothing by default):
   * what its boxes' capabilities allow there, for tools that plan before any box exists.
   */
  default Set<ServerOperation> serverOperations(BoxUse use) {
    return Set.of();
  }

  /**
   * The list options of a use that splits sums of {@code measures} by this column's {@code values}
   * ({@link ServerOperation#SPLAYED_EQUALITY}), if the kind splays measures; empty by default.
   *
   * @param rowsPerValue how many rows hold each value, if known (a count or a sample: only the
   *     proportions matter); empty if not. A kind may use it to store less for skewed values.
   */
  default Optional<Map<String, List<String>>> splayOptions(List<String> values, Map<String, Long> rowsPerValue,
      List<String> measures) {
    return Optional.empty();
  }

  /**
   * Rules of a kind that may protect row keys as well as values, and has no other rule.
   *
   * @param leakageRank see {@link #leakageRank()}
   * @param operations see {@link #serverOperations}
   * @param leakage see {@link #leakage}
   */
  static BoxRules rowKeysToo(int leakageRank, Function<BoxUse, Set<ServerOperation>> operations,
      Function<BoxUse, String> leakage) {
    return new BoxRules() {
      @Override
      public boolean protectsRowKeys() {
        return true;
      }

      @Override
      public int leakageRank() {
        return leakageRank;
      }

      @Override
      public Set<ServerOperation> serverOperations(BoxUse use) {
        return operations.apply(use);
      }

      @Override
      public String leakage(BoxUse use) {
        return leakage.apply(use);
      }
    };
  }
}
