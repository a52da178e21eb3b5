package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a macro benchmark's results as {@code NAME.md} and {@code NAME.csv} and shows them. */
final class ResultFiles {
  private ResultFiles() {}

  /** Writes both files into {@code outDir} (created if missing), prints the table and where they went. */
  static void write(Path outDir, String name, CharSequence md, CharSequence csv, PrintStream out) throws IOException {
    Files.createDirectories(outDir);
    Path mdFile = outDir.resolve(name + ".md");
    Path csvFile = outDir.resolve(name + ".csv");
    Files.writeString(mdFile, md, StandardCharsets.UTF_8);
    Files.writeString(csvFile, csv, StandardCharsets.UTF_8);
    out.println();
    out.print(md);
    out.printf("%nWrote:%n  %s%n  %s%n", mdFile.toAbsolutePath(), csvFile.toAbsolutePath());
  }
}
