package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.searchindex.spi.SearchCheck;
import java.util.List;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;

/**
 * How one Scan is carried out: what HBase is sent, and what the client still does on decoded
 * rows.
 *
 * @param serverScan the encoded scan sent to HBase
 * @param residualFilter filter evaluated on decoded rows, or null
 * @param rowRange plaintext row range checked on decoded rows, or null
 * @param limit maximum rows returned after client-side evaluation, or -1
 * @param clientSideReason why part of the scan runs on the client, or null
 * @param skipUndecodable whether stored rows that do not decode are skipped and counted
 * @param searchCheck if the server scan selects its rows through the search index (then every
 *     region is asked in parallel, and the limit applies on the client), the check each returned
 *     row must pass; else null
 */
public record ScanPlan(Scan serverScan, Filter residualFilter, PlainRowRange rowRange, int limit, String clientSideReason,
    boolean skipUndecodable, SearchCheck searchCheck) {

  /** This plan with the residual filter replaced. */
  ScanPlan withResidualFilter(Filter residual) {
    return new ScanPlan(serverScan, residual, rowRange, limit, clientSideReason, skipUndecodable, searchCheck);
  }

  /** Whether the server scan selects its rows through the search index. */
  public boolean searchesIndex() {
    return searchCheck != null;
  }

  public boolean evaluatesOnClient() {
    return clientSideReason != null;
  }

  /** Where each part of the scan runs and what the servers learn, naming filters by type only (operands may be secret). */
  public QueryPlan toQueryPlan(String table) {
    return new QueryPlan(table, List.of(serverStep(), clientStep()), clientSideReason, searchesIndex());
  }

  private QueryPlan.Step serverStep() {
    boolean wholeTable = serverScan.getStartRow().length == 0 && serverScan.getStopRow().length == 0;
    StringBuilder work = new StringBuilder(searchesIndex() ? searchCheck.kinds() + " index search in every region"
        : wholeTable ? "scan of the whole table" : "scan of a stored key range");
    StringBuilder leaks = new StringBuilder(searchesIndex()
        ? "the search token (a repeated search for one value is seen as such) and the rows it finds"
        : wholeTable ? "the number of stored rows and cells" : "the stored bounds of the range (for OPE row keys,"
            + " their place in the order) and the rows in it");
    if (serverScan.getFilter() != null) {
      work.append(", filter ").append(describe(serverScan.getFilter()));
      leaks.append("; which rows pass each condition: an equality on DET or PLAIN values compares stored bytes,"
          + " a range on OPE values their order");
    }
    return QueryPlan.Step.onServers(work.toString(), leaks.toString());
  }

  private QueryPlan.Step clientStep() {
    StringBuilder s = new StringBuilder("decrypts").append(searchesIndex() ? ", checks each row holds the searched values" : "");
    if (rowRange != null) {
      s.append(", checks the row range");
    }
    if (residualFilter != null) {
      s.append(", filter ").append(describe(residualFilter));
    }
    if (limit > 0) {
      s.append(", limit ").append(limit);
    }
    return QueryPlan.Step.onClient(s.toString());
  }

  private static String describe(Filter filter) {
    if (filter instanceof FilterList list) {
      StringBuilder s = new StringBuilder(list.getOperator() == FilterList.Operator.MUST_PASS_ALL ? "AND(" : "OR(");
      for (int i = 0; i < list.getFilters().size(); i++) {
        s.append(i == 0 ? "" : ", ").append(describe(list.getFilters().get(i)));
      }
      return s.append(')').toString();
    }
    return filter.getClass().getSimpleName();
  }
}
