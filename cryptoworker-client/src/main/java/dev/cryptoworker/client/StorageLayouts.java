package dev.cryptoworker.client;

import dev.cryptoworker.client.cell.CellLayoutProvider;
import dev.cryptoworker.client.spi.LayoutProvider;
import dev.cryptoworker.schema.LayoutDefinition;
import dev.cryptoworker.schema.LayoutDefinitions;
import dev.cryptoworker.schema.TableLayout;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The storage layouts this client can open, by type: {@code CELL}, built in, and every installed
 * {@link LayoutDefinition} that is a {@link LayoutProvider} (layout modules on the class path).
 */
public final class StorageLayouts {
  private static final Map<String, LayoutProvider> PROVIDERS = load();

  private StorageLayouts() {}

  private static Map<String, LayoutProvider> load() {
    Map<String, LayoutProvider> byType = new TreeMap<>();
    Stream.concat(Stream.of(new CellLayoutProvider()), LayoutDefinitions.installed().stream()
            .filter(LayoutProvider.class::isInstance).map(LayoutProvider.class::cast))
        .forEach(p -> byType.putIfAbsent(p.type(), p));
    return Map.copyOf(byType);
  }

  /** Every layout this client can open. */
  public static List<LayoutProvider> installed() {
    return List.copyOf(new TreeMap<>(PROVIDERS).values());
  }

  /**
   * The provider of {@code layout}.
   *
   * @throws IllegalArgumentException if the layout's schema side is installed but not its storage
   *     side
   */
  public static LayoutProvider of(TableLayout layout) {
    LayoutProvider provider = PROVIDERS.get(layout.type());
    if (provider == null) {
      throw new IllegalArgumentException("layout " + layout.type() + " has no storage side on the class path ("
          + LayoutDefinitions.of(layout.type()).getClass().getName() + " is not a " + LayoutProvider.class.getName()
          + "); layouts this client can open: " + PROVIDERS.keySet());
    }
    return provider;
  }
}
