package dev.cryptoworker.cryptobox;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The box providers on the class path or the thread's context class loader ({@link
 * ServiceProviders}), found once (at first use), one per kind.
 */
public final class BoxProviders {
  private static final Map<BoxKind, BoxProvider> INSTALLED = load();

  private BoxProviders() {}

  private static Map<BoxKind, BoxProvider> load() {
    Map<BoxKind, BoxProvider> byKind = new LinkedHashMap<>();
    for (BoxProvider p : ServiceProviders.load(BoxProvider.class, BoxProviders.class)) {
      BoxProvider before = byKind.putIfAbsent(p.kind(), p);
      if (before != null) {
        throw new IllegalStateException("two box providers of kind " + p.kind() + " on the class path: "
            + before.getClass().getName() + " and " + p.getClass().getName());
      }
    }
    return byKind;
  }

  /** The installed provider of {@code kind}, if any. */
  public static Optional<BoxProvider> find(BoxKind kind) {
    return Optional.ofNullable(INSTALLED.get(kind));
  }

  /** Why {@code kind} cannot be used here: no installed module provides it. */
  public static String notInstalled(BoxKind kind) {
    return "no installed box module provides kind " + kind + " (installed: "
        + String.join(", ", installed().stream().map(p -> p.kind().name()).toList())
        + "); add the module that provides it to the class path";
  }

  /** Every installed provider, in {@link BoxKind} order. */
  public static List<BoxProvider> installed() {
    return INSTALLED.values().stream().sorted((a, b) -> a.kind().compareTo(b.kind())).toList();
  }
}
