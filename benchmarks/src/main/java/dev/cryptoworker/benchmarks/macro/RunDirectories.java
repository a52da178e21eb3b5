package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Where a benchmark run writes by default: a new {@code benchmarks/runs/<yyyyMMdd-HHmmss>/}, so a
 * default run never overwrites the committed results in {@code benchmarks/results/}.
 */
final class RunDirectories {
  private static final DateTimeFormatter RUN_NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

  private RunDirectories() {}

  /** A new directory {@code runs/<yyyyMMdd-HHmmss>} for a run started at {@code start} ({@code -2}, ... appended if taken). */
  static Path newRunDirectory(Path runs, LocalDateTime start) throws IOException {
    Files.createDirectories(runs);
    String name = RUN_NAME.format(start);
    for (int n = 1; ; n++) {
      try {
        return Files.createDirectory(runs.resolve(n == 1 ? name : name + "-" + n));
      } catch (FileAlreadyExistsException e) {
        // another run started in the same second: take the next name
      }
    }
  }

  /** A new run directory under {@link BenchOptions#RUNS_DIRECTORY}, started now. */
  static Path newRunDirectory() throws IOException {
    return newRunDirectory(Path.of(BenchOptions.RUNS_DIRECTORY), LocalDateTime.now());
  }

  /** Deletes a run's scratch directory (its HBase data) with everything in it. */
  static void deleteScratch(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
