package dev.cryptoworker.cli;

import dev.cryptoworker.searchindex.SearchIndexUpkeep;
import org.apache.hadoop.hbase.TableName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cryptoworker search-index}: the size of a table's region-side SSE index, and its compaction. */
@Command(name = "search-index", mixinStandardHelpOptions = true,
    description = {"Show how many entries the regions' SSE search index holds; with --compact, first drop the"
        + " entries of rows whose value changed or that were deleted, and add any current entry missing (one"
        + " region after another; regions also do this after each major compaction). Needs no key."})
final class SearchIndexCommand extends Subcommand {
  @Mixin ClusterOptions cluster;

  @Option(names = "--table", required = true, paramLabel = "NAME", description = "The table, as HBase names it.")
  String table;

  @Option(names = "--compact", description = "Compact each region's index before counting.")
  boolean compact;

  @Override
  public Integer call() throws Exception {
    SearchIndexUpkeep.Report report;
    try (ClusterOptions.OpenCluster open = cluster.open()) {
      report = SearchIndexUpkeep.run(open.connection(), TableName.valueOf(table), compact);
    }
    if (compact) {
      out().printf("%s: %,d regions, %,d index entries before, %,d after (%,d stale dropped, %,d missing added)%n",
          table, report.regions(), report.entriesBefore(), report.entriesAfter(), report.removed(), report.added());
    } else {
      out().printf("%s: %,d regions, %,d index entries%n", table, report.regions(), report.entriesAfter());
    }
    return OK;
  }
}
