package dev.cryptoworker.mapreduce;

import static dev.cryptoworker.testing.CauseChain.messages;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/** What an SSE bulk load does when the counter table cannot take its rounds' count cells. */
@ExtendWith(SharedHBaseCluster.class)
@Isolated // disables the counter table every SSE test of this JVM writes through
class BulkLoadIndexCountsTest {
  /**
   * The count cells of a round's index entries are loaded as files of the counter table before the
   * round's own files: with the counter table unavailable the load fails naming why, and none of
   * the round's rows becomes visible (rows no search could find).
   */
  @Test
  void aRoundWhoseIndexCountsAreNotWrittenIsNotLoaded(Connection hbase) throws Exception {
    TableSchema schema = MapReduceFixture.schema("bulk_sse_down", SecureBulkLoadTest.SSE_SCHEMA);
    List<Put> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(new Put(Bytes.toBytes(MapReduceFixture.rowKey(i))).addColumn(Bytes.toBytes("id"), Bytes.toBytes("city"),
          Bytes.toBytes("city-" + i % 5)));
    }
    // A writer that gives up after two tries, rather than HBase's default of retrying for minutes.
    Configuration impatient = new Configuration(hbase.getConfiguration());
    impatient.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 2);
    impatient.setLong(HConstants.HBASE_CLIENT_PAUSE, 20);
    IOException failed;
    try (Connection own = ConnectionFactory.createConnection(impatient);
        SecureConnection secure = SecureConnection.wrap(own, MapReduceFixture.randomKeys(), List.of(schema));
        Admin admin = hbase.getAdmin()) {
      secure.createTable(schema, secure.uniformSplitKeys(TableName.valueOf(schema.tableName()), 2));
      try (SecureTable table = secure.getSecureTable(TableName.valueOf(schema.tableName()))) {
        admin.disableTable(HBaseIdentifierSource.TABLE);
        try {
          failed = assertThrows(IOException.class, () -> SecureBulkLoad.into(table, new Path(Files.createTempDirectory("bulk-staging").toUri())).load(rows.iterator()));
        } finally {
          admin.enableTable(HBaseIdentifierSource.TABLE);
        }
      }
    }
    String messages = messages(failed);
    assertTrue(messages.contains("nothing of this round is loaded"), messages);
    assertTrue(messages.contains("cells of table cryptoworker_ids, which the round's rows need stored before them,"
        + " were not loaded"), messages);
    assertTrue(MapReduceFixture.rawRows(hbase, TableName.valueOf(schema.tableName())).isEmpty(), "no row of the failed round is visible");
  }
}
