package dev.cryptoworker.cli;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.StorageLayouts;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cryptoworker copy}: every row of a table into a new table under another schema, through
 * the client (decrypted, then encrypted again). The path for the schema changes an online
 * migration refuses (protectQualifiers, SPLASHE columns, STD row keys, other layouts): copy, move
 * the applications to the new table, then drop the old one.
 */
@Command(name = "copy", mixinStandardHelpOptions = true,
    description = {"Copy every row of --from's table into a new table, --to's (it must name another table), through"
        + " the client: each row is decrypted under --from's schema and written under --to's, every version with"
        + " its timestamp (--latest-only: the latest only). For the schema changes `migrate` refuses; applications must not write to the source"
        + " while it runs (rows written meanwhile may be missed). Then point the applications at the new table and"
        + " drop the old one (docs/operations.md)."})
final class CopyCommand extends Subcommand {
  @Mixin ClusterOptions cluster;
  @Mixin NamedClusters namedClusters;
  @Mixin KeysetOptions keyset;

  @Option(names = "--from", required = true, paramLabel = "OLD.yaml", description = "The source table's schema.")
  Path from;

  @Option(names = "--to", required = true, paramLabel = "NEW.yaml",
      description = "The new table's schema (created by this command; it must not exist).")
  Path to;

  @Option(names = "--latest-only", description = {"Copy each cell's latest version only, written at the copy's time"
      + " (for a layout that keeps no versions or timestamps, such as PACKED and SHARED)."})
  boolean latestOnly;

  @Override
  public Integer call() throws Exception {
    TableSchema source = TableSchema.load(from);
    TableSchema target = TableSchema.load(to);
    if (source.tableName().equals(target.tableName())) {
      throw new IllegalArgumentException(from + " and " + to + " both describe table " + source.tableName()
          + ": copy into a table of another name (or use `migrate` for the changes it supports)");
    }
    if (!latestOnly) {
      for (TableSchema s : List.of(source, target)) {
        requireVersions(s);
      }
    }
    KeyProvider keys = KeyProvider.fromKeysetFile(keyset.keyset, keyset.keyEncryptionKey(root().environment()));
    long rows = 0;
    long cells = 0;
    try (ClusterOptions.OpenCluster open = cluster.open(namedClusters, "copy", List.of(source, target));
        SecureConnection secure = SecureConnection.wrap(open.clusters(), keys, List.of(source, target))) {
      TableName targetName = TableName.valueOf(target.tableName());
      for (String name : target.layout().clusters()) {
        try (Admin admin = open.clusters().get(name).getAdmin()) {
          if (admin.tableExists(targetName)) {
            throw new IllegalArgumentException("table " + targetName + " (" + to + ") exists already on cluster " + name
                + ": copy creates it");
          }
        }
      }
      secure.createTable(target);
      try (Table in = secure.getTable(TableName.valueOf(source.tableName()));
          ResultScanner scanner = in.getScanner(latestOnly ? new Scan().setCaching(500)
              : new Scan().readAllVersions().setCaching(500));
          BufferedMutator out = secure.getBufferedMutator(targetName)) {
        for (Result row : scanner) {
          Put put = new Put(row.getRow());
          for (Cell cell : row.rawCells()) {
            if (latestOnly) {
              put.addColumn(CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell), CellUtil.cloneValue(cell));
            } else {
              put.add(cell);
            }
          }
          out.mutate(put);
          rows++;
          cells += row.rawCells().length;
        }
      }
    }
    out().printf("copied %,d rows (%,d cells) from %s into %s%n", rows, cells, source.tableName(), target.tableName());
    return OK;
  }

  /** Refuses to copy every version of a table whose layout keeps one per cell (--latest-only copies the latest). */
  private static void requireVersions(TableSchema schema) throws UnsupportedSecureOperationException {
    try {
      LayoutCapability.VERSIONS.require(StorageLayouts.of(schema.layout()), schema.layout(), schema.tableName(),
          "cryptoworker copy of every version");
    } catch (UnsupportedSecureOperationException e) {
      throw new UnsupportedSecureOperationException(schema.tableName(), "cryptoworker copy of every version",
          e.reason() + "; copy each cell's latest version with --latest-only");
    }
  }
}
