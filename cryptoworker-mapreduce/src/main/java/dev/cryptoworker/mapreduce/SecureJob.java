package dev.cryptoworker.mapreduce;

import dev.cryptoworker.keys.KekSources;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Sets up MapReduce jobs that read or write secure tables, as HBase's {@code TableMapReduceUtil}
 * does for plain ones: which table and scan, the tables' schemas, and how tasks get their keys.
 *
 * <pre>
 * Job job = Job.getInstance(conf, "visits per city");
 * SecureJob.setKeys(job, Path.of("keyset.json"), "env:CRYPTOWORKER_KEK");
 * SecureJob.setInput(job, patientsSchema, new Scan().addColumn(ADDRESS, CITY), CityMapper.class, Text.class, LongWritable.class);
 * SecureJob.setOutput(job, countsSchema);
 * </pre>
 *
 * <p>Keys: the keyset file's contents (encrypted under the key-encryption key) travel in the job's
 * {@link Credentials}, which Hadoop hands to tasks without writing them to the job's configuration
 * file; the key-encryption key itself never leaves the machines or servers that hold it: each task
 * opens the key-encryption key URI given here ({@link KeyEncryptionKey#fromUri}: {@code env:NAME}, an
 * environment variable of the task, {@code file:PATH}, a file on every node, or a token or key
 * server every node reaches), as the client does. The input scan travels in the Credentials
 * too: its row bounds and filter operands are plaintext, and the configuration is written to the
 * job's files (job.xml, the job history) and shown by the cluster's web pages. Schemas are not
 * secret and travel in the configuration.
 */
public final class SecureJob {
  /** Credentials alias of the keyset file's contents. */
  static final Text KEYSET_ALIAS = new Text("cryptoworker.keyset");
  /** The key-encryption key URI tasks open ({@link KeyEncryptionKey#fromUri}). */
  public static final String KEK_SOURCE = "cryptoworker.kek.source";
  /** Prefix of the configuration keys holding schemas (YAML), one per table. */
  public static final String SCHEMA_PREFIX = "cryptoworker.schema.";
  /** The table {@link SecureTableInputFormat} reads. */
  public static final String INPUT_TABLE = "cryptoworker.input.table";
  /** Credentials alias of the logical scan {@link SecureTableInputFormat} runs (serialized as HBase does). */
  static final Text INPUT_SCAN_ALIAS = new Text("cryptoworker.input.scan");
  /** A random name of one local-runner job's secrets with the current user ({@link #credentials}); not secret. */
  static final String LOCAL_JOB_TOKEN = "cryptoworker.local.job";
  /** The table {@link SecureTableOutputFormat} writes. */
  public static final String OUTPUT_TABLE = "cryptoworker.output.table";

  private SecureJob() {}

  /**
   * Gives the job's tasks the keys of an encrypted keyset file.
   *
   * @param kekSource the key-encryption key's URI, which each task opens ({@link KeyEncryptionKey#fromUri}):
   *     {@code env:NAME}, {@code file:PATH}, or any other scheme with a source on the tasks' classpath
   * @throws IllegalArgumentException if {@code kekSource} is malformed or no source here opens its scheme
   */
  public static void setKeys(Job job, Path keysetFile, String kekSource) throws IOException {
    KekSources.standard().check(kekSource);
    job.getCredentials().addSecretKey(KEYSET_ALIAS, Files.readAllBytes(keysetFile));
    job.getConfiguration().set(KEK_SOURCE, kekSource);
    shareWithLocalTasks(job);
  }

  /**
   * In Hadoop's local job runner, also gives the job's credentials to the current user: the runner
   * starts a job's thread before it hands the job its credentials ({@code LocalJobRunner.submitJob},
   * Hadoop 2.10), so its first tasks can find none ({@link #credentials}). The tasks run in this
   * process, which holds the secrets anyway; on a cluster nothing is added.
   */
  private static void shareWithLocalTasks(Job job) throws IOException {
    Configuration conf = job.getConfiguration();
    if (!"local".equals(conf.get("mapreduce.framework.name", "local"))) {
      return;
    }
    if (conf.get(LOCAL_JOB_TOKEN) == null) {
      byte[] token = new byte[16];
      new SecureRandom().nextBytes(token);
      conf.set(LOCAL_JOB_TOKEN, HexFormat.of().formatHex(token));
    }
    Credentials shared = new Credentials(); // the user's getCredentials() is a copy: added through addCredentials
    for (Text alias : List.of(KEYSET_ALIAS, INPUT_SCAN_ALIAS)) {
      byte[] secret = job.getCredentials().getSecretKey(alias);
      if (secret != null) {
        shared.addSecretKey(localAlias(alias, conf.get(LOCAL_JOB_TOKEN)), secret);
      }
    }
    UserGroupInformation.getCurrentUser().addCredentials(shared);
  }

  /** The alias under which {@link #shareWithLocalTasks} gives the current user the job's {@code alias}. */
  private static Text localAlias(Text alias, String token) {
    return new Text(alias + "#" + token);
  }

  /**
   * The job's credentials as a task (or the job client) sees them: the context's, or, where they
   * lack the keyset (a local runner's task that started before the job had its credentials), the
   * secrets {@link #shareWithLocalTasks} gave the current user for this job (named by the job's
   * {@link #LOCAL_JOB_TOKEN}, so that jobs set up side by side never read each other's).
   */
  static Credentials credentials(JobContext context) throws IOException {
    Credentials job = context.getCredentials();
    String token = context.getConfiguration().get(LOCAL_JOB_TOKEN);
    if (job.getSecretKey(KEYSET_ALIAS) != null || token == null) {
      return job;
    }
    Credentials merged = new Credentials(job);
    Credentials user = UserGroupInformation.getCurrentUser().getCredentials();
    for (Text alias : List.of(KEYSET_ALIAS, INPUT_SCAN_ALIAS)) {
      byte[] secret = user.getSecretKey(localAlias(alias, token));
      if (secret != null) {
        merged.addSecretKey(alias, secret);
      }
    }
    return merged;
  }

  /** Records {@code schema} for the job's tasks (tables are created beforehand, as with HBase). */
  public static void addSchema(Job job, TableSchema schema) {
    job.getConfiguration().set(SCHEMA_PREFIX + schema.tableName(), schema.toYaml());
  }

  /**
   * Reads the decrypted rows {@code scan} selects from {@code schema}'s table, one input split per
   * region; the mapper gets (logical row key, decrypted {@code Result}). Filters follow the same
   * rules as {@code SecureTable.getScanner}: DET equality and OPE ranges run on the region servers,
   * others only with client-side evaluation enabled on the scan. The scan goes into the job's
   * Credentials, not its configuration.
   */
  public static void setInput(Job job, TableSchema schema, Scan scan,
      Class<? extends org.apache.hadoop.mapreduce.Mapper<ImmutableBytesWritable, ?, ?, ?>> mapper,
      Class<?> outputKey, Class<?> outputValue) throws IOException {
    addSchema(job, schema);
    Configuration conf = job.getConfiguration();
    conf.set(INPUT_TABLE, schema.tableName());
    job.getCredentials().addSecretKey(INPUT_SCAN_ALIAS,
        TableMapReduceUtil.convertScanToString(scan).getBytes(StandardCharsets.US_ASCII));
    shareWithLocalTasks(job);
    job.setInputFormatClass(SecureTableInputFormat.class);
    job.setMapperClass(mapper);
    job.setMapOutputKeyClass(outputKey);
    job.setMapOutputValueClass(outputValue);
  }

  /** Writes the job's output ({@link Mutation}s: Put or Delete) encrypted into {@code schema}'s table. */
  public static void setOutput(Job job, TableSchema schema) {
    addSchema(job, schema);
    job.getConfiguration().set(OUTPUT_TABLE, schema.tableName());
    job.setOutputFormatClass(SecureTableOutputFormat.class);
    job.setOutputValueClass(Mutation.class);
  }

  /** The schemas recorded in {@code conf}. */
  static List<TableSchema> schemas(Configuration conf) {
    List<TableSchema> out = new ArrayList<>();
    conf.getPropsWithPrefix(SCHEMA_PREFIX).forEach((table, yaml) ->
        out.add(TableSchema.parse(yaml, "schema of table " + table + " in the job configuration")));
    if (out.isEmpty()) {
      throw new IllegalStateException("the job configuration has no CryptoWorker schema: call SecureJob.setInput,"
          + " setOutput or addSchema when setting up the job");
    }
    return out;
  }

  /** The input scan the job was given by {@link #setInput}. */
  static Scan inputScan(Credentials credentials) throws IOException {
    byte[] scan = credentials.getSecretKey(INPUT_SCAN_ALIAS);
    if (scan == null) {
      throw new IllegalStateException("the job's credentials hold no input scan: set the job up with"
          + " SecureJob.setInput");
    }
    return TableMapReduceUtil.convertStringToScan(new String(scan, StandardCharsets.US_ASCII));
  }

  /** The keys the job was given by {@link #setKeys}. */
  static KeyProvider keys(Configuration conf, Credentials credentials) throws IOException {
    byte[] keyset = credentials.getSecretKey(KEYSET_ALIAS);
    if (keyset == null) {
      throw new IllegalStateException("the job's credentials hold no CryptoWorker keyset: call SecureJob.setKeys"
          + " when setting up the job");
    }
    String source = conf.get(KEK_SOURCE);
    if (source == null) {
      throw new IllegalStateException("the job configuration does not say where tasks read the key-encryption key ("
          + KEK_SOURCE + "): call SecureJob.setKeys when setting up the job");
    }
    try {
      return KeyProvider.fromKeysetFileContents(new String(keyset, StandardCharsets.UTF_8),
          "keyset of the job's credentials", KeyEncryptionKey.fromUri(source));
    } catch (GeneralSecurityException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}
