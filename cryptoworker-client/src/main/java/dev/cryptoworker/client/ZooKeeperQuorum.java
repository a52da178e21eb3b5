package dev.cryptoworker.client;

import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/**
 * A cluster's address as a ZooKeeper quorum, {@code HOST:PORT} (the form the command line's
 * cluster options and the Spark source's {@code cluster.NAME} options take). {@code HOST} may list
 * several hosts separated by commas; they share the port.
 */
public record ZooKeeperQuorum(String hosts, int port) {
  public ZooKeeperQuorum {
    Objects.requireNonNull(hosts, "hosts");
    if (hosts.isEmpty() || port < 1 || port > 65_535) {
      throw new IllegalArgumentException("expected HOST:PORT with a port from 1 to 65535, got '" + hosts + ":" + port
          + "'");
    }
  }

  /**
   * Parses {@code HOST:PORT}.
   *
   * @throws IllegalArgumentException saying what was expected and quoting {@code hostPort}; callers
   *     add the option it came from
   */
  public static ZooKeeperQuorum parse(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    String digits = colon < 0 ? "" : hostPort.substring(colon + 1);
    boolean wellFormed = colon > 0 && !digits.isEmpty() && digits.length() <= 5
        && digits.chars().allMatch(c -> c >= '0' && c <= '9');
    int port = wellFormed ? Integer.parseInt(digits) : 0;
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("expected HOST:PORT with a port from 1 to 65535, got '" + hostPort + "'");
    }
    return new ZooKeeperQuorum(hostPort.substring(0, colon), port);
  }

  /** Points {@code conf} at this quorum (HBase's {@code hbase.zookeeper.quorum} and client port). */
  public Configuration configure(Configuration conf) {
    conf.set("hbase.zookeeper.quorum", hosts);
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    return conf;
  }

  @Override
  public String toString() {
    return hosts + ":" + port;
  }
}
