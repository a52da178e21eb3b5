package dev.cryptoworker.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An append: each task encrypts its rows into Puts and sends them through the client's buffered
 * mutator, flushed when the task commits. Null values write no cell; a null row key fails the task.
 * Rows already flushed by a task that later fails stay written (HBase has no transaction across
 * rows): rerunning the same append writes the same cells again.
 */
final class ProtectedWrite implements Write, BatchWrite, DataWriterFactory {
  private static final long serialVersionUID = 1L;

  private final SourceOptions options;
  private final List<SparkColumns.Column> written;

  ProtectedWrite(SourceOptions options, SparkColumns columns, StructType input) {
    this.options = options;
    this.written = new ArrayList<>();
    for (StructField f : input.fields()) {
      written.add(columns.named(f.name()).orElseThrow(() -> new IllegalArgumentException("cryptoworker data source:"
          + " table " + options.schema().tableName() + " has no column " + f.name())));
    }
    if (written.stream().noneMatch(SparkColumns.Column::isRowKey)) {
      throw new IllegalArgumentException("cryptoworker data source: a write to table " + options.schema().tableName()
          + " needs column " + SparkColumns.ROW_KEY);
    }
  }

  @Override
  public BatchWrite toBatch() {
    return this;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return this;
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    // each task flushed its own rows
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    // nothing to undo: see the class comment
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    try {
      return new RowWriter(TableConnections.connection(options).getBufferedMutator(TableConnections.name(options)));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A task's answer: its rows are flushed. */
  private record Flushed() implements WriterCommitMessage {}

  /** One task's rows, through one buffered mutator. */
  private final class RowWriter implements DataWriter<InternalRow> {
    private final BufferedMutator mutator;

    RowWriter(BufferedMutator mutator) {
      this.mutator = mutator;
    }

    @Override
    public void write(InternalRow row) throws IOException {
      Put put = null;
      List<Object[]> cells = new ArrayList<>();
      for (int i = 0; i < written.size(); i++) {
        SparkColumns.Column c = written.get(i);
        if (row.isNullAt(i)) {
          if (c.isRowKey()) {
            throw new IllegalArgumentException("cryptoworker data source: a row for table "
                + options.schema().tableName() + " has a null " + SparkColumns.ROW_KEY);
          }
          continue;
        }
        byte[] value = c.toBytes(row.get(i, c.sparkType()));
        if (c.isRowKey()) {
          put = new Put(value);
        } else {
          cells.add(new Object[] {c, value});
        }
      }
      for (Object[] cell : cells) {
        SparkColumns.Column c = (SparkColumns.Column) cell[0];
        put.addColumn(c.familyBytes(), c.qualifierBytes(), (byte[]) cell[1]);
      }
      if (!put.isEmpty()) {
        mutator.mutate(put);
      }
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
      mutator.flush();
      return new Flushed();
    }

    @Override
    public void abort() throws IOException {
      mutator.close();
    }

    @Override
    public void close() throws IOException {
      mutator.close();
    }
  }
}
