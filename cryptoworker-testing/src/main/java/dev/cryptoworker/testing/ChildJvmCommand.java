package dev.cryptoworker.testing;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of the command line of a test's child JVM (a client killed mid-write, a command run in
 * its own process, a documented example): this JVM's {@code java}, the JDK packages HBase's client
 * and Netty reach into, and the compiler and collector of the test JVMs. Children live seconds:
 * C1 alone and the serial collector spend less of the 2 cores than C2's compiles and G1's threads.
 */
public final class ChildJvmCommand {
  private ChildJvmCommand() {}

  /** {@code java} and its JVM options; the caller adds its own options, then the class path and main class. */
  public static List<String> java() {
    return new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
        "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true"));
  }
}
