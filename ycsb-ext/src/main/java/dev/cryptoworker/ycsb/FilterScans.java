package dev.cryptoworker.ycsb;

import java.util.HashMap;
import java.util.Vector;
import org.apache.hadoop.hbase.client.Scan;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/** The extra operation of the QEF and QRF workloads: a Scan with a server-side filter. */
public interface FilterScans {
  /** Runs {@code scan} and collects its rows; {@code operation} names it for measurements (QEF, QRF). */
  Status filterScan(String table, String operation, Scan scan, Vector<HashMap<String, ByteIterator>> result);
}
