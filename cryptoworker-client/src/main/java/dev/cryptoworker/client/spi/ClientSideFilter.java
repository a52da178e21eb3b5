package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.cell.CellLayout;
import dev.cryptoworker.client.codec.TableCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Query;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.filter.Filter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an HBase filter over decoded rows on the client, following the call sequence a region
 * server uses (reset, filterRowKey, filterCell, transformCell, filterRowCells, filterRow). Used
 * only when the caller opted in to client-side evaluation.
 */
public final class ClientSideFilter {
  private static final Logger LOG = LoggerFactory.getLogger(ClientSideFilter.class);
  private final Filter filter;
  private boolean exhausted;

  public ClientSideFilter(Filter filter) {
    this.filter = filter;
  }

  /**
   * The query's filter to run on the client over decoded rows, or null without one, for a layout
   * whose servers cannot evaluate filters at all ({@code layout}: SHARED, PACKED): a filter needs
   * the caller's opt-in to client-side evaluation.
   *
   * @throws UnsupportedSecureOperationException without the opt-in, naming how to give it
   */
  public static ClientSideFilter forQuery(TableCodec codec, SecureTableOptions options, Query query, String layout, String why)
      throws IOException {
    if (query.getFilter() == null) {
      return null;
    }
    if (!SecureScans.allowsClientSideEvaluation(query, options)) {
      throw new UnsupportedSecureOperationException(codec.table(), codec.describeRowKey(),
          "no server can evaluate a filter on " + why + "; to fetch the rows and filter them on the client, opt in"
              + " with SecureScans.allowClientSideEvaluation(query) or SecureTableOptions.clientSideEvaluation(true)");
    }
    String reason = "filters on a " + layout + " table";
    if (codec.firstClientSideScan(reason)) {
      LOG.warn("Table {}: {} run on the client, over every row the query reaches. Further ones are logged at"
          + " DEBUG.", codec.table(), reason);
    } else {
      LOG.debug("Table {}: {} run on the client", codec.table(), reason);
    }
    return new ClientSideFilter(CellLayout.copyOf(query.getFilter())); // filters keep per-query state
  }

  /** Whether the filter has said no later row can pass (for example PageFilter). */
  public boolean exhausted() throws IOException {
    return exhausted || (exhausted = filter.filterAllRemaining());
  }

  /** The row as the filter leaves it, or null if the filter drops it. */
  public Result apply(Result row) throws IOException {
    if (row == null || row.isEmpty() || exhausted()) {
      return null;
    }
    filter.reset();
    Cell[] cells = row.rawCells();
    if (filter.filterRowKey(cells[0])) {
      return null;
    }
    List<Cell> kept = new ArrayList<>(cells.length);
    Cell skipColumn = null;
    for (Cell cell : cells) {
      if (skipColumn != null && CellUtil.matchingColumn(cell, skipColumn)) {
        continue;
      }
      skipColumn = null;
      Filter.ReturnCode code = filter.filterCell(cell);
      boolean stop = false;
      switch (code) {
        case INCLUDE:
          kept.add(filter.transformCell(cell));
          break;
        case INCLUDE_AND_NEXT_COL:
          kept.add(filter.transformCell(cell));
          skipColumn = cell;
          break;
        case INCLUDE_AND_SEEK_NEXT_ROW:
          kept.add(filter.transformCell(cell));
          stop = true;
          break;
        case NEXT_COL:
          skipColumn = cell;
          break;
        case NEXT_ROW:
          stop = true;
          break;
        default: // SKIP, SEEK_NEXT_USING_HINT: go on with the next cell
          break;
      }
      if (stop || filter.filterAllRemaining()) {
        break;
      }
    }
    filter.filterRowCells(kept);
    if ((filter.hasFilterRow() && filter.filterRow()) || kept.isEmpty()) {
      return null;
    }
    return Result.create(kept, row.getExists(), row.isStale(), row.mayHaveMoreCellsInRow());
  }
}
