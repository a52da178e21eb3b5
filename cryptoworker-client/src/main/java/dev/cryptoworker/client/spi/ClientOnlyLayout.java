package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.AggregateGroup;
import dev.cryptoworker.client.AggregateQuery;
import dev.cryptoworker.client.AggregateResult;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import java.io.IOException;
import java.util.List;
import java.util.NavigableMap;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.coprocessor.Batch;

/**
 * A layout whose servers only keep what they store (shares, packs) and can compute nothing on it:
 * what needs the servers or HBase's per-cell paths (aggregates, bulk loads, stored-range scans,
 * appends, increments) is refused by name unless the layout overrides it, batches run one
 * operation at a time, and exists is a get.
 */
public abstract class ClientOnlyLayout implements StorageLayout {
  public final TableCodec codec;
  private final String layout;
  private final String noServerWork;
  private final String noStoredRanges;
  private final String noBulkLoads;
  private final String noReadModifyWrite;

  /**
   * @param layout the layout's name in messages ({@code SHARED})
   * @param noServerWork why region servers cannot aggregate
   * @param noStoredRanges why stored-range scans (MapReduce splits) are refused
   * @param noBulkLoads why bulk loads are refused (null for a layout that overrides {@link #encodeForBulkLoad})
   * @param noReadModifyWrite why appends and increments are refused
   */
  public ClientOnlyLayout(TableCodec codec, String layout, String noServerWork, String noStoredRanges, String noBulkLoads,
      String noReadModifyWrite) {
    this.codec = codec;
    this.layout = layout;
    this.noServerWork = noServerWork;
    this.noStoredRanges = noStoredRanges;
    this.noBulkLoads = noBulkLoads;
    this.noReadModifyWrite = noReadModifyWrite;
  }

  protected UnsupportedSecureOperationException refused(String what, String why) {
    return new UnsupportedSecureOperationException(codec.table(), codec.describeRowKey(),
        what + " on a " + layout + " table: " + why);
  }

  /**
   * Whether {@code scan} has a row range, refusing one over row keys whose stored form does not
   * keep their order (DET): only a full scan finds their rows.
   */
  protected boolean checkRowRange(Scan scan) throws UnsupportedSecureOperationException {
    boolean ranged = scan.getStartRow().length > 0 || scan.getStopRow().length > 0;
    if (ranged && !codec.rowKeysKeepOrder()) {
      throw new UnsupportedSecureOperationException(codec.table(), codec.describeRowKey(),
          "row ranges need row keys that keep their order when stored (PLAIN or OPE); scan the whole table");
    }
    return ranged;
  }

  @Override
  public boolean[] exists(List<Get> gets) throws IOException {
    Result[] results = get(gets);
    boolean[] out = new boolean[results.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = !results[i].isEmpty();
    }
    return out;
  }

  @Override
  public <R> void batch(List<? extends Row> actions, Object[] results, Batch.Callback<R> callback)
      throws IOException {
    OneByOneBatch.run(this, codec.table(), layout, actions, results, callback);
  }

  @Override
  public SecureResultScanner getScanner(Scan scan, byte[] storedStartRow, byte[] storedStopRow) throws IOException {
    throw refused("scans of a stored-key range (MapReduce splits)", noStoredRanges);
  }

  @Override
  public BulkLoadBatch encodeForBulkLoad(List<Put> puts) throws IOException {
    throw refused("bulk loads", noBulkLoads);
  }

  @Override
  public Result append(Append append) throws IOException {
    throw refused("append", noReadModifyWrite);
  }

  @Override
  public Result increment(Increment increment) throws IOException {
    throw refused("increment", noReadModifyWrite);
  }

  @Override
  public QueryPlan plan(Scan scan, AggregateQuery query) throws IOException {
    throw refused("aggregate", noServerWork + "; scan and sum on the client");
  }

  @Override
  public List<AggregateGroup> aggregateRange(Scan scan, AggregateQuery query, byte[] storedStartRow,
      byte[] storedStopRow) throws IOException {
    throw refused("aggregate", noServerWork + "; scan and sum on the client");
  }

  @Override
  public AggregateResult aggregate(Scan scan, byte[] family, byte[] qualifier) throws IOException {
    throw refused("aggregate", noServerWork + "; scan and sum on the client");
  }

  @Override
  public NavigableMap<byte[], AggregateResult> aggregateBy(
      Scan scan, byte[] family, byte[] qualifier, byte[] groupFamily, byte[] groupQualifier) throws IOException {
    throw refused("aggregateBy", noServerWork + "; scan and sum on the client");
  }
}
