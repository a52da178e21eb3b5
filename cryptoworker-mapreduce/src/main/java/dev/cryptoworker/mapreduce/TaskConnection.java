package dev.cryptoworker.mapreduce;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.security.Credentials;

/**
 * What one task (or the job client, while planning splits) opens: an HBase connection from the
 * job's configuration and a {@link SecureConnection} over it with the job's keys and schemas.
 */
final class TaskConnection implements Closeable {
  private final Connection hbase;
  private final SecureConnection secure;

  private TaskConnection(Connection hbase, SecureConnection secure) {
    this.hbase = hbase;
    this.secure = secure;
  }

  static TaskConnection open(Configuration conf, Credentials credentials) throws IOException {
    SecureConnection.Builder builder = SecureConnection.builder()
        .keys(SecureJob.keys(conf, credentials))
        .schemas(SecureJob.schemas(conf));
    Connection hbase = ConnectionFactory.createConnection(HBaseConfiguration.create(conf));
    try {
      return new TaskConnection(hbase, builder.connection(hbase).build());
    } catch (RuntimeException e) {
      hbase.close();
      throw e;
    }
  }

  /** The secure table named by {@code key} in {@code conf}. */
  SecureTable table(Configuration conf, String key) throws IOException {
    String name = conf.get(key);
    if (name == null) {
      throw new IllegalStateException("the job configuration names no table (" + key + "): set the job up with"
          + " SecureJob.setInput or setOutput");
    }
    return secure.getSecureTable(TableName.valueOf(name));
  }

  Admin admin() throws IOException {
    return hbase.getAdmin();
  }

  @Override
  public void close() throws IOException {
    try {
      secure.close();
    } finally {
      hbase.close();
    }
  }
}
