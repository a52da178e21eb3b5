package dev.cryptoworker.demo;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.embedded.ProcessCluster;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.ExampleSchemas;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.synthetic.AppointmentGenerator;
import dev.cryptoworker.synthetic.Patient;
import dev.cryptoworker.synthetic.PatientGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The demo: loads synthetic patients into the Patients table (schemas/patients.yaml) through
 * SecureTable, reads some back, shows a raw stored cell beside its decrypted value, and finds a
 * patient by DET equality on {@code mainId}, evaluated by the region server on ciphertext; then
 * loads appointments (schemas/appointments.yaml) and lists one physician's appointments in a date
 * range with one server-side scan (DET equality AND OPE range).
 *
 * <p>Keys: a base64 32-byte master key from {@code CRYPTOWORKER_MASTER_KEY}, else an ephemeral
 * random one (the data is then unreadable once the demo ends).
 */
public final class PatientsDemo {
  private static final String MASTER_KEY_ENV = "CRYPTOWORKER_MASTER_KEY";
  private static final int BATCH = 500;
  private static final byte[] IDENTIFICATION = Bytes.toBytes("identification");

  private final PrintStream out = System.out;

  public static void main(String[] args) throws Exception {
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("PatientsDemo: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(DemoOptions.usage());
      return;
    }
    new PatientsDemo().run(options);
  }

  private void run(DemoOptions options) throws Exception {
    AutoCloseable cluster = null;
    try {
      Configuration conf = HBaseConfiguration.create();
      if (options.embedded() && options.processes()) {
        deleteRecursively(options.dataDir());
        out.printf("Starting HBase as separate processes (ZooKeeper, 1 master, 2 region servers) in %s ...%n",
            options.dataDir());
        long t0 = System.nanoTime();
        ProcessCluster processes = ProcessCluster.builder().dataDir(options.dataDir()).regionServers(2).start();
        cluster = processes;
        out.printf("  ready in %.1f s (ZooKeeper 127.0.0.1:%d, process ids %s, logs in %s)%n", seconds(t0),
            processes.zookeeperPort(), processes.pids(), options.dataDir().resolve("logs"));
        conf.set("hbase.zookeeper.quorum", processes.zookeeperQuorum());
        conf.setInt("hbase.zookeeper.property.clientPort", processes.zookeeperPort());
      } else if (options.embedded()) {
        deleteRecursively(options.dataDir());
        out.printf("Starting an embedded HBase (ZooKeeper, 1 master, 1 region server) in %s ...%n", options.dataDir());
        long t0 = System.nanoTime();
        EmbeddedHBase embedded = EmbeddedHBase.builder().dataDir(options.dataDir()).start();
        cluster = embedded;
        out.printf("  ready in %.1f s (ZooKeeper 127.0.0.1:%d, log %s)%n", seconds(t0), embedded.zookeeperPort(),
            embedded.logFile());
        conf.set("hbase.zookeeper.quorum", embedded.zookeeperQuorum());
        conf.setInt("hbase.zookeeper.property.clientPort", embedded.zookeeperPort());
      } else if (!options.hbaseSite().isEmpty()) {
        conf.addResource(new org.apache.hadoop.fs.Path(Path.of(options.hbaseSite()).toUri()));
        out.printf("Using the cluster of %s%n", options.hbaseSite());
      } else {
        String[] hostPort = options.zookeeper().split(":");
        conf.set("hbase.zookeeper.quorum", hostPort[0]);
        if (hostPort.length > 1) {
          conf.set("hbase.zookeeper.property.clientPort", hostPort[1]);
        }
        out.printf("Using the cluster at ZooKeeper %s%n", options.zookeeper());
      }
      try (Connection connection = ConnectionFactory.createConnection(conf)) {
        demo(connection, options);
      }
    } finally {
      if (cluster != null) {
        out.println("Stopping the HBase it started.");
        cluster.close();
      }
    }
  }

  private void demo(Connection connection, DemoOptions options) throws IOException, GeneralSecurityException {
    TableSchema schema = ExampleSchemas.patients();
    TableSchema appointmentsSchema = ExampleSchemas.appointments();
    try (SecureConnection secure = SecureConnection.wrap(connection, keys(options), List.of(schema, appointmentsSchema))) {
      demo(connection, secure, schema, appointmentsSchema, options);
    }
  }

  private void demo(Connection connection, SecureConnection secure, TableSchema schema, TableSchema appointmentsSchema,
      DemoOptions options) throws IOException {
    TableName name = TableName.valueOf(schema.tableName());
    recreate(connection, secure, schema, options);
    out.printf("Created table '%s' from %s: row key %s, mainId %s, other identification/contact/observation"
        + " fields STD, appointment ids as DET-protected qualifiers.%n", name, schema.source(),
        schema.rowKeyPolicy().box(),
        schema.family("identification").orElseThrow().policyFor("mainId").box());

    PatientGenerator generator = new PatientGenerator(2026);
    try (Table patients = secure.getTable(name)) {
      load(patients, generator, options.patients());
      readBack(patients, generator, options.patients());
      rawVersusDecrypted(connection, patients);
      equalityLookup(patients, generator.patient(options.patients() / 2));
    }
    appointments(connection, secure, appointmentsSchema, options);
  }

  private void recreate(Connection connection, SecureConnection secure, TableSchema schema, DemoOptions options)
      throws IOException {
    TableName name = TableName.valueOf(schema.tableName());
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(name)) {
        if (!options.dropExisting()) {
          throw new IllegalStateException(
              "table " + name + " already exists on this cluster; rerun with -Ddemo.dropExisting=true (or --drop-existing"
                  + " when running PatientsDemo directly) to replace it");
        }
        admin.disableTable(name);
        admin.deleteTable(name);
      }
    }
    secure.createTable(schema);
  }

  /** Appointments: DET physician, OPE date with its STD companion; one physician in a date range. */
  private void appointments(Connection connection, SecureConnection secure, TableSchema schema, DemoOptions options)
      throws IOException {
    recreate(connection, secure, schema, options);
    int count = options.patients();
    AppointmentGenerator generator = new AppointmentGenerator(2026, 50);
    TableName name = TableName.valueOf(schema.tableName());
    long t0 = System.nanoTime();
    try (Table appointments = secure.getTable(name)) {
      List<Put> batch = new ArrayList<>(BATCH);
      for (int i = 0; i < count; i++) {
        batch.add(toPut(generator.appointment(i).cells(), generator.appointment(i).rowKey()));
        if (batch.size() == BATCH || i == count - 1) {
          appointments.put(batch);
          batch.clear();
        }
      }
      out.printf("Created '%s' from %s (date: OPE with STD companion, physician: DET) and loaded %,d"
          + " appointments in %.1f s.%n", name, schema.source(), count, seconds(t0));
      String physician = AppointmentGenerator.physicianId(7);
      byte[] appointment = Bytes.toBytes("appointment");
      out.printf("All appointments of %s from 2018-01-01 to 2018-06-30 (DET equality AND OPE range,"
          + " one server-side scan on ciphertext):%n", physician);
      Scan scan = new Scan().setScanMetricsEnabled(true).setFilter(new FilterList(
          new SingleColumnValueFilter(Bytes.toBytes("physician"), Bytes.toBytes("physicianId"), CompareOperator.EQUAL,
              new BinaryComparator(Bytes.toBytes(physician))),
          new SingleColumnValueFilter(appointment, Bytes.toBytes("date"), CompareOperator.GREATER_OR_EQUAL,
              new BinaryComparator(Bytes.toBytes("2018-01-01"))),
          new SingleColumnValueFilter(appointment, Bytes.toBytes("date"), CompareOperator.LESS_OR_EQUAL,
              new BinaryComparator(Bytes.toBytes("2018-06-30T23:59:59Z")))));
      t0 = System.nanoTime();
      int found = 0;
      try (ResultScanner s = appointments.getScanner(scan)) {
        for (Result r : s) {
          found++;
          if (found <= 5) {
            out.printf("  %s  %s  %s%n", Bytes.toString(r.getRow()),
                Bytes.toString(r.getValue(appointment, Bytes.toBytes("date"))),
                Bytes.toString(r.getValue(appointment, Bytes.toBytes("type"))).strip());
          }
        }
        out.printf("  %d appointments in %.0f ms; the region server filtered out %d rows%n", found,
            seconds(t0) * 1000, s.getScanMetrics().countOfRowsFiltered.get());
      }
    }
  }

  /** The keys: the keyset under its key-encryption key URI, else a master key (see the class comment). */
  KeyProvider keys(DemoOptions options) throws IOException, GeneralSecurityException {
    if (!options.keyset().isEmpty()) {
      String kek = options.kek().isEmpty() ? "env:" + KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE : options.kek();
      out.printf("Keys: keyset %s under the key-encryption key %s.%n", options.keyset(), kek);
      return KeyProvider.fromKeysetFile(Path.of(options.keyset()), kek);
    }
    String env = System.getenv(MASTER_KEY_ENV);
    if (env != null && !env.isBlank()) {
      out.printf("Keys: derived with HKDF from the master key in %s.%n", MASTER_KEY_ENV);
      return KeyProvider.fromMasterKey(Base64.getDecoder().decode(env.strip()));
    }
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    out.printf("Keys: an ephemeral random master key (set %s to a base64 32-byte key to keep data readable).%n",
        MASTER_KEY_ENV);
    return KeyProvider.fromMasterKey(key);
  }

  private void load(Table patients, PatientGenerator generator, int count) throws IOException {
    long t0 = System.nanoTime();
    // On a terminal the progress line rewrites itself; in a log it prints every tenth.
    boolean terminal = System.console() != null;
    int step = Math.max(BATCH, count / 10 / BATCH * BATCH);
    List<Put> batch = new ArrayList<>(BATCH);
    for (int i = 0; i < count; i++) {
      batch.add(toPut(generator.patient(i)));
      if (batch.size() == BATCH || i == count - 1) {
        patients.put(batch);
        batch.clear();
        if (terminal || (i + 1) % step == 0 || i == count - 1) {
          out.printf(terminal ? "\rLoading patients through SecureTable: %,d / %,d (%.0f rows/s)"
              : "Loading patients through SecureTable: %,d / %,d (%.0f rows/s)%n", i + 1, count, (i + 1) / seconds(t0));
        }
      }
    }
    out.printf((terminal ? "%n" : "") + "Loaded %,d patients in %.1f s.%n", count, seconds(t0));
  }

  static Put toPut(Patient p) {
    return toPut(p.cells(), p.rowKey());
  }

  static Put toPut(Map<String, Map<String, String>> cells, byte[] row) {
    Put put = new Put(row);
    for (Map.Entry<String, Map<String, String>> family : cells.entrySet()) {
      for (Map.Entry<String, String> cell : family.getValue().entrySet()) {
        put.addColumn(Bytes.toBytes(family.getKey()), Bytes.toBytes(cell.getKey()), Bytes.toBytes(cell.getValue()));
      }
    }
    return put;
  }

  private void readBack(Table patients, PatientGenerator generator, int count) throws IOException {
    out.println("Reading three patients back by row key (DET Get):");
    for (int i : new int[] {0, count / 3, count - 1}) {
      Patient expected = generator.patient(i);
      Result r = patients.get(new Get(expected.rowKey()));
      String mainId = Bytes.toString(r.getValue(IDENTIFICATION, Bytes.toBytes("mainId"))).strip();
      boolean same = mainId.equals(expected.mainId().strip());
      out.printf("  %s  %-48s %d appointments  %s%n", Bytes.toString(r.getRow()), mainId,
          r.getFamilyMap(Bytes.toBytes("appointments")).size(), same ? "ok" : "MISMATCH");
      if (!same) {
        throw new IllegalStateException("patient " + expected.id() + " did not read back as written");
      }
    }
  }

  /** The first stored row, read by a plain HBase client and by SecureTable (same stored order). */
  private void rawVersusDecrypted(Connection connection, Table patients) throws IOException {
    byte[] name = Bytes.toBytes("name");
    Scan first = new Scan().addColumn(IDENTIFICATION, name).setLimit(1);
    Result stored;
    try (Table raw = connection.getTable(patients.getName()); ResultScanner s = raw.getScanner(first)) {
      stored = s.next();
    }
    Result decoded;
    try (ResultScanner s = patients.getScanner(first)) {
      decoded = s.next();
    }
    byte[] storedValue = stored.getValue(IDENTIFICATION, name);
    out.println("The first stored row as a plain HBase client sees it, and as SecureTable returns it:");
    out.printf("  stored row key       : %s%n", abbreviate(Bytes.toStringBinary(stored.getRow())));
    out.printf("  stored name (STD)    : %s (%d bytes)%n", abbreviate(Bytes.toStringBinary(storedValue)),
        storedValue.length);
    out.printf("  decrypted row, name  : %s, '%s'%n", Bytes.toString(decoded.getRow()),
        Bytes.toString(decoded.getValue(IDENTIFICATION, name)).strip());
  }

  private void equalityLookup(Table patients, Patient target) throws IOException {
    out.printf("Finding a patient by mainId = '%s' (DET equality, evaluated by the region server on ciphertext):%n",
        target.mainId().strip());
    long t0 = System.nanoTime();
    Scan scan = new Scan().setFilter(new SingleColumnValueFilter(IDENTIFICATION, Bytes.toBytes("mainId"),
        CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes(target.mainId()))));
    List<String> found = new ArrayList<>();
    try (ResultScanner s = patients.getScanner(scan)) {
      for (Result r : s) {
        found.add(Bytes.toString(r.getRow()));
      }
    }
    out.printf("  found %s in %.0f ms (expected %s)%n", found, seconds(t0) * 1000, target.id());
    if (!found.contains(target.id())) {
      throw new IllegalStateException("equality lookup did not find " + target.id());
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 72 ? s : s.substring(0, 72) + "...";
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
