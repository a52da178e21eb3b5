package dev.cryptoworker.testing;

import dev.cryptoworker.embedded.EmbeddedHBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension sharing one real HBase, started in a child JVM, across every test class of a
 * test JVM (stored in the root context store, stopped when the JVM's tests end).
 *
 * <pre>
 * &#64;ExtendWith(SharedHBaseCluster.class)
 * class MyTest {
 *   &#64;Test void works(Connection hbase) { ... }
 * }
 * </pre>
 *
 * <p>Injects {@link Connection} (a plain, shaded HBase client connection) and {@link
 * Configuration} parameters. Use {@link #uniqueTableName(String)} so test classes never share a
 * table.
 */
public final class SharedHBaseCluster implements BeforeAllCallback, ParameterResolver {
  private static final AtomicInteger TABLE_COUNTER = new AtomicInteger();
  private static final int REGION_SERVERS = 2;

  /** A table name no other test in this JVM uses. */
  public static TableName uniqueTableName(String prefix) {
    return TableName.valueOf(prefix + "_" + TABLE_COUNTER.incrementAndGet());
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    cluster(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    Class<?> type = p.getParameter().getType();
    return type == Connection.class || type == Configuration.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    Running running = cluster(e);
    return p.getParameter().getType() == Connection.class ? running.connection : running.configuration;
  }

  private static Running cluster(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(ExtensionContext.Namespace.create(SharedHBaseCluster.class))
        .getOrComputeIfAbsent(Running.class, k -> Running.start(), Running.class);
  }

  /** The cluster and one shared client connection; closed by JUnit at the end of the run. */
  static final class Running implements ExtensionContext.Store.CloseableResource {
    final OwnCluster cluster;
    final Configuration configuration;
    final Connection connection;

    private Running(OwnCluster cluster) {
      this.cluster = cluster;
      this.configuration = cluster.configuration();
      this.connection = cluster.connection();
    }

    static Running start() {
      try {
        Path dir =
            Files.createTempDirectory(
                Paths.get(System.getProperty("java.io.tmpdir")), "embedded-hbase-");
        EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(dir).regionServers(REGION_SERVERS).start();
        return new Running(OwnCluster.connect(hbase, conf -> conf.setInt("hbase.client.retries.number", 10)));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the embedded HBase for tests", e);
      }
    }

    @Override
    public void close() throws IOException {
      cluster.close();
    }
  }
}
