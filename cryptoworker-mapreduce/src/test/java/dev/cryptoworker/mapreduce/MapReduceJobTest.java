package dev.cryptoworker.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Real MapReduce jobs (Hadoop's local job runner) over secure tables of several regions: a word
 * count over an STD column written to another secure table, and an input selected by equality on a
 * DET column. Keys reach the tasks as a deployment would: the keyset file's contents in the job's
 * credentials, the key-encryption key from a file on the node.
 */
@ExtendWith(SharedHBaseCluster.class)
@Isolated // Hadoop's local job runner, and the job log MapReduceFixture captures from System.err, are per JVM
class MapReduceJobTest {
  private static final byte[] INFO = Bytes.toBytes("info");
  private static final byte[] CITY = Bytes.toBytes("city");
  private static final byte[] NOTES = Bytes.toBytes("notes");
  private static final byte[] COUNT = Bytes.toBytes("count");
  private static final String[] WORDS = {"fever", "cough", "rash", "headache", "nausea", "fatigue"};
  private static final String[] CITIES = {"Lisboa", "Porto", "Braga"};
  private static final int ROWS = 400;

  private static final String VISITS = """
      table: TABLE
      rowKey: { box: DET }
      families:
        info:
          default: { box: STD, type: string }
          columns:
            city: { box: DET, type: string }
      """;
  private static final String COUNTS = """
      table: TABLE
      rowKey: { box: DET }
      families:
        c:
          default: { box: STD, type: long }
      """;

  private static Path keyset;
  private static Path kekFile;
  private static KeyProvider keys;

  @BeforeAll
  static void keys() throws Exception {
    Path dir = Files.createTempDirectory("mr-keys");
    kekFile = dir.resolve("kek");
    Files.writeString(kekFile, KeyEncryptionKey.generateBase64(), StandardCharsets.US_ASCII);
    keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(kekFile));
    keys = KeyProvider.fromKeysetFile(keyset, KeyEncryptionKey.fromFile(kekFile));
  }

  @Test
  void wordCountOverAnStdColumnWritesEncryptedCounts(Connection hbase, Configuration conf) throws Exception {
    TableSchema visits = MapReduceFixture.schema("mr_visits", VISITS);
    TableSchema counts = MapReduceFixture.schema("mr_counts", COUNTS);
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(visits, counts));
    Map<String, Long> expected = new TreeMap<>();
    loadVisits(secure, visits, expected, new TreeMap<>());
    secure.createTable(counts);

    Job job = job(conf, "word count");
    SecureJob.setInput(job, visits, new Scan().addColumn(INFO, NOTES), WordMapper.class, Text.class,
        LongWritable.class);
    job.setReducerClass(CountReducer.class);
    job.setNumReduceTasks(2);
    SecureJob.setOutput(job, counts);
    MapReduceFixture.assertCompletes(job);
    assertEquals(ROWS, job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS)
        .getValue(), "every row read once");

    Map<String, Long> got = new TreeMap<>();
    try (SecureTable table = secure.getSecureTable(name(counts)); ResultScanner s = table.getScanner(new Scan())) {
      for (Result r : s) {
        got.put(Bytes.toString(r.getRow()), Bytes.toLong(r.getValue(Bytes.toBytes("c"), COUNT)));
      }
    }
    assertEquals(expected, got);
    MapReduceFixture.assertNoPlaintext(hbase, name(counts), List.of(WORDS), List.of());
  }

  @Test
  void equalityOnADetColumnSelectsTheJobsInput(Connection hbase, Configuration conf) throws Exception {
    TableSchema visits = MapReduceFixture.schema("mr_visits", VISITS);
    TableSchema porto = MapReduceFixture.schema("mr_porto", VISITS);
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(visits, porto));
    Map<String, String> cities = new TreeMap<>();
    loadVisits(secure, visits, new TreeMap<>(), cities);
    secure.createTable(porto);

    Job job = job(conf, "visits in Porto");
    Scan inPorto = new Scan().setFilter(new SingleColumnValueFilter(INFO, CITY, CompareOperator.EQUAL,
        new BinaryComparator(Bytes.toBytes("Porto"))));
    SecureJob.setInput(job, visits, inPorto, CopyMapper.class, ImmutableBytesWritable.class, Mutation.class);
    job.setNumReduceTasks(0);
    SecureJob.setOutput(job, porto);
    MapReduceFixture.assertCompletes(job);

    List<String> expected = new ArrayList<>();
    cities.forEach((row, city) -> {
      if (city.equals("Porto")) {
        expected.add(row);
      }
    });
    List<String> got = new ArrayList<>();
    try (SecureTable table = secure.getSecureTable(name(porto)); ResultScanner s = table.getScanner(new Scan())) {
      for (Result r : s) {
        assertEquals("Porto", Bytes.toString(r.getValue(INFO, CITY)));
        got.add(Bytes.toString(r.getRow()));
      }
    }
    got.sort(null);
    assertFalse(expected.isEmpty());
    assertEquals(expected, got);
    // The job's output is encrypted: no city name and no row key in any stored byte.
    List<String> needles = new ArrayList<>(List.of(CITIES));
    needles.addAll(expected);
    MapReduceFixture.assertNoPlaintext(hbase, name(porto), needles, List.of());
    // The mappers saw only the selected rows: the DET equality ran on the region servers.
    assertEquals(expected.size(), job.getCounters()
        .findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
  }

  /**
   * An input scan's row bounds and filter operand are plaintext: none is in the job's configuration,
   * nor in any file the job writes (job.xml, the splits), as the tasks find them while the job runs;
   * the job still reads exactly the rows they select.
   */
  @Test
  void theInputScansPlaintextStaysOutOfTheJobsConfigurationAndFiles(Connection hbase, Configuration conf)
      throws Exception {
    TableSchema visits = MapReduceFixture.schema("mr_ranged", VISITS.replace("rowKey: { box: DET }",
        "rowKey: { box: OPE, type: string }"));
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(visits));
    TreeMap<String, String> cities = new TreeMap<>();
    TableCodec codec = new TableCodec(visits, keys); // OPE keys split at plaintext points, encrypted
    loadVisits(secure, visits, new byte[][] {codec.encodeRow(Bytes.toBytes(MapReduceFixture.rowKey(150))),
        codec.encodeRow(Bytes.toBytes(MapReduceFixture.rowKey(250)))}, new TreeMap<>(), cities);
    String from = MapReduceFixture.rowKey(100);
    String to = MapReduceFixture.rowKey(300);
    List<String> needles = List.of("Braga", from, to);

    Job job = job(conf, "ranged input");
    Scan scan = new Scan().withStartRow(Bytes.toBytes(from)).withStopRow(Bytes.toBytes(to)).setFilter(
        new SingleColumnValueFilter(INFO, CITY, CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("Braga"))));
    SecureJob.setInput(job, visits, scan, AuditingMapper.class, NullWritable.class, NullWritable.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(org.apache.hadoop.mapreduce.lib.output.NullOutputFormat.class);
    AuditingMapper.start(needles);
    MapReduceFixture.assertCompletes(job);

    List<String> expected = new ArrayList<>();
    cities.subMap(from, to).forEach((row, city) -> {
      if (city.equals("Braga")) {
        expected.add(row);
      }
    });
    assertFalse(expected.isEmpty());
    assertEquals(expected, new ArrayList<>(AuditingMapper.rows), "the rows the scan selects");
    assertEquals(expected.size(), job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(), "each once");
    assertTrue(AuditingMapper.filesRead.containsAll(List.of("job.xml", "job.split")),
        "the tasks read the job's files: " + AuditingMapper.filesRead);
    assertEquals(List.of(), AuditingMapper.found, "plaintext of the scan where the job keeps its setup");
    for (Map.Entry<String, String> e : job.getConfiguration()) {
      assertEquals(List.of(), MapReduceFixture.plaintextIn(Bytes.toBytes(e.getValue()), needles),
          "the job configuration's " + e.getKey());
    }
  }

  @Test
  void aFilterTheServerCannotRunFailsTheJobInsteadOfReadingEverything(Connection hbase, Configuration conf)
      throws Exception {
    TableSchema visits = MapReduceFixture.schema("mr_visits", VISITS);
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(visits));
    loadVisits(secure, visits, new TreeMap<>(), new TreeMap<>());
    Job job = job(conf, "STD equality");
    Scan onStd = new Scan().setFilter(new SingleColumnValueFilter(INFO, NOTES, CompareOperator.EQUAL,
        new BinaryComparator(Bytes.toBytes("fever"))));
    SecureJob.setInput(job, visits, onStd, CopyMapper.class, ImmutableBytesWritable.class, Mutation.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(org.apache.hadoop.mapreduce.lib.output.NullOutputFormat.class);
    // Refused at submission, naming the table and the way out, before any task runs.
    UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
        () -> job.waitForCompletion(false));
    assertTrue(e.getMessage().contains(visits.tableName()), e.getMessage());
    assertTrue(e.getMessage().contains("allowClientSideEvaluation"), e.getMessage());
  }

  @Test
  void setKeysRefusesAnUnknownKeyEncryptionKeySource(Configuration conf) throws Exception {
    Job job = job(conf, "bad source");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SecureJob.setKeys(job, keyset, "kms:whatever"));
    assertTrue(e.getMessage().contains("env:NAME"), e.getMessage());
  }

  /** Word counts of the notes, per word. */
  static final class WordMapper extends Mapper<ImmutableBytesWritable, Result, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);

    @Override
    protected void map(ImmutableBytesWritable row, Result value, Context context) throws IOException,
        InterruptedException {
      for (String word : Bytes.toString(value.getValue(INFO, NOTES)).split(" ")) {
        context.write(new Text(word), ONE);
      }
    }
  }

  /** One encrypted row per word: its count. */
  static final class CountReducer extends Reducer<Text, LongWritable, NullWritable, Mutation> {
    @Override
    protected void reduce(Text word, Iterable<LongWritable> ones, Context context) throws IOException,
        InterruptedException {
      long sum = 0;
      for (LongWritable one : ones) {
        sum += one.get();
      }
      context.write(NullWritable.get(), new Put(Bytes.toBytes(word.toString()))
          .addColumn(Bytes.toBytes("c"), COUNT, Bytes.toBytes(sum)));
    }
  }

  /**
   * Records the rows it gets, and looks for the needles in what a task can see of the job's setup:
   * its configuration, and every file under the job's working directory (job.xml, the splits).
   */
  static final class AuditingMapper extends Mapper<ImmutableBytesWritable, Result, NullWritable, NullWritable> {
    static final java.util.Set<String> rows = new java.util.concurrent.ConcurrentSkipListSet<>();
    static final java.util.Set<String> filesRead = java.util.concurrent.ConcurrentHashMap.newKeySet();
    static final List<String> found = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static volatile List<String> needles = List.of();

    static void start(List<String> lookFor) {
      rows.clear();
      filesRead.clear();
      found.clear();
      needles = lookFor;
    }

    @Override
    protected void setup(Context context) throws IOException {
      Configuration conf = context.getConfiguration();
      for (Map.Entry<String, String> e : conf) {
        MapReduceFixture.plaintextIn(Bytes.toBytes(e.getValue()), needles)
            .forEach(n -> found.add("task configuration " + e.getKey() + ": " + n));
      }
      try (java.util.stream.Stream<Path> files = Files.walk(Path.of(conf.get("hadoop.tmp.dir")))) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          byte[] bytes;
          try {
            bytes = Files.readAllBytes(file);
          } catch (java.nio.file.NoSuchFileException e) {
            continue; // removed since listed (a local runner's temporary file)
          }
          filesRead.add(file.getFileName().toString());
          MapReduceFixture.plaintextIn(bytes, needles).forEach(n -> found.add(file + ": " + n));
        }
      }
    }

    @Override
    protected void map(ImmutableBytesWritable row, Result value, Context context) {
      rows.add(Bytes.toString(value.getRow()));
    }
  }

  /** Copies each row's city into the output table. */
  static final class CopyMapper extends Mapper<ImmutableBytesWritable, Result, ImmutableBytesWritable, Mutation> {
    @Override
    protected void map(ImmutableBytesWritable row, Result value, Context context) throws IOException,
        InterruptedException {
      context.write(row, new Put(value.getRow()).addColumn(INFO, CITY, value.getValue(INFO, CITY)));
    }
  }

  private static void loadVisits(SecureConnection secure, TableSchema visits, Map<String, Long> words,
      Map<String, String> cities) throws IOException {
    loadVisits(secure, visits, secure.uniformSplitKeys(name(visits), 3), words, cities);
  }

  private static void loadVisits(SecureConnection secure, TableSchema visits, byte[][] splits,
      Map<String, Long> words, Map<String, String> cities) throws IOException {
    secure.createTable(visits, splits);
    Random random = new Random(11);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      String row = MapReduceFixture.rowKey(i);
      StringBuilder notes = new StringBuilder();
      for (int w = 0; w < 1 + random.nextInt(4); w++) {
        String word = WORDS[random.nextInt(WORDS.length)];
        words.merge(word, 1L, Long::sum);
        notes.append(w == 0 ? "" : " ").append(word);
      }
      String city = CITIES[random.nextInt(CITIES.length)];
      cities.put(row, city);
      puts.add(new Put(Bytes.toBytes(row)).addColumn(INFO, NOTES, Bytes.toBytes(notes.toString()))
          .addColumn(INFO, CITY, Bytes.toBytes(city)));
    }
    try (SecureTable table = secure.getSecureTable(name(visits))) {
      table.put(puts);
    }
  }

  /** A local job on the shared cluster's configuration, with this test's keys. */
  private static Job job(Configuration hbaseConf, String name) throws IOException {
    Configuration conf = new Configuration(hbaseConf);
    Path work = Files.createTempDirectory("mr-job");
    conf.set("mapreduce.framework.name", "local");
    conf.set("hadoop.tmp.dir", work.toString());
    conf.set("mapreduce.cluster.local.dir", work.resolve("local").toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
    conf.set("mapreduce.output.fileoutputformat.outputdir", work.resolve("out").toString());
    conf.setInt("mapreduce.client.completion.pollinterval", 100); // not the default 5 s per job
    Job job = Job.getInstance(conf, name);
    SecureJob.setKeys(job, keyset, "file:" + kekFile);
    return job;
  }

  private static TableName name(TableSchema schema) {
    return TableName.valueOf(schema.tableName());
  }
}
