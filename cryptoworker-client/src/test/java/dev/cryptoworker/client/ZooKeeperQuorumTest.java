package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A cluster's HOST:PORT address: parsed once, refused with the text it got, applied to a configuration. */
class ZooKeeperQuorumTest {
  @Test
  void hostsAndPortReachTheConfiguration() {
    ZooKeeperQuorum q = ZooKeeperQuorum.parse("zk1.example.org,zk2.example.org:2281");
    Configuration conf = q.configure(new Configuration(false));
    assertEquals("zk1.example.org,zk2.example.org", conf.get("hbase.zookeeper.quorum"));
    assertEquals(2281, conf.getInt("hbase.zookeeper.property.clientPort", -1));
    assertEquals("zk1.example.org,zk2.example.org:2281", q.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk.example.org", ":2181", "zk.example.org:", "zk.example.org:21x1", "zk.example.org:0",
      "zk.example.org:65536", "zk.example.org:+2181", "zk.example.org:99999999999"})
  void anAddressThatIsNotHostAndPortIsRefusedQuotingIt(String hostPort) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ZooKeeperQuorum.parse(hostPort));
    assertEquals("expected HOST:PORT with a port from 1 to 65535, got '" + hostPort + "'", e.getMessage());
  }
}
