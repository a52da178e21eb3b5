package dev.cryptoworker.benchmarks.macro;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Locale;

/** What a result file records about the run: commit, JVM, machine. */
final class RunInfo {
  private RunInfo() {}

  /** {@code Commit: ... / JVM: ... / Machine: ...} lines, Markdown line breaks included. */
  static String describe() {
    return String.format(Locale.ROOT, "Commit: %s  %nJVM: %s %s  %nMachine: %d cores, %.0f GiB, %s%n", gitCommit(),
        System.getProperty("java.vm.name"), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
        ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize()
            / 1073741824.0,
        LocalDate.now());
  }

  private static String gitCommit() {
    String env = System.getenv("GIT_COMMIT");
    if (env != null) {
      return env;
    }
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 ? s : "unknown";
    } catch (IOException | InterruptedException e) {
      return "unknown";
    }
  }
}
