package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.schema.TableLayout;
import java.util.Set;

/**
 * What a layout can do beyond reads and writes, asked by tools and the client instead of testing
 * which layout a table has. A layout without a capability is refused by name: {@link #require}.
 */
public enum LayoutCapability {
  /** Stored cells can be walked and decoded one by one: {@code cryptoworker inspect} and {@code audit}. */
  INSPECTION("inspection and audit of stored cells"),
  /** Cells can be re-encrypted in place, online: {@code cryptoworker migrate} and {@code migratingFrom}. */
  MIGRATION("online migration (cryptoworker migrate, migratingFrom)"),
  /** Writes can be turned into stored cells for HFiles: {@code SecureBulkLoad}. */
  BULK_LOAD("bulk loads (encrypted HFiles)"),
  /** Scans can be limited to a range of stored keys: MapReduce input splits. */
  STORED_RANGE_SCANS("scans of a stored-key range (MapReduce input splits)"),
  /** Region servers can add ciphertexts (ASHE, SPLASHE) and search indexes (SSE). */
  REGION_WORK("region-side sums and searches"),
  /** Conditional writes: {@code checkAndMutate}. */
  CHECK_AND_MUTATE("checkAndMutate"),
  /** Cells keep several versions, each with its timestamp: {@code readVersions(n)}, {@code cryptoworker copy}. */
  VERSIONS("several versions per cell");

  private final String description;

  LayoutCapability(String description) {
    this.description = description;
  }

  /** What the capability allows, for messages. */
  public String description() {
    return description;
  }

  /**
   * Refuses {@code what} on table {@code table} unless its layout has this capability.
   *
   * @throws UnsupportedSecureOperationException naming the table, the layout and the capability
   */
  public void require(LayoutProvider provider, TableLayout layout, String table, String what)
      throws UnsupportedSecureOperationException {
    require(provider.capabilities(layout), layout.type(), table, what);
  }

  /**
   * Refuses {@code what} on table {@code table}, stored in layout {@code layoutType}, unless {@code
   * capabilities} has this one.
   *
   * @throws UnsupportedSecureOperationException naming the table, the layout and the capability
   */
  public void require(Set<LayoutCapability> capabilities, String layoutType, String table, String what)
      throws UnsupportedSecureOperationException {
    if (!capabilities.contains(this)) {
      throw new UnsupportedSecureOperationException(table, what, "the " + layoutType + " layout lacks capability "
          + name() + " (" + description + ")");
    }
  }
}
