package dev.cryptoworker.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Starts a real HBase (HBase's own ZooKeeper, master and region servers) in a child JVM and stops
 * it on {@link #close()}.
 *
 * <p>This class uses only the JDK: a client JVM (shaded HBase client plus Tink) can put this jar
 * on its classpath with all transitive dependencies excluded. The child JVM runs the non-shaded
 * HBase server classpath recorded at build time, the way a production region server does.
 *
 * <pre>
 * try (EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(dir).start()) {
 *   conf.set("hbase.zookeeper.quorum", hbase.zookeeperQuorum());
 *   conf.setInt("hbase.zookeeper.property.clientPort", hbase.zookeeperPort());
 * }
 * </pre>
 */
public final class EmbeddedHBase implements AutoCloseable {
  private static final String SERVER_MAIN = "dev.cryptoworker.embedded.server.EmbeddedHBaseServer";
  /** The launcher's setting for {@link Builder#clockOffset} (milliseconds), read by the server main. */
  private static final String CLOCK_OFFSET_SETTING = "cryptoworker.embedded.clock.offset.ms";

  private final ChildJvm child;
  private final String zookeeperQuorum;
  private final int zookeeperPort;

  private EmbeddedHBase(ChildJvm child) {
    this.child = child;
    String[] ready = child.ready();
    this.zookeeperQuorum = ready[0];
    this.zookeeperPort = Integer.parseInt(ready[1]);
  }

  public static Builder builder() {
    return new Builder();
  }

  public String zookeeperQuorum() {
    return zookeeperQuorum;
  }

  public int zookeeperPort() {
    return zookeeperPort;
  }

  /** The child JVM's process id. */
  public long pid() {
    return child.pid();
  }

  /** The child's log (warnings and errors of HBase). */
  public Path logFile() {
    return child.log();
  }

  /**
   * Crashes region server {@code index} (0-based) without a graceful close, as a killed process
   * would; the master reassigns its regions and replays its write-ahead log.
   */
  public void abortRegionServer(int index) throws IOException {
    child.command("abort-regionserver " + index, 120);
  }

  /** Starts one more region server and waits until it is online. */
  public void startRegionServer() throws IOException {
    child.command("start-regionserver", 120);
  }

  /** Stops the cluster (flushing nothing: the WAL keeps acknowledged writes) and waits for exit. */
  @Override
  public void close() {
    child.stop(60);
  }

  /** Options of the embedded cluster: one region server and 768m of heap unless told otherwise. */
  public static final class Builder extends ClusterBuilder<Builder> {
    private Builder() {
      super(1, "768m");
    }

    private final java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();

    @Override
    Builder self() {
      return this;
    }

    /**
     * Sets an HBase configuration key on the servers (for example {@code hfile.block.cache.size}),
     * after CryptoWorker's own settings.
     */
    public Builder setting(String key, String value) {
      if (key.isBlank() || key.contains("=")) {
        throw new IllegalArgumentException("not a configuration key: '" + key + "'");
      }
      settings.put(key, value);
      return this;
    }

    /**
     * Runs the servers' clock {@code offset} ahead of the machine's (behind if negative): HBase
     * stamps cells, delete markers and its own bookkeeping through {@code EnvironmentEdgeManager},
     * into which the launcher injects the offset before the servers start. For tests of clients
     * whose clock disagrees with the cluster's. ZooKeeper and the JVM keep the machine's clock.
     */
    public Builder clockOffset(java.time.Duration offset) {
      settings.put(CLOCK_OFFSET_SETTING, Long.toString(offset.toMillis()));
      return this;
    }

    /**
     * Starts the child JVM and waits until the master is initialised.
     *
     * @throws IOException if the child fails to start; the message holds the end of its log
     */
    public EmbeddedHBase start() throws IOException {
      Path dir = requireDataDir();
      Files.createDirectories(dir);
      List<String> args = new java.util.ArrayList<>(List.of(dir.toString(), Integer.toString(regionServers)));
      settings.forEach((k, v) -> args.add(k + "=" + v));
      return new EmbeddedHBase(ChildJvm.start("embedded HBase", SERVER_MAIN, args, dir, dir.resolve("hbase.log"),
          maxHeap, extraClasspath, fullJit, startTimeoutSeconds));
    }
  }
}
