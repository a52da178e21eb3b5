package dev.cryptoworker.mapreduce;

import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.spi.LayoutCapability;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableSplit;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a secure table in MapReduce: one split per region of the stored table (HBase's {@link
 * TableSplit}, located at the region's server), each read through {@link
 * SecureTable#getScanner(Scan, byte[], byte[])}, so mappers get logical row keys and decrypted
 * {@link Result}s. Set up with {@link SecureJob#setInput}.
 */
public final class SecureTableInputFormat extends InputFormat<ImmutableBytesWritable, Result> {
  private static final Logger LOG = LoggerFactory.getLogger(SecureTableInputFormat.class);

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    try (TaskConnection connection = TaskConnection.open(conf, SecureJob.credentials(context));
        SecureTable table = connection.table(conf, SecureJob.INPUT_TABLE);
        RegionLocator regions = table.getRegionLocator()) {
      // Refused scans (say, a filter only the client could evaluate, not opted in) fail the job here,
      // at submission, with the reason, rather than in every task.
      table.requireCapability(LayoutCapability.STORED_RANGE_SCANS, "a MapReduce input (one split per region)");
      Scan scan = SecureJob.inputScan(SecureJob.credentials(context));
      LOG.debug("Table {}: {}", table.getName(), table.explain(scan));
      List<InputSplit> splits = new ArrayList<>();
      for (HRegionLocation region : regions.getAllRegionLocations()) {
        // Without the scan: a split is written to the job's files; tasks take the scan from the credentials.
        splits.add(new TableSplit(table.getName(), region.getRegion().getStartKey(), region.getRegion().getEndKey(),
            region.getHostname()));
      }
      return splits;
    }
  }

  @Override
  public RecordReader<ImmutableBytesWritable, Result> createRecordReader(InputSplit split, TaskAttemptContext context) {
    return new SecureTableRecordReader();
  }

  /** The decrypted rows of one split. */
  private static final class SecureTableRecordReader extends RecordReader<ImmutableBytesWritable, Result> {
    private TaskConnection connection;
    private SecureTable table;
    private SecureResultScanner scanner;
    private final ImmutableBytesWritable key = new ImmutableBytesWritable();
    private Result value;
    private boolean done;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      Configuration conf = context.getConfiguration();
      TableSplit region = (TableSplit) split;
      connection = TaskConnection.open(conf, SecureJob.credentials(context));
      table = connection.table(conf, SecureJob.INPUT_TABLE);
      scanner = table.getScanner(SecureJob.inputScan(SecureJob.credentials(context)), region.getStartRow(),
          region.getEndRow());
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      value = done ? null : scanner.next();
      if (value == null) {
        done = true;
        return false;
      }
      key.set(value.getRow());
      return true;
    }

    @Override
    public ImmutableBytesWritable getCurrentKey() {
      return key;
    }

    @Override
    public Result getCurrentValue() {
      return value;
    }

    /** Unknown: stored keys are ciphertext, so the position in the region says nothing. */
    @Override
    public float getProgress() {
      return done ? 1f : 0f;
    }

    @Override
    public void close() throws IOException {
      // Scanner, table, then connection; the connection closes even if the others fail.
      try {
        if (scanner != null) {
          scanner.close();
        }
        if (table != null) {
          table.close();
        }
      } finally {
        if (connection != null) {
          connection.close();
        }
      }
    }
  }
}
