package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a client at TRACE level (every logger, HBase's included) through writes, reads, refusals
 * and decoding failures, and checks that neither the master key nor any derived column key
 * appears in its output, in hex or base64.
 */
@ExtendWith(SharedHBaseCluster.class)
class KeyMaterialInLogsTest {
  static final String SCHEMA = KilledClientTest.SCHEMA;

  @Test
  void noKeyMaterialAtAnyLogLevel(Connection hbase, Configuration conf) throws Exception {
    TableSchema schema = SecureFixture.schema("logs", SCHEMA);
    byte[] master = new byte[32];
    new SecureRandom().nextBytes(master);
    KeyProvider keys = KeyProvider.fromMasterKey(master);
    SecureFixture.createSecure(hbase, keys, schema);
    ProcessBuilder pb = SecureFixture.childJvm(Client.class, "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace",
        conf.get("hbase.zookeeper.quorum"), conf.get("hbase.zookeeper.property.clientPort"), schema.tableName());
    pb.environment().put("LOG_TEST_KEY", Base64.getEncoder().encodeToString(master));
    Process client = pb.start();
    byte[] output = client.getInputStream().readAllBytes();
    assertTrue(client.waitFor(120, TimeUnit.SECONDS));
    String log = new String(output, StandardCharsets.ISO_8859_1);
    assertTrue(log.contains("DONE"), "the client ran to the end:\n" + tail(log));
    // The failure paths ran and logged their exceptions: a refused filter and a row that does not decode.
    String t = schema.tableName();
    assertTrue(log.contains(UnsupportedSecureOperationException.class.getName() + ": table " + t),
        "the refusal was not logged:\n" + tail(log));
    assertTrue(log.contains(CellDecodingException.class.getName() + ": table " + t),
        "the decoding failure was not logged:\n" + tail(log));
    assertTrue(log.length() > 10_000, "TRACE logging was on: " + log.length() + " characters");

    List<byte[]> secrets = new ArrayList<>();
    secrets.add(master);
    SecretKeyAccess access = SecretKeyAccess.insecure();
    secrets.add(keys.keyRing(KeyScope.rowKey(t, BoxKind.DET), 64).primary().key().copyBytes(access));
    secrets.add(keys.keyRing(KeyScope.column(t, "f", "*", BoxKind.STD), 32).primary().key().copyBytes(access));
    secrets.add(keys.keyRing(KeyScope.column(t, "f", "id", BoxKind.DET), 64).primary().key().copyBytes(access));
    secrets.add(keys.keyRing(KeyScope.column(t, "f", "seq", BoxKind.OPE), 48).primary().key().copyBytes(access));
    secrets.add(keys.keyRing(KeyScope.column(t, "f", "total", BoxKind.ASHE), 32).primary().key().copyBytes(access));
    String lower = log.toLowerCase(Locale.ROOT);
    for (byte[] secret : secrets) {
      String hex = HexFormat.of().formatHex(secret, 0, 12);
      String b64 = Base64.getEncoder().encodeToString(Arrays.copyOf(secret, 12));
      assertFalse(lower.contains(hex), "key bytes in hex in the log");
      assertFalse(log.contains(b64), "key bytes in base64 in the log");
      assertFalse(log.contains(new String(secret, 0, 12, StandardCharsets.ISO_8859_1)), "raw key bytes in the log");
    }
  }

  private static String tail(String s) {
    return s.substring(Math.max(0, s.length() - 3000));
  }

  /** The child: exercises the client with everything logged. */
  public static final class Client {
    public static void main(String[] args) throws Exception {
      Configuration conf = HBaseConfiguration.create();
      conf.set("hbase.zookeeper.quorum", args[0]);
      conf.set("hbase.zookeeper.property.clientPort", args[1]);
      TableSchema schema = TableSchema.parse(SCHEMA.replace("TABLE", args[2]));
      KeyProvider keys = KeyProvider.fromMasterKey(Base64.getDecoder().decode(System.getenv("LOG_TEST_KEY")));
      System.out.println("provider " + keys + ", ring " + keys.keyRing(KeyScope.rowKey(args[2], BoxKind.DET), 64));
      try (Connection c = ConnectionFactory.createConnection(conf)) {
        SecureConnection secure = SecureConnection.wrap(c, keys, List.of(schema));
        SecureTable t = secure.getSecureTable(TableName.valueOf(args[2]));
        byte[] f = toBytes("f");
        t.put(new Put(toBytes("r1")).addColumn(f, toBytes("id"), toBytes("r1")).addColumn(f, toBytes("v"), toBytes("secret value"))
            .addColumn(f, toBytes("seq"), toBytes(1L)).addColumn(f, toBytes("total"), toBytes(5L)));
        System.out.println(t.get(new Get(toBytes("r1"))));
        System.out.println(t.aggregate(new Scan(), f, toBytes("total")));
        try {
          t.getScanner(new Scan().setFilter(new ValueFilter(
              CompareOperator.EQUAL, new BinaryComparator(toBytes("x")))));
          System.out.println("NOT REFUSED"); // the parent finds no refusal in the log
        } catch (UnsupportedSecureOperationException e) {
          e.printStackTrace();
        }
        try (Table raw = c.getTable(TableName.valueOf(args[2]))) {
          raw.put(new Put(toBytes("forged")).addColumn(f, toBytes("v"), toBytes("garbage")));
        }
        try {
          SecureFixture.scanAll(t, new Scan());
          System.out.println("NO DECODING FAILURE"); // the parent finds none in the log
        } catch (CellDecodingException e) {
          e.printStackTrace();
        }
      }
      System.out.println("DONE");
    }
  }
}
