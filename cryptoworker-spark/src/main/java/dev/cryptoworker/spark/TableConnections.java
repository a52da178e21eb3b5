package dev.cryptoworker.spark;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.TableName;

/**
 * One {@link SecureConnection} per source per JVM (driver or executor), shared by its tasks as an
 * HBase {@code Connection} is meant to be; closed when the JVM ends.
 */
final class TableConnections {
  private static final Map<SourceOptions, SourceOptions.Connected> OPEN = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.values().forEach(TableConnections::close),
        "cryptoworker-spark-connections"));
  }

  private TableConnections() {}

  /** Closes the source's connection and the HBase connections it wraps (which it does not close itself). */
  private static void close(SourceOptions.Connected connected) {
    connected.secure().close();
    for (org.apache.hadoop.hbase.client.Connection cluster : connected.clusters()) {
      try {
        cluster.close();
      } catch (IOException e) {
        // the JVM is ending: nothing waits on this connection any more
      }
    }
  }

  /** A table of {@code options}' source (close it; the connection stays). */
  static SecureTable table(SourceOptions options) throws IOException {
    return connection(options).getSecureTable(name(options));
  }

  static TableName name(SourceOptions options) {
    return TableName.valueOf(options.schema().tableName());
  }

  /** The shared connection of {@code options}' source (do not close it). */
  static SecureConnection connection(SourceOptions options) throws IOException {
    SourceOptions.Connected connection;
    try {
      connection = OPEN.computeIfAbsent(options, o -> {
        try {
          return o.connect();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return connection.secure();
  }
}
