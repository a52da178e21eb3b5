package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.PlainBox;
import dev.cryptoworker.cryptobox.ashe.AsheBox;
import dev.cryptoworker.cryptobox.det.DeterministicBox;
import dev.cryptoworker.cryptobox.ope.OrderPreservingBox;
import dev.cryptoworker.cryptobox.sse.SearchableBox;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import dev.cryptoworker.schema.ValueType;
import java.security.GeneralSecurityException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The boxes this client can build, one factory per {@link BoxKind}: a new box is a new module and
 * one {@code register} line in {@link #standard()}. Immutable once built; no global state.
 */
public final class BoxRegistry {
  private static final BoxRegistry STANDARD = new Builder()
      .register(BoxKind.PLAIN, c -> PlainBox.get())
      .register(BoxKind.STD, c -> RandomizedBox.create(c.keyRing(RandomizedBox.KEY_LENGTH_BYTES), c.storedFormat()))
      .register(BoxKind.DET, c -> DeterministicBox.create(c.keyRing(DeterministicBox.KEY_LENGTH_BYTES),
          c.storedFormat()))
      .register(BoxKind.OPE, c -> OrderPreservingBox.create(c.keyRing(OrderPreservingBox.KEY_LENGTH_BYTES),
          c.storedFormat(), orderEncoding(c.type()), c.companion(), c.orderPreservingMemoEntries()))
      .registerWithRegionWork(BoxKind.ASHE, BoxRegistry::ashe)
      // SPLASHE stores its dimension as ASHE 0/1 indicators.
      .registerWithRegionWork(BoxKind.SPLASHE, BoxRegistry::ashe)
      .registerSearchable(BoxKind.SSE, c -> SearchableBox.create(c.keyRing(SearchableBox.KEY_LENGTH_BYTES)))
      .build();

  private final Map<BoxKind, BoxFactory> factories;
  private final Set<BoxKind> regionWork;
  private final Set<BoxKind> searchIndexes;

  private BoxRegistry(Builder b) {
    this.factories = new EnumMap<>(b.factories);
    this.regionWork = Set.copyOf(b.regionWork);
    this.searchIndexes = Set.copyOf(b.searchIndexes);
  }

  /** Every box of this version: PLAIN, STD, DET, OPE, ASHE, SPLASHE, SSE. */
  public static BoxRegistry standard() {
    return STANDARD;
  }

  private static CryptoBox ashe(BoxContext c) throws GeneralSecurityException {
    return AsheBox.create(c.keyRing(AsheBox.KEY_LENGTH_BYTES), c.identifiers(), c.type() == ValueType.INT);
  }

  private static OrderPreservingBox.Encoding orderEncoding(ValueType type) {
    switch (type) {
      case LONG:
        return OrderPreservingBox.Encoding.LONG;
      case INT:
        return OrderPreservingBox.Encoding.INT;
      case DATE:
        return OrderPreservingBox.Encoding.DATE;
      default:
        return OrderPreservingBox.Encoding.BYTES;
    }
  }

  /**
   * The box {@code context}'s policy names.
   *
   * @throws UnsupportedOperationException if no box of that kind is registered
   */
  CryptoBox create(BoxContext context) throws GeneralSecurityException {
    BoxFactory factory = factories.get(context.policy().box());
    if (factory == null) {
      throw new UnsupportedOperationException("the " + context.policy().box()
          + " box is not implemented yet (see the README's status section)");
    }
    return factory.create(context);
  }

  /** Whether {@code kind}'s stored values need the region-side observer (aggregation). */
  public boolean needsRegionWork(BoxKind kind) {
    return regionWork.contains(kind);
  }

  /** Whether {@code kind}'s columns keep a search index the regions must hold (SSE). */
  public boolean keepsSearchIndex(BoxKind kind) {
    return searchIndexes.contains(kind);
  }

  /** Builder of a registry. */
  public static final class Builder {
    private final Map<BoxKind, BoxFactory> factories = new EnumMap<>(BoxKind.class);
    private final EnumSet<BoxKind> regionWork = EnumSet.noneOf(BoxKind.class);
    private final EnumSet<BoxKind> searchIndexes = EnumSet.noneOf(BoxKind.class);

    public Builder register(BoxKind kind, BoxFactory factory) {
      if (factories.putIfAbsent(kind, factory) != null) {
        throw new IllegalArgumentException("a factory for " + kind + " is already registered");
      }
      return this;
    }

    /** Registers a box whose stored values region servers work on (the observer is installed). */
    public Builder registerWithRegionWork(BoxKind kind, BoxFactory factory) {
      register(kind, factory);
      regionWork.add(kind);
      return this;
    }

    /** Registers a box whose columns are found through a search index kept in every region. */
    public Builder registerSearchable(BoxKind kind, BoxFactory factory) {
      registerWithRegionWork(kind, factory);
      searchIndexes.add(kind);
      return this;
    }

    public BoxRegistry build() {
      return new BoxRegistry(this);
    }
  }
}
