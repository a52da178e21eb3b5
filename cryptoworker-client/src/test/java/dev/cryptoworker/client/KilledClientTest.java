package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.FaultInjection;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client process killed (SIGKILL) in the middle of writing batches leaves no cell that fails to
 * decrypt and no half-written row.
 */
@ExtendWith(SharedHBaseCluster.class)
@FaultInjection
class KilledClientTest {
  static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD, type: string }\n"
          + "    columns:\n"
          + "      id:    { box: DET, type: string }\n"
          + "      seq:   { box: OPE, type: long }\n"
          + "      total: { box: ASHE, type: long }\n";
  private static final byte[] F = toBytes("f");

  @Test
  void killedWriterLeavesOnlyDecryptableWholeRows(Connection hbase, Configuration conf) throws Exception {
    TableSchema schema = SecureFixture.schema("killed", SCHEMA);
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    SecureConnection secure = SecureFixture.createSecure(hbase, KeyProvider.fromMasterKey(key), schema);
    ProcessBuilder pb = SecureFixture.childJvm(Writer.class,
        conf.get("hbase.zookeeper.quorum"), conf.get("hbase.zookeeper.property.clientPort"), schema.tableName());
    pb.environment().put("KILLED_CLIENT_KEY", Base64.getEncoder().encodeToString(key));
    int batches = SecureFixture.killAfterBatches(pb, 6);
    assertEquals(6, batches, "the writer must have written before it was killed");
    try (Table t = secure.getTable(SecureFixture.name(schema))) {
      List<Result> rows = SecureFixture.scanAll(t, new Scan()); // decodes every cell or throws
      assertTrue(rows.size() >= 6 * Writer.BATCH, "rows written: " + rows.size());
      long total = 0;
      for (Result r : rows) {
        String id = Bytes.toString(r.getRow());
        // Row "b<batch>-<index>" was written with seq = index and total = batch.
        long batch = Long.parseLong(id.substring(1, id.indexOf('-')));
        long index = Long.parseLong(id.substring(id.indexOf('-') + 1));
        assertEquals(id, Bytes.toString(r.getValue(F, toBytes("id"))), "whole row " + id);
        assertEquals(index, Bytes.toLong(r.getValue(F, toBytes("seq"))), "OPE value of " + id);
        assertEquals(batch, Bytes.toLong(r.getValue(F, toBytes("total"))), "ASHE value of " + id);
        assertEquals("payload of " + id, Bytes.toString(r.getValue(F, toBytes("v"))));
        total += batch;
      }
      // The region-side sum over ciphertext agrees with the rows the kill left.
      assertEquals(new AggregateResult(total, rows.size()),
          ((SecureTable) t).aggregate(new Scan(), F, toBytes("total")));
    }
  }

  /** The child process: writes batches until killed. */
  public static final class Writer {
    static final int BATCH = 300;

    public static void main(String[] args) throws Exception {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", args[0]);
      conf.set("hbase.zookeeper.property.clientPort", args[1]);
      TableSchema schema = TableSchema.parse(SCHEMA.replace("TABLE", args[2]));
      KeyProvider keys = KeyProvider.fromMasterKey(Base64.getDecoder().decode(System.getenv("KILLED_CLIENT_KEY")));
      try (Connection c = ConnectionFactory.createConnection(conf);
          Table t = SecureConnection.wrap(c, keys, List.of(schema)).getTable(TableName.valueOf(args[2]))) {
        for (int b = 0; ; b++) {
          List<Put> puts = new ArrayList<>();
          for (int i = 0; i < BATCH; i++) {
            String id = "b" + b + "-" + i;
            puts.add(new Put(toBytes(id)).addColumn(F, toBytes("id"), toBytes(id)).addColumn(F, toBytes("v"), toBytes("payload of " + id))
                .addColumn(F, toBytes("seq"), toBytes((long) i)).addColumn(F, toBytes("total"), toBytes((long) b)));
          }
          t.put(puts);
          System.out.println("batch " + b);
          System.out.flush();
        }
      }
    }
  }
}
