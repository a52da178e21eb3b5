package dev.cryptoworker.benchmarks.macro;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * CPU time spent by the client (this JVM: YCSB threads, CryptoWorker, the HBase client) and by
 * the region server's JVM, so a throughput gap can be split into where its CPU went.
 */
final class CpuClock {
  /** CPU nanoseconds of the client and the server; the server's is -1 when not measured. */
  record Usage(long clientNanos, long serverNanos) {
    static final Usage NONE = new Usage(0, 0);

    Usage minus(Usage earlier) {
      return new Usage(clientNanos - earlier.clientNanos,
          serverNanos < 0 || earlier.serverNanos < 0 ? -1 : serverNanos - earlier.serverNanos);
    }

    Usage plus(Usage other) {
      return new Usage(clientNanos + other.clientNanos,
          serverNanos < 0 || other.serverNanos < 0 ? -1 : serverNanos + other.serverNanos);
    }
  }

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private List<ProcessHandle> servers = List.of();

  /** The server's JVMs (one embedded HBase, or every process of a cluster): their CPU is summed. */
  void watchServers(List<Long> pids) {
    servers = pids.stream().map(ProcessHandle::of).flatMap(Optional::stream).toList();
  }

  /** The server's CPU is unknown (-1) unless every watched process reports it. */
  Usage now() {
    long serverNanos = servers.isEmpty() ? -1 : 0;
    for (ProcessHandle p : servers) {
      Optional<Duration> cpu = p.info().totalCpuDuration();
      if (cpu.isEmpty()) {
        serverNanos = -1;
        break;
      }
      serverNanos += cpu.get().toNanos();
    }
    return new Usage(os.getProcessCpuTime(), serverNanos);
  }
}
