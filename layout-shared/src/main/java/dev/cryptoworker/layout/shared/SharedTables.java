package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.client.spi.LayoutContext;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;

/**
 * The operator's calls on the SHARED tables of one {@link SecureConnection}: repairs. Obtained with
 * {@link #of(SecureConnection)}; as thread-safe as the connection.
 */
public final class SharedTables {
  private final SecureConnection secure;

  private SharedTables(SecureConnection secure) {
    this.secure = secure;
  }

  /** The SHARED tables of {@code secure}. */
  public static SharedTables of(SecureConnection secure) {
    return new SharedTables(Objects.requireNonNull(secure, "secure"));
  }

  /**
   * A repair of SHARED table {@code name}: run it when a cluster that was down is back, or after a
   * read reported corrupt shares (see {@link SharedTableRepair}).
   *
   * @throws IllegalArgumentException if no schema names the table, or it is not SHARED
   */
  public SharedTableRepair repair(TableName name) throws IOException {
    LayoutContext context = secure.layoutContext(name);
    if (!(context.layout() instanceof SharedTableLayout)) {
      throw new IllegalArgumentException("table " + name + " is not a SHARED table of this connection (its layout is "
          + context.layout().type() + ")");
    }
    try (Admin admin = context.defaultCluster().getAdmin()) {
      RegionSupport.createCounterTable(admin); // holds the repair's checkpoint
    }
    return new SharedTableRepair(SharedLayout.open(context), context.codec(), context.defaultCluster(), name);
  }
}
