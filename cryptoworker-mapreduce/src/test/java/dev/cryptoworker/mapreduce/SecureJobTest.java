package dev.cryptoworker.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.keys.KeysetFiles;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a job carries keys and schemas to its tasks, without HBase. */
class SecureJobTest {
  @TempDir
  Path dir;

  private Path kek(String name) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, KeyEncryptionKey.generateBase64(), StandardCharsets.US_ASCII);
    return file;
  }

  /** A keyset file {@code name}.json under a new key-encryption key in file {@code name}-kek. */
  private Path keyset(String name) throws Exception {
    Path keyset = dir.resolve(name + ".json");
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(kek(name + "-kek")));
    return keyset;
  }

  @Test
  void tasksDeriveTheClientsKeysAndTheKekNeverEntersTheJob() throws Exception {
    Path keyset = keyset("keyset");
    Path kek = dir.resolve("keyset-kek");
    Job job = Job.getInstance(new Configuration(false));
    SecureJob.setKeys(job, keyset, "file:" + kek);

    KeyProvider task = SecureJob.keys(job.getConfiguration(), job.getCredentials());
    KeyProvider client = KeyProvider.fromKeysetFile(keyset, KeyEncryptionKey.fromFile(kek));
    KeyScope scope = KeyScope.column("t", "f", "q", BoxKind.STD);
    assertTrue(client.keyRing(scope, 32).primary().key().equalsKey(task.keyRing(scope, 32).primary().key()),
        "the task derives the client's keys");

    String kekText = Files.readString(kek).strip();
    for (java.util.Map.Entry<String, String> e : job.getConfiguration()) {
      assertFalse(e.getValue().contains(kekText), "the key-encryption key is in the configuration: " + e.getKey());
    }
  }

  @Test
  void aWrongKeyEncryptionKeyFailsWithTheReason() throws Exception {
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(kek("right")));
    Job job = Job.getInstance(new Configuration(false));
    SecureJob.setKeys(job, keyset, "file:" + kek("wrong"));
    IOException e = assertThrows(IOException.class, () -> SecureJob.keys(job.getConfiguration(), job.getCredentials()));
    assertTrue(e.getMessage().contains("wrong key-encryption key"), e.getMessage());
  }

  @Test
  void aJobWithoutKeysOrSchemasSaysWhatToCall() throws Exception {
    Job job = Job.getInstance(new Configuration(false));
    IllegalStateException keys = assertThrows(IllegalStateException.class,
        () -> SecureJob.keys(job.getConfiguration(), job.getCredentials()));
    assertTrue(keys.getMessage().contains("SecureJob.setKeys"), keys.getMessage());
    IllegalStateException schemas = assertThrows(IllegalStateException.class,
        () -> SecureJob.schemas(job.getConfiguration()));
    assertTrue(schemas.getMessage().contains("SecureJob.setInput"), schemas.getMessage());
  }

  @Test
  void theInputScanTravelsInTheCredentialsNotTheConfiguration() throws Exception {
    TableSchema schema = TableSchema.parse("""
        table: visits
        rowKey: { box: OPE, type: string }
        families:
          info:
            default: { box: STD }
            columns:
              city: { box: DET, type: string }
        """);
    Scan scan = new Scan().withStartRow(Bytes.toBytes("patient-0100")).withStopRow(Bytes.toBytes("patient-0300"))
        .setFilter(new SingleColumnValueFilter(Bytes.toBytes("info"), Bytes.toBytes("city"), CompareOperator.EQUAL,
            new BinaryComparator(Bytes.toBytes("Guimaraes"))));
    Job job = Job.getInstance(new Configuration(false));
    SecureJob.setInput(job, schema, scan, MapReduceJobTest.CopyMapper.class, Text.class, Text.class);
    List<String> plaintext = List.of("patient-0100", "patient-0300", "Guimaraes");
    for (java.util.Map.Entry<String, String> e : job.getConfiguration()) {
      assertEquals(List.of(), MapReduceFixture.plaintextIn(Bytes.toBytes(e.getValue()), plaintext), e.getKey());
    }
    Scan read = SecureJob.inputScan(job.getCredentials());
    assertEquals("patient-0100", Bytes.toString(read.getStartRow()));
    assertEquals("patient-0300", Bytes.toString(read.getStopRow()));
    assertEquals(scan.getFilter().toString(), read.getFilter().toString());
  }

  @Test
  void schemasTravelInTheConfiguration() throws Exception {
    TableSchema schema = TableSchema.parse("""
        table: visits
        rowKey: { box: DET }
        families:
          info:
            default: { box: STD }
            columns:
              city: { box: DET, type: string }
        """);
    Job job = Job.getInstance(new Configuration(false));
    SecureJob.addSchema(job, schema);
    List<TableSchema> read = SecureJob.schemas(job.getConfiguration());
    assertEquals(1, read.size());
    assertEquals(schema.toYaml(), read.get(0).toYaml());
  }

  /**
   * Hadoop's local job runner starts a job's thread before it sets the job's credentials, so a
   * task can see none: it then finds them with the current user, to which a local job's setup gave
   * them under the job's own token, so that a job set up beside it is never read instead.
   */
  @Test
  void aLocalTaskThatSeesNoJobCredentialsFindsItsJobsWithTheCurrentUser() throws Exception {
    Path keyset = keyset("local");
    Job job = Job.getInstance(new Configuration(false));
    SecureJob.setKeys(job, keyset, "file:" + dir.resolve("local-kek"));
    Job other = Job.getInstance(new Configuration(false)); // set up beside it, other keys
    SecureJob.setKeys(other, keyset("other"), "file:" + dir.resolve("other-kek"));
    // A task's context made before the runner set the job's credentials: the job's configuration, no secrets.
    org.apache.hadoop.mapred.JobConf taskConf = new org.apache.hadoop.mapred.JobConf(false);
    taskConf.set(SecureJob.LOCAL_JOB_TOKEN, job.getConfiguration().get(SecureJob.LOCAL_JOB_TOKEN));
    org.apache.hadoop.mapreduce.JobContext raced = new org.apache.hadoop.mapreduce.task.JobContextImpl(
        taskConf, new org.apache.hadoop.mapreduce.JobID("raced", 1));
    assertTrue(raced.getCredentials().getSecretKey(SecureJob.KEYSET_ALIAS) == null, "the raced task sees no keyset");
    assertTrue(java.util.Arrays.equals(Files.readAllBytes(keyset),
        SecureJob.credentials(raced).getSecretKey(SecureJob.KEYSET_ALIAS)), "the raced task finds its job's keyset");
    assertTrue(SecureJob.credentials(job) == job.getCredentials(), "a task with the job's credentials reads them");
  }
}
