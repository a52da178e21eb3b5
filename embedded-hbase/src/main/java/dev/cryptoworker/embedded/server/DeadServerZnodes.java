package dev.cryptoworker.embedded.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Deletes the master and region server znodes a killed incarnation of the cluster left in its
 * ZooKeeper data. ZooKeeper restores the dead servers' sessions from its data directory, and their
 * ephemeral znodes stand until those sessions expire ({@code zookeeper.session.timeout}): the new
 * master would wait that long to become active, taking the old one for alive. HBase's start scripts
 * delete a crashed server's znode for the same reason ({@code HBASE_ZNODE_FILE}); with them gone,
 * the new master finds the old region servers dead at once and recovers their write-ahead logs.
 */
final class DeadServerZnodes {
  private static final int SESSION_TIMEOUT_MS = 10_000;

  private DeadServerZnodes() {}

  /** Deletes them under {@code parent} (HBase's {@code zookeeper.znode.parent}) on the ZooKeeper at {@code port}. */
  static void clear(int port, String parent) throws IOException, InterruptedException {
    try (ZooKeeper zk = new ZooKeeper("127.0.0.1:" + port, SESSION_TIMEOUT_MS, event -> { })) {
      List<String> dead = new ArrayList<>(List.of(parent + "/master"));
      for (String servers : List.of(parent + "/rs", parent + "/backup-masters")) {
        if (zk.exists(servers, false) != null) {
          for (String server : zk.getChildren(servers, false)) {
            dead.add(servers + "/" + server);
          }
        }
      }
      for (String node : dead) {
        try {
          zk.delete(node, -1);
        } catch (KeeperException.NoNodeException gone) {
          // not left behind (a graceful stop deletes it), or its session expired meanwhile
        }
      }
    } catch (KeeperException e) {
      throw new IOException("clearing the znodes of a killed cluster under " + parent, e);
    }
  }
}
