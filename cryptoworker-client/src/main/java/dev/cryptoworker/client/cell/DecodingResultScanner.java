package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.spi.ClientSideFilter;
import dev.cryptoworker.searchindex.spi.SearchCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decode for scans: decrypts each row from the raw scanner and applies whatever the plan left to
 * the client (row range, residual filter, limit).
 */
public final class DecodingResultScanner implements SecureResultScanner {
  /** Turns one row from the raw scanner into a logical row, or null to skip it. */
  @FunctionalInterface
  public interface RowDecoder {
    Result decode(Result raw) throws IOException;
  }

  private static final Logger LOG = LoggerFactory.getLogger(SecureTable.class);

  private final ResultScanner raw;
  private final RowDecoder decoder;
  private final ClientSideFilter residual;
  private final SearchCheck searchCheck;
  private final SearchCheck.ColumnReader columns;
  private long failedSearchCheck;
  /** The last stored row a search returned: its rows come in stored order, each once. */
  private byte[] lastSearchRow;
  /** The stored rows the scan asked the servers for: a search's hits are checked against them. */
  private final PlainRowRange storedRange;
  private final PlainRowRange rowRange;
  private final int limit;
  private final boolean skipUndecodable;
  private final String table;
  private long skipped;
  private int returned;
  private boolean done;

  public DecodingResultScanner(ResultScanner raw, RowDecoder decoder, ScanPlan plan, String table) {
    this(raw, decoder, plan, table, (row, family, qualifier) -> {
      throw new IllegalStateException("a search check without a column reader");
    });
  }

  /** As above; {@code columns} reads what a search check needs and a row lacks. */
  public DecodingResultScanner(ResultScanner raw, RowDecoder decoder, ScanPlan plan, String table,
      SearchCheck.ColumnReader columns) {
    this.searchCheck = plan.searchCheck();
    this.storedRange = PlainRowRange.of(plan.serverScan());
    this.columns = columns;
    this.skipUndecodable = plan.skipUndecodable();
    this.table = table;
    this.raw = raw;
    this.decoder = decoder;
    this.residual = plan.residualFilter() == null ? null : new ClientSideFilter(plan.residualFilter());
    this.rowRange = plan.rowRange();
    this.limit = plan.limit();
  }

  @Override
  public Result next() throws IOException {
    while (!done) {
      if (limit > 0 && returned >= limit) {
        done = true;
        break;
      }
      if (residual != null && residual.exhausted()) {
        done = true;
        break;
      }
      Result rawRow = raw.next();
      if (rawRow == null) {
        done = true;
        break;
      }
      if (searchCheck != null && !inStoredOrderAndRange(rawRow.getRow())) {
        continue;
      }
      Result row;
      try {
        row = decoder.decode(rawRow);
      } catch (CellDecodingException e) {
        if (!skipUndecodable) {
          throw e;
        }
        skipped++;
        // Neither the row (it may be a decrypted key) nor values: table, column and reason only.
        LOG.warn("Table {}: skipped a stored row that does not decode ({}: {}); {} skipped by this scan",
            table, e.column(), e.reason(), skipped);
        continue;
      }
      if (row == null || row.isEmpty()) {
        continue; // only internal cells (index cells) came back: no logical cell to return
      }
      if (searchCheck != null && !holdsSearch(row)) {
        continue;
      }
      if (rowRange != null && !rowRange.contains(row.getRow())) {
        continue;
      }
      if (residual != null) {
        row = residual.apply(row);
        if (row == null) {
          continue;
        }
      }
      returned++;
      return row;
    }
    return null;
  }

  /**
   * Whether a search's stored row lies in the stored range the scan asked for and comes after the
   * last one it returned, logging why not: regions answer in row order and the client asks them in
   * turn, so a row outside the range, again or out of order is a server's doing, and dropped.
   */
  private boolean inStoredOrderAndRange(byte[] stored) {
    String problem = lastSearchRow != null && Bytes.compareTo(stored, lastSearchRow) <= 0
        ? "a row again or out of stored order" : !storedRange.contains(stored) ? "a row outside the scan's row range"
        : null;
    if (problem != null) {
      failedSearchCheck++;
      LOG.warn("Table {}: a search returned {}: dropped; {} dropped by this scan", table, problem, failedSearchCheck);
      return false;
    }
    lastSearchRow = stored;
    return true;
  }

  /**
   * Whether {@code row} holds the searched values, logging why not; a searched column that does not
   * decode counts as skipped, or throws.
   */
  private boolean holdsSearch(Result row) throws IOException {
    try {
      if (searchCheck.holds(row, columns)) {
        return true;
      }
      // Index cells are not bound to rows: a server can make a search return any row.
      failedSearchCheck++;
      LOG.warn("Table {}: a search returned a row that does not hold the searched value (an index cell copied"
          + " to another row, or the row changed during the search): dropped; {} dropped by this scan", table,
          failedSearchCheck);
      return false;
    } catch (CellDecodingException e) {
      if (!skipUndecodable) {
        throw e;
      }
      skipped++;
      LOG.warn("Table {}: skipped a stored row whose searched column does not decode ({}: {}); {} skipped by this"
          + " scan", table, e.column(), e.reason(), skipped);
      return false;
    }
  }

  @Override
  public Result[] next(int nbRows) throws IOException {
    List<Result> out = new ArrayList<>(Math.min(nbRows, 128));
    for (int i = 0; i < nbRows; i++) {
      Result r = next();
      if (r == null) {
        break;
      }
      out.add(r);
    }
    return out.toArray(new Result[0]);
  }

  /**
   * Iterates decoded rows. A decoding failure surfaces as an {@link UncheckedIOException} whose
   * cause is the {@link CellDecodingException}; use {@link #next()} to receive it checked.
   */
  @Override
  public Iterator<Result> iterator() {
    return new Iterator<>() {
      private Result next;

      @Override
      public boolean hasNext() {
        if (next == null) {
          try {
            next = DecodingResultScanner.this.next();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        return next != null;
      }

      @Override
      public Result next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Result r = next;
        next = null;
        return r;
      }
    };
  }

  @Override
  public long skippedRows() {
    return skipped;
  }

  @Override
  public void close() {
    raw.close();
  }

  @Override
  public boolean renewLease() {
    return raw.renewLease();
  }

  @Override
  public ScanMetrics getScanMetrics() {
    return raw.getScanMetrics();
  }
}
