package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.ServiceProviders;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The layouts schemas can name: {@code CELL}, built in, and every {@link LayoutDefinition} on the
 * class path or the thread's context class loader ({@link ServiceProviders}), found once (at first
 * use).
 */
public final class LayoutDefinitions {
  private static final Map<String, LayoutDefinition> INSTALLED = load();

  private LayoutDefinitions() {}

  private static Map<String, LayoutDefinition> load() {
    Map<String, LayoutDefinition> byType = new TreeMap<>();
    Stream.concat(Stream.of(new CellLayoutDefinition()),
        ServiceProviders.load(LayoutDefinition.class, LayoutDefinitions.class).stream())
        .forEach(d -> {
          LayoutDefinition before = byType.putIfAbsent(d.type(), d);
          if (before != null) {
            throw new IllegalStateException("two layouts named " + d.type() + " on the class path: "
                + before.getClass().getName() + " and " + d.getClass().getName());
          }
        });
    return Map.copyOf(byType);
  }

  /** Every installed definition, by type. */
  public static List<LayoutDefinition> installed() {
    return List.copyOf(new TreeMap<>(INSTALLED).values());
  }

  /**
   * The definition of {@code type}.
   *
   * @throws IllegalArgumentException naming the installed layouts if none has that type
   */
  public static LayoutDefinition of(String type) {
    LayoutDefinition d = INSTALLED.get(type);
    if (d == null) {
      throw new IllegalArgumentException(unknown(type));
    }
    return d;
  }

  static boolean isInstalled(String type) {
    return INSTALLED.containsKey(type);
  }

  static String unknown(String type) {
    return "unknown layout type '" + type + "' (installed: " + String.join(", ", new TreeMap<>(INSTALLED).keySet())
        + "; PACKED and SHARED need their modules, layout-packed and layout-shared, on the class path)";
  }
}
