package dev.cryptoworker.cryptobox;

import dev.cryptoworker.cryptobox.expansion.FamilyExpansion;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Optional;

/**
 * A kind of box: builds the kind's boxes for columns and says what its stored form implies ({@link
 * BoxTraits}). Found through {@link java.util.ServiceLoader}: a box module lists its provider in
 * {@code META-INF/services/dev.cryptoworker.cryptobox.BoxProvider}, one line ({@link
 * BoxProviders}). Implementations are stateless and thread-safe.
 */
public interface BoxProvider {
  /** The kind schemas name. */
  BoxKind kind();

  /** What the kind's stored form implies, for tools that plan before any box exists. */
  BoxTraits traits();

  /** Where schemas may use the kind, and what it leaks there. */
  BoxRules rules();

  /**
   * The whole-number options a connection may set for this kind's boxes ({@link
   * BoxContext#option}), with their defaults; none by default. Names start with the kind's name in
   * lower case and a dot ({@code ope.memoEntries}).
   */
  default Map<String, Integer> options() {
    return Map.of();
  }

  /**
   * How this kind stores {@code family}'s columns, if not one stored cell per logical cell (a kind
   * whose traits declare {@link BoxTraits#severalCellsPerValue()}); none by default.
   */
  default Optional<FamilyExpansion> expansion(FamilyStore family) {
    return Optional.empty();
  }

  /**
   * A box for the column {@code context} describes.
   *
   * @throws GeneralSecurityException if its keys cannot be derived or are unfit
   */
  CryptoBox create(BoxContext context) throws GeneralSecurityException;
}
