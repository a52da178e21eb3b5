package dev.cryptoworker.benchmarks.macro;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
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
  private Optional<ProcessHandle> server = Optional.empty();

  void watchServer(long pid) {
    server = ProcessHandle.of(pid);
  }

  Usage now() {
    long serverNanos = server.flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(-1L);
    return new Usage(os.getProcessCpuTime(), serverNanos);
  }
}
