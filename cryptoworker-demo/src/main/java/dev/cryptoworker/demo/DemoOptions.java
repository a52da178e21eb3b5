package dev.cryptoworker.demo;

import java.nio.file.Path;

/** Command-line options of the demo ({@code --name=value}; empty values mean "not given"). */
record DemoOptions(int patients, String zookeeper, String hbaseSite, boolean dropExisting, Path dataDir) {

  static DemoOptions parse(String[] args) {
    int patients = 3000;
    String zookeeper = "";
    String hbaseSite = "";
    boolean drop = false;
    Path dataDir = Path.of("target", "demo-hbase");
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got " + arg + "\n" + usage());
      }
      String name = arg.substring(2, eq);
      String value = arg.substring(eq + 1).strip();
      switch (name) {
        case "patients":
          patients = Integer.parseInt(value);
          if (patients < 10) {
            throw new IllegalArgumentException("--patients must be at least 10");
          }
          break;
        case "zookeeper":
          zookeeper = value;
          break;
        case "hbase-site":
          hbaseSite = value;
          break;
        case "drop-existing":
          drop = Boolean.parseBoolean(value);
          break;
        case "data-dir":
          dataDir = Path.of(value);
          break;
        default:
          throw new IllegalArgumentException("unknown option --" + name + "\n" + usage());
      }
    }
    return new DemoOptions(patients, zookeeper, hbaseSite, drop, dataDir);
  }

  boolean embedded() {
    return zookeeper.isEmpty() && hbaseSite.isEmpty();
  }

  static String usage() {
    return "options: --patients=N (3000) --zookeeper=host:port | --hbase-site=path (default: embedded HBase)"
        + " --drop-existing=true|false (false) --data-dir=path (embedded HBase files)";
  }
}
