package dev.cryptoworker.spark;

import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.mapreduce.SecureBulkLoad;
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
 * mutator, flushed when the task commits; or, with option {@code write} {@code bulk}, through {@link
 * SecureBulkLoad}: HFiles staged under option {@code staging} and moved into the regions, {@value
 * #BULK_ROWS_PER_LOAD} rows at a time and the rest when the task commits. Null values write no
 * cell; a null row key fails the task. Rows already flushed or loaded by a task that later fails
 * stay written (HBase has no transaction across rows): rerunning the same append writes the same
 * cells again.
 */
final class ProtectedWrite implements Write, BatchWrite, DataWriterFactory {
  private static final long serialVersionUID = 1L;
  /** Rows a bulk-writing task encrypts, sorts and loads at once (memory: they and their cells are held). */
  static final int BULK_ROWS_PER_LOAD = SecureBulkLoad.DEFAULT_ROWS_PER_ROUND;

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
    if (options.bulkWrite()) {
      // The table's layout decides whether it takes bulk loads: refused here, before any task.
      try (SecureTable table = TableConnections.table(options)) {
        table.requireCapability(LayoutCapability.BULK_LOAD, "a bulk write (option write=bulk)");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
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
      if (options.bulkWrite()) {
        org.apache.hadoop.fs.Path staging = new org.apache.hadoop.fs.Path(options.staging(),
            "task-" + partitionId + "-" + taskId);
        return new BulkWriter(TableConnections.table(options), staging);
      }
      return new RowWriter(TableConnections.connection(options).getBufferedMutator(TableConnections.name(options)));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A task's answer: its rows are flushed. */
  private record Flushed() implements WriterCommitMessage {}

  /** {@code row} as the Put of its non-null values (empty when only the row key is set). */
  private Put put(InternalRow row) {
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
    return put;
  }

  /** One task's rows, through one buffered mutator. */
  private final class RowWriter implements DataWriter<InternalRow> {
    private final BufferedMutator mutator;

    RowWriter(BufferedMutator mutator) {
      this.mutator = mutator;
    }

    @Override
    public void write(InternalRow row) throws IOException {
      Put put = put(row);
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

  /**
   * One task's rows, bulk-loaded {@value #BULK_ROWS_PER_LOAD} at a time and the rest at commit, by
   * one thread (the task's core; Spark runs one task per core).
   */
  private final class BulkWriter implements DataWriter<InternalRow> {
    private final SecureTable table;
    private final org.apache.hadoop.fs.Path staging;
    private final SecureBulkLoad load;
    private final List<Put> pending = new ArrayList<>();

    BulkWriter(SecureTable table, org.apache.hadoop.fs.Path staging) throws IOException {
      this.table = table;
      this.staging = staging;
      this.load = SecureBulkLoad.into(table, staging).threads(1).rowsPerRound(BULK_ROWS_PER_LOAD);
    }

    @Override
    public void write(InternalRow row) throws IOException {
      Put put = put(row);
      if (!put.isEmpty()) {
        pending.add(put);
      }
      if (pending.size() == BULK_ROWS_PER_LOAD) {
        loadPending();
      }
    }

    private void loadPending() throws IOException {
      load.load(pending.iterator());
      pending.clear();
    }

    @Override
    public WriterCommitMessage commit() throws IOException {
      loadPending();
      return new Flushed();
    }

    @Override
    public void abort() {
      pending.clear();
    }

    @Override
    public void close() throws IOException {
      try (table) {
        staging.getFileSystem(table.getConfiguration()).delete(staging, true); // each load removed its own files
      }
    }
  }
}
