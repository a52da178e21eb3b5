package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

/** Loads rows into a table in batches of 2,000 puts from one thread, and times it. */
final class BatchLoader {
  private static final int BATCH = 2000;

  private BatchLoader() {}

  /** Puts rows {@code 0..rows-1} made by {@code row}; returns rows per second (and prints it). */
  static double load(Table table, int rows, IntFunction<Put> row, PrintStream out) throws IOException {
    long t0 = System.nanoTime();
    List<Put> batch = new ArrayList<>(BATCH);
    for (int i = 0; i < rows; i++) {
      batch.add(row.apply(i));
      if (batch.size() == BATCH || i == rows - 1) {
        table.put(batch);
        batch.clear();
      }
    }
    double rate = rows / ((System.nanoTime() - t0) / 1e9);
    out.printf(Locale.ROOT, "loaded %,d rows into %s: %,.0f rows/s%n", rows, table.getName(), rate);
    return rate;
  }
}
