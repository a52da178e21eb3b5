package dev.cryptoworker.benchmarks.macro;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import one.profiler.AsyncProfilerLoader;

/**
 * CPU profiles of JVMs during one load (the HBase servers', the benchmark's own), taken with
 * async-profiler (attached to each process by {@code ap-loader}'s bundled {@code asprof}): a sample
 * every millisecond of CPU of every thread, the garbage collectors' and JIT compilers' included,
 * which JFR's method samples miss (they had a thousand samples per load). Written as collapsed
 * stacks, one line per stack. Event {@code cpu} (perf events) where the kernel allows it, else
 * {@code itimer}.
 */
final class CpuProfiles {
  private final List<Long> pids;

  private CpuProfiles(List<Long> pids) {
    this.pids = List.copyOf(pids);
  }

  /** Starts a profile in every JVM of {@code pids}. */
  static CpuProfiles start(List<Long> pids) throws IOException {
    if (!AsyncProfilerLoader.isSupported()) {
      throw new IOException("--profile: async-profiler has no build for this platform (" + System.getProperty("os.name")
          + " " + System.getProperty("os.arch") + ")");
    }
    CpuProfiles r = new CpuProfiles(pids);
    for (long pid : pids) {
      r.asprof(pid, "start", "-e", "cpu", "-i", "1ms", Long.toString(pid));
    }
    return r;
  }

  /** Stops every profile, writing each to {@code dir} as {@code prefix-PID.collapsed}; returns the files. */
  List<Path> stop(Path dir, String prefix) throws IOException {
    List<Path> files = new ArrayList<>();
    for (long pid : pids) {
      Path file = dir.resolve(prefix + "-" + pid + ".collapsed").toAbsolutePath();
      asprof(pid, "stop", "-o", "collapsed", "-f", file.toString(), Long.toString(pid));
      files.add(file);
    }
    return files;
  }

  private void asprof(long pid, String... args) throws IOException {
    AsyncProfilerLoader.ExecutionResult r = AsyncProfilerLoader.executeProfiler(args);
    if (r.getStderr().contains("[ERROR]")) {
      throw new IOException("asprof " + String.join(" ", args) + " failed for process " + pid + ": "
          + r.getStderr().trim());
    }
  }
}
