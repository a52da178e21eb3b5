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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The boxes this client can build, one factory and one {@link BoxTraits} per {@link BoxKind}: a new
 * box is a new module and one {@code register} line in {@link #standard()}. Immutable once built; no global state.
 */
public final class BoxRegistry {
  private static final BoxTraits ADDITIVE = new BoxTraits(BoxTraits.KeyHeader.KEY_ID_PREFIX, false, true, false, true,
      false);
  private static final BoxRegistry STANDARD = new Builder()
      .register(BoxKind.PLAIN, new BoxTraits(BoxTraits.KeyHeader.NONE, true, false, false, false, false),
          c -> PlainBox.get())
      .register(BoxKind.STD, BoxTraits.keyed(false),
          c -> RandomizedBox.create(c.keyRing(RandomizedBox.KEY_LENGTH_BYTES), c.storedFormat()))
      .register(BoxKind.DET, BoxTraits.keyed(true),
          c -> DeterministicBox.create(c.keyRing(DeterministicBox.KEY_LENGTH_BYTES), c.storedFormat()))
      .register(BoxKind.OPE, BoxTraits.keyed(true),
          c -> OrderPreservingBox.create(c.keyRing(OrderPreservingBox.KEY_LENGTH_BYTES), c.storedFormat(),
              orderEncoding(c.type()), c.companion(), c.orderPreservingMemoEntries()))
      .register(BoxKind.ASHE, ADDITIVE, BoxRegistry::ashe)
      // SPLASHE stores its dimension as ASHE 0/1 indicators, and its measures splayed per value.
      .register(BoxKind.SPLASHE, new BoxTraits(BoxTraits.KeyHeader.KEY_ID_PREFIX, false, true, false, true, true),
          BoxRegistry::ashe)
      .register(BoxKind.SSE, new BoxTraits(BoxTraits.KeyHeader.KEY_ID_PREFIX, false, true, true, false, false),
          c -> SearchableBox.create(c.keyRing(SearchableBox.KEY_LENGTH_BYTES)))
      .build();

  private final Map<BoxKind, BoxFactory> factories;
  private final Map<BoxKind, BoxTraits> traits;

  private BoxRegistry(Builder b) {
    this.factories = new LinkedHashMap<>(b.factories);
    this.traits = new LinkedHashMap<>(b.traits);
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

  /**
   * What the client knows of {@code kind}.
   *
   * @throws UnsupportedOperationException if no box of that kind is registered
   */
  public BoxTraits traits(BoxKind kind) {
    BoxTraits t = traits.get(kind);
    if (t == null) {
      throw new UnsupportedOperationException("the " + kind + " box is not implemented yet (see the README's status"
          + " section)");
    }
    return t;
  }

  /** The registered kinds whose stored values are under a key, in registration order. */
  public List<BoxKind> keyedKinds() {
    return traits.entrySet().stream().filter(e -> e.getValue().keyed()).map(Map.Entry::getKey).toList();
  }

  /** Builder of a registry. */
  public static final class Builder {
    private final Map<BoxKind, BoxFactory> factories = new LinkedHashMap<>();
    private final Map<BoxKind, BoxTraits> traits = new LinkedHashMap<>();

    /** Registers the boxes of {@code kind}: what the client knows of them, and how to build one. */
    public Builder register(BoxKind kind, BoxTraits kindTraits, BoxFactory factory) {
      if (factories.putIfAbsent(kind, factory) != null) {
        throw new IllegalArgumentException("a factory for " + kind + " is already registered");
      }
      traits.put(kind, kindTraits);
      return this;
    }

    public BoxRegistry build() {
      return new BoxRegistry(this);
    }
  }
}
