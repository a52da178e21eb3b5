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
 */
record ScanPlan(Scan serverScan, Filter residualFilter, PlainRowRange rowRange, int limit, String clientSideReason,
    boolean skipUndecodable) {

  boolean evaluatesOnClient() {
    return clientSideReason != null;
  }
}
