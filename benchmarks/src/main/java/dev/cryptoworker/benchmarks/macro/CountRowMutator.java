package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A control's mutator: each row goes to its table, and one blind 28-byte-keyed, 8-byte cell per row
 * goes to a second table (the counter table), as stored format 6's writer lanes write one count cell
 * per distinct value, but without SSE's crypto, lanes or waiting. What one more row per write costs
 * the region servers, whoever writes it.
 */
final class CountRowMutator implements BufferedMutator {
  private static final byte[] QUALIFIER = Bytes.toBytes("sse");
  private final BufferedMutator rows;
  private final BufferedMutator counts;
  private final byte[] family;

  CountRowMutator(BufferedMutator rows, BufferedMutator counts, byte[] family) {
    this.rows = rows;
    this.counts = counts;
    this.family = family;
  }

  private Put countOf(Mutation m) {
    byte[] name = Arrays.copyOf(PaddedRows.sha256(m.getRow()), 28);
    return new Put(name).addColumn(family, QUALIFIER, Bytes.toBytes(1L));
  }

  @Override
  public void mutate(Mutation m) throws IOException {
    rows.mutate(m);
    counts.mutate(countOf(m));
  }

  @Override
  public void mutate(List<? extends Mutation> ms) throws IOException {
    rows.mutate(ms);
    counts.mutate(ms.stream().map(this::countOf).toList());
  }

  @Override
  public void flush() throws IOException {
    counts.flush();
    rows.flush();
  }

  @Override
  public void close() throws IOException {
    // Both close (flushing what is left) even if the first fails; counts first, as flush() orders them.
    try {
      counts.close();
    } finally {
      rows.close();
    }
  }

  @Override
  public TableName getName() {
    return rows.getName();
  }

  @Override
  public Configuration getConfiguration() {
    return rows.getConfiguration();
  }
}
