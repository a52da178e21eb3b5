package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.schema.LayoutDefinition;
import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.util.Collection;
import java.util.Set;

/**
 * A storage layout: how one logical table becomes stored HBase cells. Reads and checks its own
 * {@code layout:} section (as a {@link LayoutDefinition}), names the stored table's families, says
 * what tools may ask of it ({@link LayoutCapability}) and opens a {@link StorageLayout} per table.
 *
 * <p>Found through {@link java.util.ServiceLoader}: a layout module lists its provider in {@code
 * META-INF/services/dev.cryptoworker.schema.LayoutDefinition}, one line, and applications that have
 * the module on their class path can name the layout in schemas. {@code CELL} is built into the
 * client. Implementations are stateless and thread-safe; what must live as long as a connection
 * (background merges, caches) is a {@linkplain LayoutContext#connectionService connection service}.
 */
public interface LayoutProvider extends LayoutDefinition {

  /** The column families of the stored table of {@code schema} (what {@code createTable} creates). */
  Set<String> storedFamilies(TableSchema schema);

  /** What tools and the client may ask of a table stored in {@code layout}. */
  Set<LayoutCapability> capabilities(TableLayout layout);

  /**
   * Whether the layout's own stored cells need CryptoWorker's region-side observer, whatever the
   * boxes (SHARED over a scheme whose shares the regions add); {@code createTable} then installs it.
   */
  default boolean needsRegionObserver(TableLayout layout) {
    return false;
  }

  /** Opens the layout of one table for one {@code SecureTable}. */
  StorageLayout open(LayoutContext context) throws IOException;

  /**
   * Writes what a new, empty table holds once its stored table exists on every cluster of its
   * layout (PACKED: the first pack). Runs again harmlessly on a table that has it.
   */
  default void initialize(LayoutContext context) throws IOException {}

  /**
   * The table's stored cells for inspection and audits, format-2 key headers resolved among the
   * codec's keys and {@code keysetKeyIds} (disabled keys too). Layouts with capability {@link
   * LayoutCapability#INSPECTION} override this.
   *
   * @throws UnsupportedSecureOperationException naming the capability the layout lacks
   */
  default StoredUnits storedUnits(LayoutContext context, Collection<Integer> keysetKeyIds) throws IOException {
    LayoutCapability.INSPECTION.require(capabilities(context.layout()), type(), context.table().getNameAsString(),
        "inspecting");
    throw new UnsupportedSecureOperationException(context.table().getNameAsString(), "inspecting", "the " + type()
        + " layout declares INSPECTION but does not implement storedUnits");
  }
}
