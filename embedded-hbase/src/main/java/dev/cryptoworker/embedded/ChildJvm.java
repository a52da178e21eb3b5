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
 * One child JVM on the recorded HBase server classpath, speaking the line protocol of the server
 * mains: it prints {@code READY ...} once up, answers commands on standard input with {@code OK} or
 * {@code ERR reason}, and stops on {@code stop} or at the end of its input (its parent died).
 * Everything else it prints goes to its log file.
 */
final class ChildJvm {
  private static final String CLASSPATH_RESOURCE = "dev/cryptoworker/embedded/server-classpath.txt";
  private static final String JDK_FLAGS =
      "--add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED"
          + " --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED"
          + " --add-opens java.base/jdk.internal.ref=ALL-UNNAMED"
          + " --add-exports java.base/jdk.internal.misc=ALL-UNNAMED"
          + " -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true";

  private final Process process;
  private final OutputStream commands;
  private final BlockingQueue<String> replies;
  private final String readyLine;
  private final Path log;

  private ChildJvm(Process process, String readyLine, BlockingQueue<String> replies, Path log) {
    this.process = process;
    this.commands = process.getOutputStream();
    this.readyLine = readyLine;
    this.replies = replies;
    this.log = log;
  }

  /**
   * Starts {@code main} with {@code args} and waits for its {@code READY} line.
   *
   * @param workDir the child's temporary directory lives here
   * @param extraClasspath entries put before the recorded server classpath (coprocessor jars,
   *     configuration directories)
   * @param fullJit whether the JVM runs the full tiered JIT (C2) as production servers do, rather
   *     than C1 only, which starts faster and suits short test runs
   * @throws IOException if it does not get ready in time; the message holds the end of its log
   */
  static ChildJvm start(String name, String main, List<String> args, Path workDir, Path log, String maxHeap,
      List<Path> extraClasspath, boolean fullJit, long timeoutSeconds) throws IOException {
    Files.createDirectories(workDir.resolve("tmp"));
    Files.createDirectories(log.toAbsolutePath().getParent());
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + maxHeap);
    command.add("-XX:+UseSerialGC");
    if (!fullJit) {
      command.add("-XX:TieredStopAtLevel=1");
    }
    command.addAll(List.of(JDK_FLAGS.split(" ")));
    command.add("-Djava.io.tmpdir=" + workDir.resolve("tmp").toAbsolutePath());
    command.add("-Dlog4j.configuration=dev/cryptoworker/embedded/log4j.properties");
    command.add("-Dcryptoworker.hbase.log=" + log.toAbsolutePath());
    command.add("-cp");
    command.add(serverClasspath(extraClasspath));
    command.add(main);
    command.addAll(args);
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.PIPE).start();
    CompletableFuture<String> ready = new CompletableFuture<>();
    BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    Thread pump = new Thread(() -> pump(process.getInputStream(), ready, replies, log), name + "-output");
    pump.setDaemon(true);
    pump.start();
    try {
      return new ChildJvm(process, ready.get(timeoutSeconds, TimeUnit.SECONDS), replies, log);
    } catch (TimeoutException | ExecutionException | InterruptedException e) {
      process.destroyForcibly();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException(name + " did not start within " + timeoutSeconds + " s; end of " + log + ":\n" + tail(log),
          e);
    }
  }

  /** The words of the {@code READY} line after {@code READY}. */
  String[] ready() {
    String[] parts = readyLine.split(" ");
    String[] out = new String[parts.length - 1];
    System.arraycopy(parts, 1, out, 0, out.length);
    return out;
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Sends one command and waits for {@code OK}. */
  synchronized void command(String command, long timeoutSeconds) throws IOException {
    commands.write((command + "\n").getBytes(StandardCharsets.US_ASCII));
    commands.flush();
    String reply;
    try {
      reply = replies.poll(timeoutSeconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for " + command);
    }
    if (reply == null || !reply.equals("OK")) {
      throw new IOException("'" + command + "' refused: " + (reply == null ? "no answer" : reply));
    }
  }

  /** Kills the process at once (SIGKILL), as a crash would. */
  void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Asks the process to stop and waits up to {@code seconds}, then kills it. */
  void stop(long seconds) {
    try {
      commands.write("stop\n".getBytes(StandardCharsets.US_ASCII));
      commands.flush();
      commands.close();
    } catch (IOException e) {
      // The child is gone already.
    }
    try {
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String serverClasspath(List<Path> extra) throws IOException {
    List<String> entries = new ArrayList<>();
    entries.add(ownLocation().toString());
    for (Path p : extra) {
      entries.add(p.toAbsolutePath().toString());
    }
    try (InputStream in = ChildJvm.class.getClassLoader().getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        throw new IOException(CLASSPATH_RESOURCE + " is missing: build the embedded-hbase module with Maven first");
      }
      for (Path p : ServerClasspath.resolve(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
        entries.add(p.toString());
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static Path ownLocation() {
    try {
      return Paths.get(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Copies the child's output to the log file and completes {@code ready} on the READY line. */
  private static void pump(InputStream in, CompletableFuture<String> ready, BlockingQueue<String> replies, Path log) {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("READY")) {
          ready.complete(line);
        } else if (line.equals("OK") || line.startsWith("ERR ")) {
          replies.add(line);
        } else {
          Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
        }
      }
    } catch (IOException e) {
      // Child gone; fall through.
    } finally {
      ready.completeExceptionally(new IOException("the process exited before it was ready"));
    }
  }

  static String tail(Path log) {
    try {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
