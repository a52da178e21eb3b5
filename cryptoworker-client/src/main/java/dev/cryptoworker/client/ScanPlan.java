package dev.cryptoworker.client;

import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;

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
 * @param searchesIndex whether the server scan selects its rows through the search index (then
 *     every region is asked in parallel, and the limit applies on the client)
 */
record ScanPlan(Scan serverScan, Filter residualFilter, PlainRowRange rowRange, int limit, String clientSideReason,
    boolean skipUndecodable, boolean searchesIndex) {

  /** This plan with the residual filter replaced. */
  ScanPlan withResidualFilter(Filter residual) {
    return new ScanPlan(serverScan, residual, rowRange, limit, clientSideReason, skipUndecodable, searchesIndex);
  }

  boolean evaluatesOnClient() {
    return clientSideReason != null;
  }
}
