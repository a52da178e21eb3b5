package dev.cryptoworker.embedded;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
  private static final String CLASSPATH_RESOURCE = "dev/cryptoworker/embedded/server-classpath.txt";
  private static final String SERVER_MAIN = "dev.cryptoworker.embedded.server.EmbeddedHBaseServer";
  private static final String JDK_FLAGS =
      "--add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED"
          + " --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED"
          + " --add-opens java.base/jdk.internal.ref=ALL-UNNAMED"
          + " --add-exports java.base/jdk.internal.misc=ALL-UNNAMED"
          + " -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true";

  private final Process process;
  private final OutputStream commands;
  private final BlockingQueue<String> replies;
  private final String zookeeperQuorum;
  private final int zookeeperPort;
  private final Path logFile;

  private EmbeddedHBase(Process process, String quorum, int port, Path logFile,
      BlockingQueue<String> replies) {
    this.process = process;
    this.replies = replies;
    this.commands = process.getOutputStream();
    this.zookeeperQuorum = quorum;
    this.zookeeperPort = port;
    this.logFile = logFile;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** ZooKeeper quorum for {@code hbase.zookeeper.quorum}. */
  public String zookeeperQuorum() {
    return zookeeperQuorum;
  }

  /** ZooKeeper client port for {@code hbase.zookeeper.property.clientPort}. */
  public int zookeeperPort() {
    return zookeeperPort;
  }

  /** The child's process id. */
  public long pid() {
    return process.pid();
  }

  /** The file the child logs to (warnings and errors). */
  public Path logFile() {
    return logFile;
  }

  /**
   * Crashes region server {@code index} (0-based) without a graceful close, as a killed process
   * would; the master reassigns its regions and replays its write-ahead log.
   */
  public void abortRegionServer(int index) throws IOException {
    command("abort-regionserver " + index);
  }

  /** Starts one more region server and waits until it is online. */
  public void startRegionServer() throws IOException {
    command("start-regionserver");
  }

  private synchronized void command(String command) throws IOException {
    commands.write((command + "\n").getBytes(StandardCharsets.US_ASCII));
    commands.flush();
    String reply;
    try {
      reply = replies.poll(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the embedded HBase");
    }
    if (reply == null || !reply.equals("OK")) {
      throw new IOException("embedded HBase refused '" + command + "': " + (reply == null ? "no answer" : reply));
    }
  }

  /** Stops the cluster (flushing nothing: the WAL keeps acknowledged writes) and waits for exit. */
  @Override
  public void close() {
    try {
      commands.write("stop\n".getBytes(StandardCharsets.US_ASCII));
      commands.flush();
      commands.close();
    } catch (IOException e) {
      // The child is gone already.
    }
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Options of the embedded cluster. */
  public static final class Builder {
    private Path dataDir;
    private int regionServers = 1;
    private String maxHeap = "768m";
    private final List<Path> extraClasspath = new ArrayList<>();
    private long startTimeoutSeconds = 180;

    private Builder() {}

    /** Where HBase keeps its files (created if missing); data survives a restart. Required. */
    public Builder dataDir(Path dir) {
      this.dataDir = dir;
      return this;
    }

    /** Number of region servers (default 1). */
    public Builder regionServers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("at least one region server is needed: " + n);
      }
      this.regionServers = n;
      return this;
    }

    /** Maximum heap of the child JVM, as for {@code -Xmx} (default 768m). */
    public Builder maxHeap(String heap) {
      this.maxHeap = heap;
      return this;
    }

    /** Adds a jar or directory to the region servers' classpath (coprocessors). */
    public Builder addClasspath(Path entry) {
      extraClasspath.add(entry);
      return this;
    }

    public Builder startTimeoutSeconds(long seconds) {
      this.startTimeoutSeconds = seconds;
      return this;
    }

    /**
     * Starts the child JVM and waits until the master is initialised.
     *
     * @throws IOException if the child fails to start; the message holds the end of its log
     */
    public EmbeddedHBase start() throws IOException {
      if (dataDir == null) {
        throw new IllegalStateException("dataDir is required");
      }
      Files.createDirectories(dataDir);
      Path log = dataDir.resolve("hbase.log").toAbsolutePath();
      List<String> command = new ArrayList<>();
      command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx" + maxHeap);
      command.add("-XX:+UseSerialGC");
      command.add("-XX:TieredStopAtLevel=1");
      command.addAll(List.of(JDK_FLAGS.split(" ")));
      command.add("-Djava.io.tmpdir=" + dataDir.resolve("tmp").toAbsolutePath());
      command.add("-Dlog4j.configuration=dev/cryptoworker/embedded/log4j.properties");
      command.add("-Dcryptoworker.hbase.log=" + log);
      command.add("-cp");
      command.add(serverClasspath());
      command.add(SERVER_MAIN);
      command.add(dataDir.toAbsolutePath().toString());
      command.add(Integer.toString(regionServers));
      Files.createDirectories(dataDir.resolve("tmp"));

      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.PIPE)
              .start();
      CompletableFuture<String> ready = new CompletableFuture<>();
      BlockingQueue<String> replies = new LinkedBlockingQueue<>();
      Thread pump = new Thread(() -> pump(process.getInputStream(), ready, replies, log), "embedded-hbase-output");
      pump.setDaemon(true);
      pump.start();
      String line;
      try {
        line = ready.get(startTimeoutSeconds, TimeUnit.SECONDS);
      } catch (TimeoutException | ExecutionException | InterruptedException e) {
        process.destroyForcibly();
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new IOException(
            "embedded HBase did not start within " + startTimeoutSeconds + " s; end of " + log
                + ":\n" + tail(log),
            e);
      }
      String[] parts = line.split(" ");
      return new EmbeddedHBase(process, parts[1], Integer.parseInt(parts[2]), log, replies);
    }

    private String serverClasspath() throws IOException {
      List<String> entries = new ArrayList<>();
      entries.add(ownLocation().toString());
      for (Path p : extraClasspath) {
        entries.add(p.toAbsolutePath().toString());
      }
      try (InputStream in = EmbeddedHBase.class.getClassLoader().getResourceAsStream(CLASSPATH_RESOURCE)) {
        if (in == null) {
          throw new IOException(
              CLASSPATH_RESOURCE + " is missing: build the embedded-hbase module with Maven first");
        }
        for (Path p : ServerClasspath.resolve(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
          entries.add(p.toString());
        }
      }
      return String.join(File.pathSeparator, entries);
    }
  }

  private static Path ownLocation() {
    try {
      return Paths.get(EmbeddedHBase.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Copies the child's output to the log file and completes {@code ready} on the READY line. */
  private static void pump(InputStream in, CompletableFuture<String> ready,
      BlockingQueue<String> replies, Path log) {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("READY ")) {
          ready.complete(line);
        } else if (line.equals("OK") || line.startsWith("ERR ")) {
          replies.add(line);
        } else {
          Files.writeString(
              log, line + System.lineSeparator(), StandardCharsets.UTF_8,
              StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
      }
    } catch (IOException e) {
      // Child gone; fall through.
    } finally {
      ready.completeExceptionally(new IOException("embedded HBase exited before it was ready"));
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
