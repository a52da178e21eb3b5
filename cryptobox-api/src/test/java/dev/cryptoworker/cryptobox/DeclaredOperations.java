package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assertions;

/**
 * Checks a kind's declared {@link BoxRules#serverOperations} against its boxes' capabilities, the
 * ones the client asks when it runs a query: box module tests build a box through the provider
 * ({@link #box}) and compare {@link #impliedBy} with what the rules declare for the same use.
 */
public final class DeclaredOperations {
  private DeclaredOperations() {}

  /** What the region servers can answer on a column of {@code box}, as its capabilities say. */
  public static Set<ServerOperation> impliedBy(CryptoBox box) {
    Set<ServerOperation> operations = EnumSet.noneOf(ServerOperation.class);
    boolean plain = box.capability(PlaintextStorage.class).isPresent();
    boolean ordered = box.capability(OrderOnCiphertext.class).isPresent();
    boolean equal = box.capability(EqualityOnCiphertext.class).isPresent();
    if (plain || ordered || equal) {
      operations.add(ServerOperation.EQUALITY);
    }
    if (plain || ordered) {
      operations.add(ServerOperation.RANGE);
    }
    if (equal) {
      operations.add(ServerOperation.GROUP);
    }
    if (box.capability(AdditiveAggregation.class).isPresent()) {
      operations.add(ServerOperation.SUM);
    }
    if (box.capability(IndexedSearch.class).isPresent()) {
      operations.add(ServerOperation.INDEXED_EQUALITY);
    }
    return operations;
  }

  /**
   * Asserts that {@code provider}'s rules declare, for a column of {@code valueType} with {@code
   * companion} (null: none), what a box built for it can do.
   */
  public static void assertDeclaredForColumn(BoxProvider provider, String valueType, BoxProvider companion)
      throws GeneralSecurityException {
    BoxUse use = new BoxUse(BoxUse.Place.COLUMN, valueType,
        companion == null ? Optional.empty() : Optional.of(companion.kind()), Map.of(), Map.of(), false);
    Assertions.assertEquals(impliedBy(box(provider, valueType, companion)), provider.rules().serverOperations(use),
        provider.kind() + " on " + valueType + (companion == null ? "" : " with companion " + companion.kind()));
  }

  /** A box of {@code provider}'s kind for a column of {@code valueType}, with a fresh key and, if given, a companion. */
  public static CryptoBox box(BoxProvider provider, String valueType, BoxProvider companion)
      throws GeneralSecurityException {
    CryptoBox companionBox = companion == null ? null : box(companion, "bytes", null);
    AtomicLong ids = new AtomicLong();
    return provider.create(new BoxContext() {
      @Override
      public KeyRing keyRing(int lengthBytes) {
        return KeyRing.of(TestKeys.random(7, lengthBytes));
      }

      @Override
      public StoredFormat storedFormat() {
        return StoredFormat.LATEST;
      }

      @Override
      public String valueType() {
        return valueType;
      }

      @Override
      public CryptoBox companion() {
        return companionBox;
      }

      @Override
      public <S> Optional<S> service(Class<S> type) {
        IdentifierSource source = ids::incrementAndGet;
        return type == IdentifierSource.class ? Optional.of(type.cast(source)) : Optional.empty();
      }

      @Override
      public int option(String name, int fallback) {
        return fallback;
      }
    });
  }
}
