package dev.cryptoworker.mapreduce;

import dev.cryptoworker.client.SecureTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.mapreduce.TableOutputCommitter;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Writes a job's output into a secure table: each {@link Put} or {@link Delete} goes through
 * {@link SecureTable}, encrypted per schema, in batches of {@value #DEFAULT_BATCH} (setting {@value
 * #BATCH_SIZE}). Keys of the output are ignored, as in HBase's {@code TableOutputFormat}. Set up
 * with {@link SecureJob#setOutput}; the table must exist.
 *
 * @param <K> the job's output key type (ignored)
 */
public final class SecureTableOutputFormat<K> extends OutputFormat<K, Mutation> {
  /** Mutations a task sends in one batch. */
  public static final String BATCH_SIZE = "cryptoworker.output.batch";
  static final int DEFAULT_BATCH = 1000;

  @Override
  public RecordWriter<K, Mutation> getRecordWriter(TaskAttemptContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    TaskConnection connection = TaskConnection.open(conf, SecureJob.credentials(context));
    try {
      return new SecureTableRecordWriter<>(connection, connection.table(conf, SecureJob.OUTPUT_TABLE),
          conf.getInt(BATCH_SIZE, DEFAULT_BATCH));
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    try (TaskConnection connection = TaskConnection.open(conf, SecureJob.credentials(context));
        SecureTable table = connection.table(conf, SecureJob.OUTPUT_TABLE);
        Admin admin = connection.admin()) {
      if (!admin.tableExists(table.getName())) {
        throw new IOException("output table " + table.getName() + " does not exist: create it with"
            + " SecureConnection.createTable before running the job");
      }
    }
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new TableOutputCommitter();
  }

  /** Buffers mutations and sends them in order: puts and deletes never overtake one another. */
  private static final class SecureTableRecordWriter<K> extends RecordWriter<K, Mutation> {
    private final TaskConnection connection;
    private final SecureTable table;
    private final int batch;
    private final List<Put> puts = new ArrayList<>();
    private final List<Delete> deletes = new ArrayList<>();

    SecureTableRecordWriter(TaskConnection connection, SecureTable table, int batch) {
      this.connection = connection;
      this.table = table;
      this.batch = batch;
    }

    @Override
    public void write(K key, Mutation mutation) throws IOException {
      if (mutation instanceof Put) {
        if (!deletes.isEmpty()) {
          flush();
        }
        puts.add((Put) mutation);
      } else if (mutation instanceof Delete) {
        if (!puts.isEmpty()) {
          flush();
        }
        deletes.add((Delete) mutation);
      } else {
        throw new IllegalArgumentException("SecureTableOutputFormat writes Put and Delete, not "
            + (mutation == null ? "null" : mutation.getClass().getSimpleName()));
      }
      if (puts.size() + deletes.size() >= batch) {
        flush();
      }
    }

    private void flush() throws IOException {
      if (!puts.isEmpty()) {
        table.put(puts);
        puts.clear();
      }
      if (!deletes.isEmpty()) {
        table.delete(deletes);
        deletes.clear();
      }
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException {
      try {
        flush();
      } finally {
        try {
          table.close();
        } finally {
          connection.close();
        }
      }
    }
  }
}
