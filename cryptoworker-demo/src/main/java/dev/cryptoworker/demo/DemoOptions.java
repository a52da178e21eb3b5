package dev.cryptoworker.demo;

import java.nio.file.Path;
import java.util.List;

/**
 * Command-line options of the demo ({@code --name=value}; empty values mean "not given"). Through
 * Maven they are set by properties ({@code -Ddemo.dropExisting=true}, see {@link #usage()}); run
 * directly, the class takes the options themselves.
 */
record DemoOptions(int patients, String zookeeper, String hbaseSite, boolean dropExisting, Path dataDir, boolean processes,
    String keyset, String kek, boolean help) {

  /** One line of the help: the option, the Maven property that sets it (if any), its meaning. */
  private record Help(String option, String property, String meaning) {}

  private static final List<Help> HELP = List.of(
      new Help("--patients=N", "-Ddemo.patients=N", "patients, and as many appointments, to load (3000; at least 10)"),
      new Help("--zookeeper=host:port", "-Ddemo.zookeeper=host:port", "an existing cluster's ZooKeeper (default: an embedded HBase)"),
      new Help("--hbase-site=path", "-Ddemo.hbaseSite=path", "an existing cluster's hbase-site.xml"),
      new Help("--drop-existing[=true|false]", "-Ddemo.dropExisting=true",
          "replace existing patients and appointments tables (false: refuse to touch them)"),
      new Help("--data-dir=path", "", "where the embedded HBase keeps its files (cryptoworker-demo/target/demo-hbase)"),
      new Help("--cluster=embedded|processes", "-Ddemo.cluster=processes",
          "embedded: one child JVM (default); processes: ZooKeeper, master and 2 region servers, each its own JVM"),
      new Help("--keyset=path", "-Ddemo.keyset=path",
          "a keyset file for the keys (default: the master key of CRYPTOWORKER_MASTER_KEY, or a random one)"),
      new Help("--kek=URI", "-Ddemo.kek=URI", "the keyset's key-encryption key URI (env:CRYPTOWORKER_KEK), as --kek of"
          + " cryptoworker takes it"),
      new Help("--help, -h", "-Ddemo.args=--help", "prints this help and exits"));

  static DemoOptions parse(String[] args) {
    int patients = 3000;
    String zookeeper = "";
    String hbaseSite = "";
    boolean drop = false;
    Path dataDir = Path.of("target", "demo-hbase");
    boolean processes = false;
    String keyset = "";
    String kek = "";
    for (String arg : args) {
      if (arg.isBlank()) {
        continue; // an empty -Ddemo.args
      }
      if (arg.equals("--help") || arg.equals("-h")) {
        return new DemoOptions(patients, zookeeper, hbaseSite, drop, dataDir, processes, keyset, kek, true);
      }
      int eq = arg.indexOf('=');
      if (arg.equals("--drop-existing")) {
        drop = true;
        continue;
      }
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got " + arg + "; see --help");
      }
      String name = arg.substring(2, eq);
      String value = arg.substring(eq + 1).strip();
      switch (name) {
        case "patients" -> patients = patients(value);
        case "zookeeper" -> zookeeper = value;
        case "hbase-site" -> hbaseSite = value;
        case "drop-existing" -> drop = bool(arg, value);
        case "data-dir" -> dataDir = Path.of(value);
        case "cluster" -> processes = cluster(arg, value);
        case "keyset" -> keyset = value;
        case "kek" -> kek = value;
        default -> throw new IllegalArgumentException("unknown option --" + name + "; see --help");
      }
    }
    return new DemoOptions(patients, zookeeper, hbaseSite, drop, dataDir, processes, keyset, kek, false);
  }

  private static boolean cluster(String arg, String value) {
    if (value.isEmpty() || value.equals("embedded") || value.equals("processes")) {
      return value.equals("processes");
    }
    throw new IllegalArgumentException(arg + ": must be embedded or processes; see --help");
  }

  private static int patients(String value) {
    try {
      int patients = Integer.parseInt(value);
      if (patients >= 10) {
        return patients;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("--patients=" + value + ": must be an integer of at least 10; see --help");
  }

  private static boolean bool(String arg, String value) {
    if (value.equals("true") || value.equals("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new IllegalArgumentException(arg + ": must be true or false; see --help");
  }

  boolean embedded() {
    return zookeeper.isEmpty() && hbaseSite.isEmpty();
  }

  /** Every option, with the Maven property that sets it and its meaning. */
  static String usage() {
    StringBuilder s = new StringBuilder("The demo: Patients and Appointments through SecureTable on an embedded"
        + " (or given) HBase.\nUsage: ./mvnw -q -DskipTests -pl cryptoworker-demo -am package exec:exec"
        + " [-Dproperty=value ...]\n       (or java ... dev.cryptoworker.demo.PatientsDemo [option ...])\n\n");
    for (Help h : HELP) {
      s.append(String.format("  %-29s %-28s %s%n", h.option(), h.property(), h.meaning()));
    }
    return s.toString();
  }
}
