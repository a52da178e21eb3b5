package dev.cryptoworker.layout.shared;

import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;

/**
 * Tells a cluster that cannot be reached (refused or lost connections, timeouts, exhausted
 * retries) from one that answered and refused the request (an oversized cell, a missing table: a
 * {@link DoNotRetryIOException}, or a check the client made before sending). Only the first is an
 * outage: one bad value is refused alike by every cluster, and must not mark them all down.
 */
final class ClusterFailure {
  private ClusterFailure() {}

  /** Whether {@code failure} of a call to a cluster means the cluster is unreachable. */
  static boolean isOutage(Throwable failure) {
    if (failure instanceof RetriesExhaustedWithDetailsException batch && batch.getNumExceptions() > 0) {
      // A batch: the cluster is reachable if every action it failed was refused.
      for (Throwable cause : batch.getCauses()) {
        if (isOutage(cause)) {
          return true;
        }
      }
      return false;
    }
    return !(failure instanceof DoNotRetryIOException || failure instanceof RuntimeException);
  }
}
