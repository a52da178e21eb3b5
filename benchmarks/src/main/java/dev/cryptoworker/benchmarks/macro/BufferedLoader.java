package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.IntFunction;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Put;

/**
 * Loads rows through a {@link BufferedMutator} (HBase's own for plain tables, {@code
 * SecureConnection}'s for protected ones) from one thread, the way applications load at volume,
 * and times it up to the last flush.
 */
final class BufferedLoader {
  private BufferedLoader() {}

  /** Writes rows {@code 0..rows-1} made by {@code row} and closes {@code mutator}; returns rows per second. */
  static double load(BufferedMutator mutator, int rows, IntFunction<Put> row, PrintStream out) throws IOException {
    long t0 = System.nanoTime();
    try (mutator) {
      for (int i = 0; i < rows; i++) {
        mutator.mutate(row.apply(i));
      }
      mutator.flush();
    }
    double rate = rows / ((System.nanoTime() - t0) / 1e9);
    out.printf(Locale.ROOT, "loaded %,d rows into %s: %,.0f rows/s%n", rows, mutator.getName(), rate);
    return rate;
  }
}
