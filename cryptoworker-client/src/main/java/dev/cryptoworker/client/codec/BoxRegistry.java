package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxProviders;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import java.security.GeneralSecurityException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The boxes this client can build: one {@link BoxProvider} per {@link BoxKind}, as installed on the
 * class path ({@link BoxProviders}). Immutable once built; no global state beyond the installed set.
 */
public final class BoxRegistry {
  private static final BoxRegistry STANDARD = build(BoxProviders.installed());

  private final Map<BoxKind, BoxProvider> providers;

  private BoxRegistry(Map<BoxKind, BoxProvider> providers) {
    this.providers = providers;
  }

  /** Every installed box. */
  public static BoxRegistry standard() {
    return STANDARD;
  }

  /**
   * A registry of {@code providers} only (tests: what a client without some box modules does).
   *
   * @throws IllegalArgumentException if two provide one kind
   */
  public static BoxRegistry of(List<BoxProvider> providers) {
    return build(providers);
  }

  private static BoxRegistry build(List<BoxProvider> providers) {
    Map<BoxKind, BoxProvider> byKind = new LinkedHashMap<>();
    for (BoxProvider p : providers) {
      if (byKind.putIfAbsent(p.kind(), p) != null) {
        throw new IllegalArgumentException("two providers of kind " + p.kind());
      }
    }
    return new BoxRegistry(byKind);
  }

  /**
   * The box {@code context}'s policy names.
   *
   * @throws UnsupportedOperationException if no box of that kind is installed
   */
  CryptoBox create(ColumnBoxContext context) throws GeneralSecurityException {
    return provider(context.policy().box()).create(context);
  }

  /**
   * What the client knows of {@code kind}.
   *
   * @throws UnsupportedOperationException if no box of that kind is installed
   */
  public BoxTraits traits(BoxKind kind) {
    return provider(kind).traits();
  }

  /**
   * How {@code kind} stores a family's columns, if its provider expands them ({@link
   * BoxProvider#expansion}).
   */
  Optional<FamilyExpansion> expansion(BoxKind kind, FamilyStore family) {
    return provider(kind).expansion(family);
  }

  private BoxProvider provider(BoxKind kind) {
    BoxProvider p = providers.get(kind);
    if (p == null) {
      throw new UnsupportedOperationException("no box of kind " + kind + " is installed (installed: "
          + String.join(", ", providers.keySet().stream().map(BoxKind::name).toList())
          + "); add the box module that provides it to the class path");
    }
    return p;
  }

  /** The installed kinds whose stored values are under a key, in kind order. */
  public List<BoxKind> keyedKinds() {
    return providers.entrySet().stream().filter(e -> e.getValue().traits().keyed()).map(Map.Entry::getKey).toList();
  }
}
