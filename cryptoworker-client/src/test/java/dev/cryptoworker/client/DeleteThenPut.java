package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.embedded.EmbeddedHBase;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A put right after a delete of its row, family or column is kept, whatever the clock of the client
 * and of the clusters say. Each layout's tests run it on a table of a cluster whose clock runs ahead
 * of the client's ({@code EmbeddedHBase.Builder.clockOffset}): a delete marker stamped by the
 * cluster and a put stamped by the client would hide the put.
 */
public final class DeleteThenPut {
  /** Rounds of the three deletes, each followed at once by a put: a bound, not a timing. */
  private static final int ROUNDS = 5;

  private DeleteThenPut() {}

  /** How far {@link #onClusterAhead}'s cluster runs ahead of the client. */
  public static final Duration CLUSTER_AHEAD = Duration.ofSeconds(5);

  /**
   * Starts an HBase of its own in {@code dir} whose clock runs {@link #CLUSTER_AHEAD} ahead of this
   * client's, creates {@code schema}'s table there and runs the check on {@code row} of it.
   */
  public static void onClusterAhead(Path dir, TableSchema schema, byte[] family, byte[] row) throws IOException {
    try (EmbeddedHBase hbase = EmbeddedHBase.builder().dataDir(dir).maxHeap("384m").clockOffset(CLUSTER_AHEAD)
            .start();
        Connection connection = ConnectionFactory.createConnection(
            SecureFixture.clientConfiguration(hbase.zookeeperQuorum(), hbase.zookeeperPort(), 3, 100, 30_000));
        SecureConnection secure = SecureConnection.wrap(connection, SecureFixture.randomKeys(), List.of(schema))) {
      secure.createTable(schema);
      TableName name = TableName.valueOf(schema.tableName());
      long before = System.currentTimeMillis();
      try (Table table = secure.getTable(name)) {
        check(table, family, row);
      }
      // The cluster's clock does run ahead: a cell it stamped is stamped ahead of this client's.
      long newest = 0;
      try (Table raw = connection.getTable(name); ResultScanner stored = raw.getScanner(new Scan())) {
        for (Result r : stored) {
          for (Cell c : r.rawCells()) {
            newest = Math.max(newest, c.getTimestamp());
          }
        }
      }
      assertTrue(newest >= before + CLUSTER_AHEAD.toMillis(), "newest stored cell at " + newest + ", the client's clock"
          + " at " + before + " before writing");
    }
  }

  /** Runs the check on {@code row} of {@code table}, whose family {@code family} takes STD values. */
  public static void check(Table table, byte[] family, byte[] row) throws IOException {
    byte[] q = toBytes("note");
    table.put(new Put(row).addColumn(family, q, toBytes("first")));
    for (int round = 0; round < ROUNDS; round++) {
      Delete[] deletes = {new Delete(row), new Delete(row).addFamily(family), new Delete(row).addColumns(family, q)};
      String[] what = {"row", "family", "column"};
      for (int d = 0; d < deletes.length; d++) {
        table.delete(deletes[d]);
        String value = "put after a delete of its " + what[d] + ", round " + round;
        table.put(new Put(row).addColumn(family, q, toBytes(value)));
        assertEquals(value, Bytes.toString(table.get(new Get(row)).getValue(family, q)),
            "a put right after a delete of its " + what[d] + " was lost");
      }
    }
  }
}
