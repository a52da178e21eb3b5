package dev.cryptoworker.cryptobox;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Where a schema may use a kind and what it leaks there, declared by the kind's {@link BoxProvider}.
 * Schemas check every use against its kind's rules (besides the rules common to all kinds: names,
 * companions and options the kind does not accept), and tools describe leakage from them, so that
 * neither names a kind.
 */
public interface BoxRules {
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

  /** Rules of a kind that may protect row keys as well as values, and has no other rule. */
  static BoxRules rowKeysToo(Function<BoxUse, String> leakage) {
    return new BoxRules() {
      @Override
      public boolean protectsRowKeys() {
        return true;
      }

      @Override
      public String leakage(BoxUse use) {
        return leakage.apply(use);
      }
    };
  }
}
