package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.inspect.StoredCells;
import dev.cryptoworker.client.migrate.MovingRowsLayout;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.client.spi.LayoutContext;
import dev.cryptoworker.client.spi.LayoutProvider;
import dev.cryptoworker.client.spi.StorageLayout;
import dev.cryptoworker.client.spi.StoredUnits;
import dev.cryptoworker.schema.CellLayoutDefinition;
import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.hbase.client.Table;

/** The built-in {@code CELL} layout: one encrypted stored cell per logical cell, on one cluster. */
public final class CellLayoutProvider extends CellLayoutDefinition implements LayoutProvider {
  private static final Set<LayoutCapability> ALL = Set.copyOf(EnumSet.allOf(LayoutCapability.class));

  @Override
  public Set<String> storedFamilies(TableSchema schema) {
    return schema.families().keySet();
  }

  @Override
  public Set<LayoutCapability> capabilities(TableLayout layout) {
    return ALL;
  }

  @Override
  public StorageLayout open(LayoutContext context) throws IOException {
    Table stored = context.homeCluster().getTable(context.table());
    if (context.codec().rowsMove()) {
      // A migration moving rows to new stored keys: both forms, one cell per cell.
      return new MovingRowsLayout(stored, context.codec(), context.options(), context.pool());
    }
    return new CellLayout(stored, context.codec(), context.options(), context.pool(),
        context.homeCluster() == context.defaultCluster());
  }

  @Override
  public StoredUnits storedUnits(LayoutContext context, Collection<Integer> keysetKeyIds) {
    return new StoredCells(context.codec(), context.homeCluster(), context.table(), keysetKeyIds);
  }
}
