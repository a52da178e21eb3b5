package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import dev.cryptoworker.testing.ChildJvmCommand;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/** Test helpers: schemas with unique table names, fresh random keys, created tables. */
public final class SecureFixture {
  /**
   * A table (named {@code TABLE}) with a DET row key and a column of every box in family {@code f}:
   * STD by default, DET {@code id}, OPE {@code when} and ASHE {@code total} (longs), SSE {@code tag}.
   */
  public static final String EVERY_BOX =
      "table: TABLE\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD, type: string }\n"
          + "    columns:\n"
          + "      id:    { box: DET, type: string }\n"
          + "      when:  { box: OPE, type: long }\n"
          + "      total: { box: ASHE, type: long }\n"
          + "      tag:   { box: SSE, type: string }\n";

  private SecureFixture() {}

  /**
   * A client configuration for the HBase whose ZooKeeper is at {@code quorum:port}, retrying
   * {@code retries} times {@code pauseMs} apart and giving an operation {@code operationTimeoutMs}.
   */
  public static Configuration clientConfiguration(String quorum, int port, int retries, int pauseMs, int operationTimeoutMs) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    conf.setInt("hbase.client.retries.number", retries);
    conf.setInt("hbase.client.pause", pauseMs);
    conf.setInt("hbase.client.operation.timeout", operationTimeoutMs);
    return conf;
  }

  public static KeyProvider randomKeys() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return KeyProvider.fromMasterKey(key);
  }

  /** Parses {@code yaml} (table {@code TABLE}) and renames its table to a unique name. */
  public static TableSchema schema(String prefix, String yaml) {
    return schema(prefix, TableSchema.parse(yaml, prefix));
  }

  /** {@code schema} with its table renamed to a unique name. */
  public static TableSchema schema(String prefix, TableSchema schema) {
    return schema.toBuilder().tableName(SharedHBaseCluster.uniqueTableName(prefix).getNameAsString()).build();
  }

  /** {@code schema} with its row keys (bytes) protected by {@code box}. */
  public static TableSchema withRowKey(TableSchema schema, String box) {
    return schema.toBuilder().rowKey(ColumnPolicy.of(BoxKind.of(box), ValueType.BYTES)).build();
  }

  /** Creates the schema's table keeping {@code versions} versions per cell. */
  public static void create(SecureConnection secure, TableSchema schema, int versions, byte[][] splits)
      throws IOException {
    TableDescriptorBuilder b = SecureConnection.descriptorFor(schema);
    for (ColumnFamilyDescriptor cf : b.build().getColumnFamilies()) {
      b.modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(cf).setMaxVersions(versions).build());
    }
    secure.createTable(b, splits);
  }

  public static SecureConnection createSecure(Connection hbase, KeyProvider keys, TableSchema schema) throws IOException {
    SecureConnection secure = SecureConnection.wrap(hbase, keys, List.of(schema));
    create(secure, schema, 5, null);
    return secure;
  }

  public static TableName name(TableSchema schema) {
    return TableName.valueOf(schema.tableName());
  }

  /** A child JVM on this test classpath running {@code main} with {@code args}, output merged. */
  public static ProcessBuilder childJvm(Class<?> main, String... args) {
    List<String> command = ChildJvmCommand.java();
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    List<String> tail = new ArrayList<>(List.of(args));
    // JVM options (starting with -D) go before the class name.
    while (!tail.isEmpty() && tail.get(0).startsWith("-D")) {
      command.add(tail.remove(0));
    }
    command.add(main.getName());
    command.addAll(tail);
    return new ProcessBuilder(command).redirectErrorStream(true);
  }

  /**
   * A child JVM running {@code main} as a client of the cluster {@code conf} points at, with
   * {@code schema} and the master key {@code master} in its environment and {@code table} as its
   * third argument; the child takes them with {@link #childClient}.
   */
  public static ProcessBuilder childClient(Class<?> main, Configuration conf, TableSchema schema, byte[] master) {
    ProcessBuilder pb = childJvm(main, conf.get("hbase.zookeeper.quorum"), conf.get("hbase.zookeeper.property.clientPort"),
        schema.tableName());
    pb.environment().put("CRYPTOWORKER_CHILD_KEY", java.util.Base64.getEncoder().encodeToString(master));
    pb.environment().put("CRYPTOWORKER_CHILD_SCHEMA", schema.toYaml());
    return pb;
  }

  /** In a child {@link #childClient} started: its connection to the cluster and its secure connection. */
  public record ChildClient(Connection hbase, SecureConnection secure, TableName table) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      secure.close();
      hbase.close();
    }
  }

  /** The child's side of {@link #childClient}, from its arguments and environment. */
  public static ChildClient childClient(String[] args, SecureTableOptions options) throws IOException {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", args[0]);
    conf.set("hbase.zookeeper.property.clientPort", args[1]);
    TableSchema schema = TableSchema.parse(System.getenv("CRYPTOWORKER_CHILD_SCHEMA"));
    KeyProvider keys = KeyProvider.fromMasterKey(java.util.Base64.getDecoder()
        .decode(System.getenv("CRYPTOWORKER_CHILD_KEY")));
    Connection hbase = org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(conf);
    return new ChildClient(hbase, SecureConnection.wrap(hbase, keys, List.of(schema), options),
        TableName.valueOf(args[2]));
  }

  /**
   * Starts {@code child}, waits until it has printed {@code batches} lines starting with
   * "batch ", then kills it with SIGKILL (in the middle of its next batch). Returns the batches seen.
   */
  public static int killAfterBatches(ProcessBuilder child, int batches) throws IOException, InterruptedException {
    Process process = child.start();
    int seen = 0;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && seen < batches) {
        if (line.startsWith("batch ")) {
          seen++;
        }
      }
      process.destroyForcibly();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the child process did not die within 30 s of SIGKILL");
      }
    }
    return seen;
  }

  public static List<Result> scanAll(Table table, Scan scan) throws IOException {
    List<Result> out = new ArrayList<>();
    try (ResultScanner s = table.getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        out.add(r);
      }
    }
    return out;
  }
}
