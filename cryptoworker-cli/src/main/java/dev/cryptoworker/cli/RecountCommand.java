package dev.cryptoworker.cli;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.schema.TableSchema;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cryptoworker recount}: the counts a table's writers share, set to what its stored cells show. */
@Command(name = "recount", mixinStandardHelpOptions = true,
    description = {"Set the counts a table's writers share (the token counts by which enhanced splayed columns"
        + " pad their rows) to what the stored cells show, after overwrites, deletes or failed writes made them"
        + " drift; later batches then pad the tokens left short. Reads every row's counted cells; needs the keys.",
        "Run it while no client writes the table: pads planned meanwhile are lost from the counts."})
final class RecountCommand extends Subcommand {
  @Mixin ClusterOptions cluster;
  @Mixin NamedClusters namedClusters;
  @Mixin TableOptions tableOptions;

  @Override
  public Integer call() throws Exception {
    TableSchema schema = tableOptions.schema();
    long moved;
    try (ClusterOptions.OpenCluster open = cluster.open(namedClusters, "recount", List.of(schema));
        SecureConnection secure = tableOptions.secure(open.clusters(), root().environment());
        SecureTable table = secure.getSecureTable(TableName.valueOf(schema.tableName()))) {
      moved = table.recountSharedCounts();
    }
    out().printf("%s: shared counts moved by %,d%n", schema.tableName(), moved);
    return OK;
  }
}
