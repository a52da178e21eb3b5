package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JFR recordings of the HBase server JVMs during one load, started and dumped with the JDK's
 * {@code jcmd} (the servers are separate processes, so the benchmark's own {@code Recording} cannot
 * reach them). Profiling settings: method samples every 10-20 ms per running thread.
 */
final class ServerRecordings {
  private static final String NAME = "cryptoworker-load";
  private final List<Long> pids;

  private ServerRecordings(List<Long> pids) {
    this.pids = List.copyOf(pids);
  }

  /** Starts a recording in every JVM of {@code pids}. */
  static ServerRecordings start(List<Long> pids) throws IOException {
    ServerRecordings r = new ServerRecordings(pids);
    for (long pid : pids) {
      r.jcmd(pid, "JFR.start", "name=" + NAME, "settings=profile");
    }
    return r;
  }

  /** Stops every recording, writing each to {@code dir} as {@code prefix-PID.jfr}; returns the files. */
  List<Path> stop(Path dir, String prefix) throws IOException {
    List<Path> files = new ArrayList<>();
    for (long pid : pids) {
      Path file = dir.resolve(prefix + "-" + pid + ".jfr").toAbsolutePath();
      jcmd(pid, "JFR.stop", "name=" + NAME, "filename=" + file);
      files.add(file);
    }
    return files;
  }

  private void jcmd(long pid, String... command) throws IOException {
    List<String> args = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid)));
    args.addAll(List.of(command));
    Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
    try {
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || output.contains("Could not")) {
        throw new IOException("jcmd " + String.join(" ", command) + " failed for process " + pid + ": " + output.trim());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for jcmd");
    }
  }
}
