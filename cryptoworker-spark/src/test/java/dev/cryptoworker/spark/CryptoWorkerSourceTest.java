package dev.cryptoworker.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data source in Spark local mode against the shared HBase: every query returns what Spark
 * returns over the same rows held in plain memory, the pushed parts show in the plan, writes store
 * no plaintext, and bad keys, options and columns fail on the driver, naming what is wrong.
 */
@ExtendWith(SharedHBaseCluster.class)
class CryptoWorkerSourceTest {
  private static final String SCHEMA = """
      table: TABLE
      rowKey: { box: PLAIN, type: string }
      families:
        f:
          default: { box: STD }
          columns:
            city: { box: DET, type: string }
            email: { box: SSE, type: string }
            age: { box: OPE, type: long }
            amount: { box: ASHE, type: long }
            note: { box: STD, type: string }
            tag: { box: PLAIN, type: string }
            visits: { box: PLAIN, type: long }
      """;
  private static final byte[] F = Bytes.toBytes("f");
  private static final String[] CITIES = {"Porto", "Braga", "Lisboa", "Faro"};
  private static final int ROWS = 120;

  @TempDir
  static Path dir;
  private static SparkSession spark;
  /** The read table's split keys: three regions. */
  private static final byte[][] SPLITS = {Bytes.toBytes(key(40)), Bytes.toBytes(key(80))};
  private static Map<String, String> options;
  private static TableSchema schema;
  private static Dataset<Row> oracle;

  @BeforeAll
  static void fillTable(Connection hbase, Configuration conf) throws Exception {
    spark = LocalSpark.session();
    schema = schemaFile("spark_read");
    options = options(conf, schema, keyset("keys.json", "kek.txt"), "kek.txt");
    List<Row> plain = new ArrayList<>();
    try (SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys("keys.json", "kek.txt"))
        .schema(schema).build()) {
      secure.createTable(schema, SPLITS);
      try (Table table = secure.getTable(TableName.valueOf(schema.tableName()))) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          // Some rows lack the group column: with the measure (33) and without (multiples of 20).
          String city = i % 20 == 0 || i == 33 ? null : CITIES[i % CITIES.length];
          long age = 18 + (i * 7) % 60;
          long amount = i * 13L - 700;
          String email = "user" + (i % 30) + "@example.org";
          Put put = new Put(Bytes.toBytes(key(i))).addColumn(F, Bytes.toBytes("email"), Bytes.toBytes(email))
              .addColumn(F, Bytes.toBytes("age"), Bytes.toBytes(age))
              .addColumn(F, Bytes.toBytes("note"), Bytes.toBytes("note " + i))
              .addColumn(F, Bytes.toBytes("tag"), Bytes.toBytes(i % 2 == 0 ? "even" : "odd"))
              .addColumn(F, Bytes.toBytes("visits"), Bytes.toBytes((long) (i % 11 - 5)));
          if (city != null) {
            put.addColumn(F, Bytes.toBytes("city"), Bytes.toBytes(city));
          }
          Long stored = i % 10 == 0 ? null : amount; // some rows lack the measure
          if (stored != null) {
            put.addColumn(F, Bytes.toBytes("amount"), Bytes.toBytes(amount));
          }
          puts.add(put);
          plain.add(RowFactory.create(key(i), city, email, age, stored, "note " + i, i % 2 == 0 ? "even" : "odd",
              (long) (i % 11 - 5)));
        }
        table.put(puts);
      }
    }
    StructType sparkSchema = read(options).schema();
    oracle = spark.createDataFrame(plain, sparkSchema);
  }

  @Test
  void theSchemaComesFromTheYamlTypes() {
    assertEquals("struct<rowkey:string,city:string,email:string,age:bigint,amount:bigint,note:string,tag:string,visits:bigint>",
        read(options).schema().simpleString().replace("not null", ""));
  }

  @Test
  void queriesReturnWhatTheyReturnOverPlainRows() {
    String[] queries = {
        "SELECT * FROM t",
        "SELECT rowkey, note FROM t WHERE city = 'Porto'",
        "SELECT rowkey FROM t WHERE email = 'user7@example.org'",
        "SELECT rowkey, age FROM t WHERE age >= 30 AND age < 50",
        "SELECT rowkey FROM t WHERE rowkey >= 'p000050' AND rowkey < 'p000070'",
        "SELECT rowkey FROM t WHERE rowkey = 'p000033'",
        "SELECT rowkey FROM t WHERE city = 'Porto' OR city = 'Faro'",
        "SELECT rowkey FROM t WHERE city IN ('Braga', 'Lisboa') AND tag = 'even'",
        "SELECT rowkey FROM t WHERE note LIKE 'note 1%'",
        "SELECT rowkey FROM t WHERE amount > 0",
        "SELECT rowkey, visits FROM t WHERE visits > -2 AND visits <= 3",
        "SELECT rowkey FROM t WHERE visits = -4",
        "SELECT city, SUM(amount), COUNT(amount), AVG(amount) FROM t GROUP BY city",
        "SELECT city, SUM(amount), COUNT(amount) FROM t WHERE rowkey >= 'p000040' AND rowkey < 'p000080' GROUP BY city",
        "SELECT city, COUNT(amount) FROM t WHERE city <> 'Porto' GROUP BY city",
        "SELECT SUM(amount), COUNT(amount) FROM t WHERE age > 40",
        "SELECT COUNT(*) FROM t WHERE tag = 'odd'",
        "SELECT COUNT(*) FROM t",
        "SELECT COUNT(*) FROM t WHERE city = 'Porto'",
        "SELECT COUNT(*) FROM t WHERE email = 'user7@example.org'",
        "SELECT COUNT(*), COUNT(amount) FROM t WHERE email = 'user7@example.org'",
        "SELECT SUM(amount), SUM(visits), COUNT(amount), AVG(visits), COUNT(*) FROM t",
        "SELECT city, tag, SUM(amount), COUNT(amount), COUNT(*) FROM t GROUP BY city, tag",
        "SELECT tag, city, SUM(visits), AVG(amount) FROM t WHERE age > 30 GROUP BY tag, city",
        "SELECT city, SUM(amount) FROM t GROUP BY city",
        "SELECT tag, SUM(amount), COUNT(amount) FROM t WHERE rowkey = 'p000010' GROUP BY tag", // no amount: SUM null
        "SELECT city, COUNT(*) FROM t WHERE rowkey < 'p000041' GROUP BY city",
        "SELECT city, note, SUM(amount) FROM t GROUP BY city, note",
        "SELECT city, SUM(amount), SUM(age), COUNT(*) FROM t GROUP BY city",
    };
    for (String query : queries) {
      assertEquals(rows(query, oracle), rows(query, read(options)), query);
    }
  }

  /**
   * A search through the SSE index asks every region at once and returns only matching rows, so it
   * runs as one Spark partition; a scan runs as one partition per region.
   */
  @Test
  void indexSearchesRunAsOnePartitionAndScansAsOnePerRegion() {
    read(options).createOrReplaceTempView("t");
    String search = "SELECT rowkey FROM t WHERE email = 'user7@example.org'";
    assertEquals(1, spark.sql(search).rdd().getNumPartitions(), search);
    String scan = "SELECT rowkey FROM t WHERE city = 'Porto'";
    assertEquals(SPLITS.length + 1, spark.sql(scan).rdd().getNumPartitions(), scan);
  }

  @Test
  void explainShowsWhatTheRegionServersAnswer() {
    assertPushed("SELECT rowkey FROM t WHERE city = 'Porto'", "filter SingleColumnValueFilter", "EqualTo(city,Porto)");
    assertPushed("SELECT rowkey FROM t WHERE email = 'user7@example.org'", "SSE index search in every region", "EqualTo(email,");
    assertPushed("SELECT rowkey FROM t WHERE age >= 30 AND age < 50", "GreaterThanOrEqual(age,30)", "LessThan(age,50)");
    assertPushed("SELECT rowkey FROM t WHERE rowkey >= 'p000050' AND rowkey < 'p000070'", "scan of a stored key range",
        "GreaterThanOrEqual(rowkey,p000050)");
    assertPushed("SELECT rowkey FROM t WHERE city = 'Porto' OR city = 'Faro'", "filter OR(", "Or(");
    assertPushed("SELECT city, SUM(amount) FROM t GROUP BY city", "SUM/COUNT of amount by city",
        "each region adds the measure and counts the rows per stored group value, rows lacking a group column in a"
            + " null group, in one pass");
    assertPushed("SELECT COUNT(*) FROM t", "COUNT(*): ", "each region counts the rows in one pass");
    assertPushed("SELECT COUNT(*) FROM t WHERE city = 'Porto'", "COUNT(*): ", "each region counts the rows",
        "EqualTo(city,Porto)");
    assertPushed("SELECT SUM(amount), AVG(visits) FROM t", "SUM/COUNT of amount, visits: ", "adds 2 measures");
    assertPushed("SELECT city, tag, SUM(amount), COUNT(*) FROM t GROUP BY city, tag",
        "SUM/COUNT of amount and COUNT(*) by city, tag: ", "per stored group value tuple");
    // A STD column cannot group on the servers: Spark groups after decryption, and the plan says so.
    String byNote = explain("SELECT city, note, SUM(amount) FROM t GROUP BY city, note");
    assertFalse(byNote.contains("SUM/COUNT of"), byNote);
    assertTrue(byNote.contains("columns [city, amount, note]"), byNote);
    // Nor can an OPE measure be added there: the whole aggregate, its ASHE sum included, runs in Spark.
    String opeSum = explain("SELECT city, SUM(amount), SUM(age) FROM t GROUP BY city");
    assertFalse(opeSum.contains("SUM/COUNT of"), opeSum);
    assertTrue(opeSum.contains("columns [city, age, amount]"), opeSum);
    // Spark adds IsNotNull(city) beside the equality; the equality implies it, so the sum goes too.
    assertPushed("SELECT SUM(amount) FROM t WHERE city = 'Porto'", "SUM/COUNT of amount: ",
        "IsNotNull(city)", "EqualTo(city,Porto)");
    // Column pruning: only the asked column (and the row key) is read.
    String pruned = explain("SELECT note FROM t");
    assertTrue(pruned.contains("columns [note]"), pruned);
    // Not on ciphertext: a range on STD text and a LIKE stay in Spark, after decryption.
    String inSpark = explain("SELECT rowkey FROM t WHERE note > 'note 5'");
    assertTrue(inSpark.contains("PushedFilters: []"), inSpark);
    // PLAIN numbers are stored big-endian, negative after positive: their ranges stay in Spark too.
    String plainRange = explain("SELECT rowkey FROM t WHERE visits > -2");
    assertTrue(plainRange.contains("PushedFilters: []"), plainRange);
    assertPushed("SELECT rowkey FROM t WHERE visits = -4", "EqualTo(visits,-4)");
  }

  @Test
  void rowKeysAnswerRangesOnOrderPreservingCiphertextAndEqualityOnDeterministic(Connection hbase, Configuration conf)
      throws Exception {
    for (String box : new String[] {"OPE", "DET"}) {
      String yaml = "table: TABLE\nrowKey: { box: " + box + ", type: long }\nfamilies:\n  f:\n    default: { box: STD }\n"
          + "    columns:\n      name: { box: STD, type: string }\n";
      TableSchema keyed = schemaFile("spark_keys_" + box.toLowerCase(java.util.Locale.ROOT), yaml);
      List<Row> plain = new ArrayList<>();
      try (SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys("keys.json", "kek.txt"))
          .schema(keyed).build()) {
        secure.createTable(keyed);
        try (Table table = secure.getTable(TableName.valueOf(keyed.tableName()))) {
          for (long k = -20; k < 20; k++) {
            table.put(new Put(Bytes.toBytes(k)).addColumn(F, Bytes.toBytes("name"), Bytes.toBytes("n" + k)));
            plain.add(RowFactory.create(k, "n" + k));
          }
        }
      }
      Map<String, String> keyedOptions = options(conf, keyed, dir.resolve("keys.json"), "kek.txt");
      Dataset<Row> expected = spark.createDataFrame(plain, read(keyedOptions).schema());
      String range = "SELECT rowkey, name FROM t WHERE rowkey >= -5 AND rowkey < 7";
      String point = "SELECT name FROM t WHERE rowkey = -3";
      for (String query : new String[] {range, point}) {
        assertEquals(rows(query, expected), rows(query, read(keyedOptions)), box + ": " + query);
      }
      read(keyedOptions).createOrReplaceTempView("t");
      assertTrue(plan(point).contains("PushedFilters: [EqualTo(rowkey,-3)"), box + ": " + plan(point));
      String rangePlan = plan(range);
      assertEquals(box.equals("OPE"), rangePlan.contains("scan of a stored key range"), box + ": " + rangePlan);
    }
  }

  @Test
  void aggregatesGroupedByASplasheDimensionBesideADetColumnArePushed(Connection hbase, Configuration conf)
      throws Exception {
    String yaml = "table: TABLE\nrowKey: { box: PLAIN, type: string }\nfamilies:\n  f:\n    default: { box: STD }\n"
        + "    columns:\n      salary: { box: ASHE, type: long }\n"
        + "      gender: { box: SPLASHE, values: [F, M, X], splays: [salary] }\n      dept: { box: DET, type: string }\n";
    TableSchema splashe = schemaFile("spark_splashe", yaml);
    Map<String, String> splasheOptions = options(conf, splashe, dir.resolve("keys.json"), "kek.txt");
    StructType sparkSchema = read(splasheOptions).schema();
    List<Row> plain = new ArrayList<>();
    try (SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys("keys.json", "kek.txt"))
        .schema(splashe).build()) {
      secure.createTable(splashe, new byte[][] {Bytes.toBytes(key(30))});
      try (Table table = secure.getTable(TableName.valueOf(splashe.tableName()))) {
        for (int i = 0; i < 60; i++) {
          // Rows lacking the dimension (and so its measure), and rows lacking the DET column.
          String gender = i % 7 == 0 ? null : new String[] {"F", "F", "M", "X"}[i % 4];
          String dept = i % 5 == 0 ? null : i % 3 == 0 ? "cardiology" : "oncology";
          Long salary = gender == null ? null : 1000L + i * 37;
          Put put = new Put(Bytes.toBytes(key(i)));
          Map<String, Object> values = new HashMap<>(Map.of("rowkey", key(i)));
          if (gender != null) {
            put.addColumn(F, Bytes.toBytes("gender"), Bytes.toBytes(gender))
                .addColumn(F, Bytes.toBytes("salary"), Bytes.toBytes(salary));
            values.put("gender", gender);
            values.put("salary", salary);
          }
          if (dept != null) {
            put.addColumn(F, Bytes.toBytes("dept"), Bytes.toBytes(dept));
            values.put("dept", dept);
          }
          table.put(put.addColumn(F, Bytes.toBytes("visit"), Bytes.toBytes("v" + i)));
          plain.add(RowFactory.create(java.util.Arrays.stream(sparkSchema.fieldNames()).map(values::get).toArray()));
        }
      }
    }
    Dataset<Row> expected = spark.createDataFrame(plain, sparkSchema);
    String[] queries = {
        "SELECT dept, gender, SUM(salary), COUNT(salary), COUNT(*) FROM t GROUP BY dept, gender",
        "SELECT gender, AVG(salary), COUNT(*) FROM t GROUP BY gender",
    };
    for (String query : queries) {
      assertEquals(rows(query, expected), rows(query, read(splasheOptions)), query);
      read(splasheOptions).createOrReplaceTempView("t");
      String plan = plan(query);
      assertTrue(plan.contains("presplit by the dimension's values"), query + ":\n" + plan);
    }
  }

  @Test
  void appendsStoreNoPlaintextAndReadBack(Connection hbase, Configuration conf) throws Exception {
    appendAndCheck(hbase, conf, Map.of());
  }

  @Test
  void bulkAppendsStoreNoPlaintextAndReadBack(Connection hbase, Configuration conf) throws Exception {
    Path staging = dir.resolve("staging");
    int hfiles = appendAndCheck(hbase, conf, Map.of("write", "bulk", "staging", staging.toUri().toString()));
    assertTrue(hfiles > 0, "no bulk-loaded file in the regions");
    try (java.util.stream.Stream<Path> left = Files.list(staging)) {
      assertEquals(List.of(), left.toList(), "left in the staging directory");
    }
  }

  /**
   * Appends 30 rows with {@code writeOptions}, reads them back and checks no raw cell holds their
   * plaintext; returns how many of the table's store files were bulk-loaded.
   */
  private static int appendAndCheck(Connection hbase, Configuration conf, Map<String, String> writeOptions)
      throws Exception {
    TableSchema written = schemaFile("spark_write");
    try (SecureConnection secure = SecureConnection.builder().connection(hbase).keys(keys("keys.json", "kek.txt"))
        .schema(written).build()) {
      secure.createTable(written);
    }
    Map<String, String> options = new HashMap<>(options(conf, written, dir.resolve("keys.json"), "kek.txt"));
    options.putAll(writeOptions);
    Dataset<Row> rows = oracle.where("rowkey < 'p000030'");
    rows.write().format("cryptoworker").options(options).mode("append").save();

    assertEquals(rows("SELECT * FROM t", rows), rows("SELECT * FROM t", read(options)));
    String search = "SELECT rowkey FROM t WHERE email = 'user7@example.org'"; // through the SSE index
    assertEquals(rows(search, rows), rows(search, read(options)));
    List<String> needles = new ArrayList<>();
    for (Row r : rows.collectAsList()) {
      for (int column : new int[] {1, 2, 5}) {
        if (!r.isNullAt(column)) {
          needles.add(r.getString(column));
        }
      }
    }
    int cells = 0;
    try (Table raw = hbase.getTable(TableName.valueOf(written.tableName()));
        ResultScanner s = raw.getScanner(new Scan())) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          cells++;
          String value = new String(CellUtil.cloneValue(c), StandardCharsets.ISO_8859_1);
          String qualifier = new String(CellUtil.cloneQualifier(c), StandardCharsets.ISO_8859_1);
          for (String needle : needles) {
            assertFalse(value.contains(needle) || qualifier.contains(needle), "plaintext '" + needle + "' stored");
          }
        }
      }
    }
    assertTrue(cells >= 30 * 5, "stored cells: " + cells);
    int bulkLoaded = 0;
    try (Admin admin = hbase.getAdmin()) {
      for (ServerName server : admin.getRegionServers()) {
        for (RegionMetrics region : admin.getRegionMetrics(server, TableName.valueOf(written.tableName()))) {
          bulkLoaded += region.getStoreFileCount(); // the appends are not flushed: only loaded files count
        }
      }
    }
    return bulkLoaded;
  }

  @Test
  void aWrongKeyFailsWithTheKeyMismatchMessage(Configuration conf) throws Exception {
    Map<String, String> wrong = options(conf, schema, keyset("other-keys.json", "other-kek.txt"), "other-kek.txt");
    Exception e = assertThrows(Exception.class, () -> read(wrong).collectAsList());
    Throwable cause = e;
    while (cause != null && !(cause instanceof KeyMismatchException)) {
      cause = cause.getCause();
    }
    assertTrue(cause != null, "no KeyMismatchException behind " + e);
    assertTrue(e.getMessage().contains(cause.getMessage()), e.getMessage());
  }

  @Test
  void unknownOptionsAndColumnsFailOnTheDriverNamingThem() throws Exception {
    TaskCount tasks = new TaskCount();
    spark.sparkContext().addSparkListener(tasks);
    try {
      Map<String, String> misspelt = new HashMap<>(options);
      misspelt.put("keyste", "keys.json");
      IllegalArgumentException option = assertThrows(IllegalArgumentException.class, () -> read(misspelt));
      assertTrue(option.getMessage().contains("option keyste"), option.getMessage());

      Exception column = assertThrows(Exception.class, () -> read(options).select("colour").collectAsList());
      assertTrue(column.getMessage().contains("colour"), column.getMessage());

      Dataset<Row> extra = oracle.limit(1).withColumn("colour", org.apache.spark.sql.functions.lit("red"));
      Exception write = assertThrows(Exception.class,
          () -> extra.write().format("cryptoworker").options(options).mode("append").save());
      assertTrue(write.getMessage().contains("colour"), write.getMessage());

      spark.sparkContext().listenerBus().waitUntilEmpty();
      assertEquals(0, tasks.started.get(), "tasks started before the refusals");
      read(options).count(); // the counter does count a read's tasks
      spark.sparkContext().listenerBus().waitUntilEmpty();
      assertTrue(tasks.started.get() > 0, "no task counted for a read");
    } finally {
      spark.sparkContext().removeSparkListener(tasks);
    }
  }

  /** Counts the tasks Spark starts while it listens. */
  private static final class TaskCount extends org.apache.spark.scheduler.SparkListener {
    final java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public void onTaskStart(org.apache.spark.scheduler.SparkListenerTaskStart taskStart) {
      started.incrementAndGet();
    }
  }

  @Test
  void theSparkConfSuppliesOptionsTheReaderLacks() {
    Map<String, String> fromConf = new HashMap<>(options);
    fromConf.remove("schema");
    fromConf.forEach((k, v) -> spark.conf().set(SourceOptions.SPARK_CONF_PREFIX + k, v));
    try {
      Dataset<Row> t = spark.read().format("cryptoworker").option("schema", options.get("schema")).load();
      assertEquals(ROWS, t.count());
    } finally {
      fromConf.keySet().forEach(k -> spark.conf().unset(SourceOptions.SPARK_CONF_PREFIX + k));
    }
  }

  // ---- helpers

  private static void assertPushed(String query, String... expected) {
    String plan = explain(query);
    for (String e : expected) {
      assertTrue(plan.contains(e), "'" + e + "' missing from the plan of " + query + ":\n" + plan);
    }
  }

  private static String explain(String query) {
    read(options).createOrReplaceTempView("t");
    return plan(query);
  }

  /** Spark's physical plan of {@code query} over view t as it stands. */
  private static String plan(String query) {
    return spark.sql(query).queryExecution().executedPlan().toString();
  }

  /** The rows {@code query} returns over {@code table} (as view t), sorted, as text. */
  private static List<String> rows(String query, Dataset<Row> table) {
    table.createOrReplaceTempView("t");
    return spark.sql(query).collectAsList().stream().map(Row::toString).sorted().toList();
  }

  private static Dataset<Row> read(Map<String, String> options) {
    DataFrameReader reader = spark.read().format("cryptoworker");
    options.forEach(reader::option);
    return reader.load();
  }

  private static String key(int i) {
    return String.format("p%06d", i);
  }

  private static TableSchema schemaFile(String prefix) throws Exception {
    return schemaFile(prefix, SCHEMA);
  }

  /** {@code yaml} (table TABLE) under a unique table name, in a schema file of the temporary folder. */
  private static TableSchema schemaFile(String prefix, String yaml) throws Exception {
    String name = SharedHBaseCluster.uniqueTableName(prefix).getNameAsString();
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, yaml.replace("table: TABLE", "table: " + name));
    return TableSchema.load(file);
  }

  private static Path keyset(String keyset, String kek) throws Exception {
    Files.writeString(dir.resolve(kek), KeyEncryptionKey.generateBase64());
    Path file = dir.resolve(keyset);
    KeysetFiles.generate(file, KeyEncryptionKey.fromFile(dir.resolve(kek)));
    return file;
  }

  private static KeyProvider keys(String keyset, String kek) throws Exception {
    return KeyProvider.fromKeysetFile(dir.resolve(keyset), KeyEncryptionKey.fromFile(dir.resolve(kek)));
  }

  private static Map<String, String> options(Configuration conf, TableSchema schema, Path keyset, String kek) {
    return Map.of("schema", dir.resolve(schema.tableName() + ".yaml").toString(), "keyset", keyset.toString(),
        "kek", "file:" + dir.resolve(kek), "quorum", conf.get("hbase.zookeeper.quorum"),
        "hbase.zookeeper.property.clientPort", conf.get("hbase.zookeeper.property.clientPort"));
  }
}
