package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.migrate.MigratingColumns;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
import dev.cryptoworker.region.RegionRequests;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;

/**
 * Encode for scans: encrypts row bounds and qualifiers, translates the filter, and decides what
 * must run on the client (only with the caller's opt-in).
 */
public final class ScanPlanner {
  private final TableCodec codec;
  private final OperationEncoder operations;
  private final FilterTranslator filters;

  ScanPlanner(TableCodec codec, OperationEncoder operations, FilterTranslator filters) {
    this.codec = codec;
    this.operations = operations;
    this.filters = filters;
  }

  public ScanPlan plan(Scan scan) throws IOException {
    boolean clientAllowed = SecureScans.allowsClientSideEvaluation(scan, filters.options());
    Scan out = new Scan(scan);
    out.setAttribute(SecureScans.CLIENT_SIDE_ATTRIBUTE, null);
    out.setAttribute(SecureScans.SKIP_UNDECODABLE_ATTRIBUTE, null);
    out.setFamilyMap(operations.encodeFamilyMap(scan.getFamilyMap()));

    String reason = null;
    PlainRowRange residualRange = null;
    boolean hasRange = scan.getStartRow().length > 0 || scan.getStopRow().length > 0;
    CryptoBox rowBox = codec.rowBox();
    if (hasRange && (codec.rowKeysInPlaintext() || rowBox.capability(OrderOnCiphertext.class).isPresent())) {
      // Plaintext or order-preserving keys: the plaintext range is exactly the stored range.
      if (scan.getStartRow().length > 0) {
        out.withStartRow(codec.encodeRow(scan.getStartRow()), scan.includeStartRow());
      }
      if (scan.getStopRow().length > 0) {
        out.withStopRow(codec.encodeRow(scan.getStopRow()), scan.includeStopRow());
      }
    } else if (hasRange) {
      boolean singleRow =
          scan.isGetScan() || (scan.includeStopRow() && Arrays.equals(scan.getStartRow(), scan.getStopRow()));
      if (singleRow && rowBox.capability(EqualityOnCiphertext.class).isPresent()) {
        byte[] stored = codec.encodeRow(scan.getStartRow());
        out.withStartRow(stored, true).withStopRow(stored, true);
      } else if (clientAllowed) {
        reason = "row range over " + rowBox.kind() + " row keys";
        residualRange = PlainRowRange.of(scan);
        out.withStartRow(HConstants.EMPTY_START_ROW).withStopRow(HConstants.EMPTY_END_ROW);
      } else {
        throw new UnsupportedSecureOperationException(
            codec.table(), codec.describeRowKey(),
            "a row-key range scan cannot run on " + rowBox.kind() + " ciphertext, whose order is not the"
                + " plaintext order; refused rather than scanning the whole table. Opt in with"
                + " SecureScans.allowClientSideEvaluation(scan) to scan, decrypt and filter on the"
                + " client");
      }
    }

    Filter filter = scan.getFilter();
    boolean migrating = MigratingColumns.touchedBy(filter, codec);
    Optional<SearchIndex.IndexSearch> search = migrating || codec.searchIndex().isEmpty() ? Optional.empty()
        : codec.searchIndex().get().plan(codec, filter);
    if (search.isPresent()) {
      requireIndexable(scan, search.get().rest());
      out.setAttribute(RegionRequests.SEARCH_ATTRIBUTE, RegionRequests.encode(search.get().request()));
      filter = search.get().rest();
    }
    // During a migration a changing column holds both stored forms, which one server-side
    // comparison cannot match: the whole filter runs on the decoded rows (both forms decode).
    FilterTranslator.Translation t = migrating
        ? new FilterTranslator.Translation(null, filter)
        : filters.translate(filter, clientAllowed);
    if (migrating) {
      reason = (reason == null ? "" : reason + "; ") + "filter on a column being migrated";
    }
    out.setFilter(t.serverFilter());
    if (t.clientResidual() != null && !migrating) {
      reason = (reason == null ? "" : reason + "; ") + "filter "
          + t.clientResidual().getClass().getSimpleName() + " on protected data";
    }
    int limit = scan.getLimit();
    if (reason != null) {
      if (scan.getBatch() > 0 || scan.getAllowPartialResults()) {
        throw new UnsupportedSecureOperationException(
            codec.table(), "scan",
            "client-side evaluation needs whole rows: do not combine it with setBatch or"
                + " setAllowPartialResults");
      }
      out.setLimit(-1); // the client applies the limit after its own filtering
    }
    return new ScanPlan(out, t.clientResidual(), residualRange, reason == null && search.isEmpty() ? -1 : limit, reason,
        SecureScans.skipsUndecodableRows(scan, filters.options()), search.map(SearchIndex.IndexSearch::check).orElse(null));
  }

  /** Whether {@code filter} is, or ANDs or ORs, a FirstKeyOnlyFilter. */
  private static boolean keepsFirstCellOnly(Filter filter) {
    if (filter instanceof FirstKeyOnlyFilter) {
      return true;
    }
    return filter instanceof FilterList list && list.getFilters().stream().anyMatch(ScanPlanner::keepsFirstCellOnly);
  }

  /** What a search through the index cannot honour, refused rather than answered differently. */
  private void requireIndexable(Scan scan, Filter rest) throws UnsupportedSecureOperationException {
    String problem = scan.isReversed() ? "a reversed scan"
        : !scan.getTimeRange().isAllTime() ? "a time range (the index finds rows by their current value)"
        : scan.getBatch() > 0 || scan.getAllowPartialResults() ? "setBatch or setAllowPartialResults"
        : !scan.getColumnFamilyTimeRange().isEmpty() ? "setColumnFamilyTimeRange (the index finds rows by their current"
            + " value)"
        : scan.getMaxResultsPerColumnFamily() >= 0 || scan.getRowOffsetPerColumnFamily() > 0
            ? "setMaxResultsPerColumnFamily or setRowOffsetPerColumnFamily (they can hide the cells a search checks)"
        : keepsFirstCellOnly(rest) ? "FirstKeyOnlyFilter (a row's first stored cell is its index cell, not a column)"
        : null;
    if (problem != null) {
      throw new UnsupportedSecureOperationException(codec.table(), "scan",
          "a condition on a searchable column is answered from its search index, which does not support " + problem);
    }
  }
}
