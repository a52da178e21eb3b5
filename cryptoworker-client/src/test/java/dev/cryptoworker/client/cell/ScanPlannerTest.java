package dev.cryptoworker.client.cell;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.client.Scan;
import org.junit.jupiter.api.Test;

/** Scan planning, plaintext scan in, stored scan and client-side remainder out: no HBase. */
class ScanPlannerTest {

  @Test
  void opeRowRangesBecomeRangesOfCiphertext() throws Exception {
    SeamFixture s = new SeamFixture("OPE");
    ScanPlan plan = s.planner.plan(new Scan().withStartRow(toBytes("P0010")).withStopRow(toBytes("P0020"), true));
    assertFalse(plan.evaluatesOnClient());
    assertArrayEquals(s.codec.encodeRow(toBytes("P0010")), plan.serverScan().getStartRow());
    assertArrayEquals(s.codec.encodeRow(toBytes("P0020")), plan.serverScan().getStopRow());
    assertTrue(plan.serverScan().includeStopRow());
  }

  @Test
  void plainRowRangesPassUnchanged() throws Exception {
    ScanPlan plan = new SeamFixture("PLAIN").planner.plan(new Scan().withStartRow(toBytes("a")).withStopRow(toBytes("b")));
    assertArrayEquals(toBytes("a"), plan.serverScan().getStartRow());
    assertArrayEquals(toBytes("b"), plan.serverScan().getStopRow());
  }

  @Test
  void detRowRangeIsRefusedUnlessItIsOneRow() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    UnsupportedSecureOperationException e = assertThrows(UnsupportedSecureOperationException.class,
        () -> s.planner.plan(new Scan().withStartRow(toBytes("a")).withStopRow(toBytes("b"))));
    assertTrue(e.getMessage().contains("row key (DET)") && e.getMessage().contains("allowClientSideEvaluation"),
        e.getMessage());
    ScanPlan one = s.planner.plan(new Scan().withStartRow(toBytes("a")).withStopRow(toBytes("a"), true));
    byte[] stored = s.codec.encodeRow(toBytes("a"));
    assertArrayEquals(stored, one.serverScan().getStartRow());
    assertArrayEquals(stored, one.serverScan().getStopRow());
  }

  @Test
  void clientSideEvaluationScansEverythingAndKeepsRangeAndLimitForTheClient() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    Scan scan = SecureScans.allowClientSideEvaluation(
        new Scan().withStartRow(toBytes("a")).withStopRow(toBytes("b")).setLimit(3));
    ScanPlan plan = s.planner.plan(scan);
    assertTrue(plan.evaluatesOnClient());
    assertEquals(0, plan.serverScan().getStartRow().length);
    assertEquals(0, plan.serverScan().getStopRow().length);
    assertNotNull(plan.rowRange());
    assertTrue(plan.rowRange().contains(toBytes("a0")));
    assertFalse(plan.rowRange().contains(toBytes("b")));
    assertEquals(3, plan.limit());
    assertEquals(-1, plan.serverScan().getLimit(), "the server must not cut before the client filters");
    assertNull(plan.serverScan().getAttribute(SecureScans.CLIENT_SIDE_ATTRIBUTE), "the opt-in stays on the client");
  }

  @Test
  void clientSideEvaluationRefusesPartialRows() {
    SeamFixture s = new SeamFixture("DET");
    Scan scan = SecureScans.allowClientSideEvaluation(
        new Scan().withStartRow(toBytes("a")).withStopRow(toBytes("b")).setBatch(2));
    assertThrows(UnsupportedSecureOperationException.class, () -> s.planner.plan(scan));
  }

  @Test
  void protectedQualifiersAreEncryptedInTheFamilyMap() throws Exception {
    SeamFixture s = new SeamFixture("DET");
    ScanPlan plan = s.planner.plan(new Scan().addColumn(toBytes("q"), toBytes("appointment-7")));
    byte[] stored = plan.serverScan().getFamilyMap().get(toBytes("q")).first();
    assertArrayEquals(s.codec.encodeQualifier(toBytes("q"), toBytes("appointment-7")), stored);
    assertFalse(new String(stored, StandardCharsets.ISO_8859_1).contains("appointment"));
  }

  @Test
  void describeSaysWhereEachPartRunsWithoutOperands() throws Exception {
    SeamFixture s = new SeamFixture("OPE");
    QueryPlan serverPlan = s.planner.plan(new Scan().withStartRow(toBytes("P0010")).withStopRow(toBytes("P0020"))
        .setFilter(new org.apache.hadoop.hbase.filter.SingleColumnValueFilter(toBytes("f"), toBytes("det"),
            org.apache.hadoop.hbase.CompareOperator.EQUAL, toBytes("Porto")))).toQueryPlan("t");
    assertEquals("region servers: scan of a stored key range, filter SingleColumnValueFilter; client: decrypts",
        serverPlan.describe());
    assertFalse(serverPlan.evaluatesOnClient());
    QueryPlan.Step server = serverPlan.stepsAt(QueryPlan.Site.REGION_SERVERS).get(0);
    assertTrue(server.leaks().contains("stored bounds of the range") && server.leaks().contains("which rows pass"),
        server.leaks());
    assertFalse(server.leaks().contains("Porto") || serverPlan.describeWithLeakage().contains("Porto"));
    String onClient = s.planner.plan(SecureScans.allowClientSideEvaluation(new Scan().setLimit(5)
        .setFilter(new org.apache.hadoop.hbase.filter.SingleColumnValueFilter(toBytes("f"), toBytes("std"),
            org.apache.hadoop.hbase.CompareOperator.EQUAL, toBytes("secret-operand"))))).toQueryPlan("t").describe();
    assertTrue(onClient.startsWith("region servers: scan of the whole table; client: decrypts, filter"
        + " SingleColumnValueFilter, limit 5 (client-side evaluation: "), onClient);
    assertFalse(onClient.contains("secret-operand"), onClient);
  }
}
