package dev.cryptoworker.kek.kms;

import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeysetFiles;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The MiniKMS of {@link MiniKmsServer} in a child JVM, for tests whose own classpath cannot host it:
 * {@code hbase-shaded-client} carries Hadoop 2.10's classes unrelocated, and the MiniKMS needs
 * Hadoop 3's. The child runs on this module's test classpath, recorded at build time; this class
 * uses no Hadoop class, so it loads beside either Hadoop.
 */
public final class MiniKmsProcess implements AutoCloseable {
  /** The key every user may generate and decrypt data keys with. */
  public static final String KEY = "cryptoworker-kek";
  static final String READY = "READY ";
  static final String DECRYPTS = "decrypts";
  private static final String CLASSPATH = "dev/cryptoworker/kek/kms/minikms-classpath.txt";
  private static final long START_SECONDS = 120;

  private final Process process;
  private final PrintWriter commands;
  private final BufferedReader replies;
  private final String providerUri;
  private final Path log;

  private MiniKmsProcess(Process process, BufferedReader replies, String providerUri, Path log) {
    this.process = process;
    this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.US_ASCII);
    this.replies = replies;
    this.providerUri = providerUri;
    this.log = log;
  }

  /**
   * Starts a MiniKMS whose configuration, key store and log ({@code minikms.log}) live under {@code
   * dir}, and waits until it serves.
   */
  public static MiniKmsProcess start(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("tmp"));
    Path log = dir.resolve("minikms.log");
    // java.lang is opened for the KMS's JAXB, which defines classes through ClassLoader.defineClass.
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "-Djava.io.tmpdir=" + dir.resolve("tmp").toAbsolutePath(), "-cp", classpath(),
        MiniKmsServer.class.getName(), dir.resolve("conf").toAbsolutePath().toString()));
    Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> reply(out, READY));
    try {
      String uri = ready.get(START_SECONDS, TimeUnit.SECONDS);
      if (uri != null) {
        return new MiniKmsProcess(process, out, uri, log);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // reported below
    }
    process.destroyForcibly();
    throw new IOException("the MiniKMS did not start within " + START_SECONDS + " s; see " + log + ":\n"
        + Files.readString(log));
  }

  /** The next line of {@code out} that starts with {@code prefix}, without it; null at its end. */
  private static String reply(BufferedReader out, String prefix) {
    try {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(prefix)) {
          return line.substring(prefix.length());
        }
      }
      return null;
    } catch (IOException e) {
      return null;
    }
  }

  /** {@code kms://http@localhost:PORT/kms}. */
  public String providerUri() {
    return providerUri;
  }

  /** The key-encryption key URI of {@code key} on this KMS. */
  public String kekUri(String key) {
    return providerUri + "#" + key;
  }

  /** Writes a new keyset file under {@link #KEY} through this KMS; returns that key's URI. */
  public String generateKeyset(Path keyset) throws IOException, GeneralSecurityException {
    String uri = kekUri(KEY);
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromUri(uri));
    return uri;
  }

  /** The number of data keys the KMS has decrypted, read from the KMS's own metrics. */
  public long decryptCalls() throws IOException {
    commands.println(DECRYPTS);
    String count = reply(replies, DECRYPTS + " ");
    if (count == null) {
      throw new IOException("the MiniKMS ended; see " + log);
    }
    return Long.parseLong(count);
  }

  /** Closes the child's input, upon which it stops, and waits for it. */
  @Override
  public void close() {
    commands.close();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String classpath() throws IOException {
    List<String> entries = new ArrayList<>();
    try {
      entries.add(Path.of(MiniKmsProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    try (InputStream in = MiniKmsProcess.class.getClassLoader().getResourceAsStream(CLASSPATH)) {
      if (in == null) {
        throw new IOException(CLASSPATH + " is missing: build kek-hadoop-kms with Maven first");
      }
      entries.add(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
    }
    return String.join(File.pathSeparator, entries);
  }
}
