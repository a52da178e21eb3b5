package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Batch, conditional mutations, increments, scans with options, and bad input. */
@ExtendWith(SharedHBaseCluster.class)
class OperationsTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: PLAIN }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD }\n"
          + "    columns:\n"
          + "      status:  { box: DET, type: string }\n"
          + "      counter: { box: PLAIN, type: long }\n"
          + "      note:    { box: PLAIN }\n"
          + "      age:     { box: STD, type: int }\n";
  private static final byte[] F = toBytes("f");
  private static final byte[] STATUS = toBytes("status");
  private static final byte[] SECRET = toBytes("secret");

  private Table table;

  @BeforeEach
  void create(Connection hbase) throws IOException {
    table = table(hbase, "DET");
  }

  private static Table table(Connection hbase, String rowBox) throws IOException {
    TableSchema schema = SecureFixture.withRowKey(SecureFixture.schema("ops", SCHEMA), rowBox);
    return SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema).getTable(SecureFixture.name(schema));
  }

  private void putRow(String row, String status, String secret) throws IOException {
    table.put(new Put(toBytes(row)).addColumn(F, STATUS, toBytes(status)).addColumn(F, SECRET, toBytes(secret)));
  }

  @Test
  void batchEncodesEveryActionAndDecodesResults() throws Exception {
    putRow("r1", "open", "s1");
    putRow("r2", "open", "s2");
    List<Row> actions = new ArrayList<>();
    actions.add(new Put(toBytes("r3")).addColumn(F, SECRET, toBytes("s3")));
    actions.add(new Get(toBytes("r1")));
    actions.add(new Delete(toBytes("r2")));
    RowMutations rm = new RowMutations(toBytes("r4"));
    rm.add((Mutation) new Put(toBytes("r4")).addColumn(F, SECRET, toBytes("s4")));
    actions.add(rm);
    Object[] results = new Object[actions.size()];
    table.batch(actions, results);
    Result r1 = (Result) results[1];
    assertEquals("s1", Bytes.toString(r1.getValue(F, SECRET)));
    assertArrayEquals(toBytes("r1"), r1.getRow());
    assertEquals("s3", Bytes.toString(table.get(new Get(toBytes("r3"))).getValue(F, SECRET)));
    assertEquals("s4", Bytes.toString(table.get(new Get(toBytes("r4"))).getValue(F, SECRET)));
    assertFalse(table.exists(new Get(toBytes("r2"))));

    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Object[] results2 = new Object[1];
    table.batchCallback(List.of(new Get(toBytes("r1"))), results2,
        (region, row, result) -> seen.add(Bytes.toString(row) + "=" + Bytes.toString(((Result) result).getValue(F, SECRET))));
    assertEquals(List.of("r1=s1"), seen);
    assertEquals("s1", Bytes.toString(((Result) results2[0]).getValue(F, SECRET)));
  }

  @Test
  void batchesKeepTheOneBatchContract(Connection hbase) throws Exception {
    BatchContract.check(table, F, "contract-");
    BatchContract.check(table(hbase, "PLAIN"), F, "contract-");
  }

  @Test
  void listOperations() throws IOException {
    putRow("a", "open", "sa");
    putRow("b", "closed", "sb");
    Result[] rs = table.get(List.of(new Get(toBytes("a")), new Get(toBytes("b")), new Get(toBytes("c"))));
    assertEquals("sa", Bytes.toString(rs[0].getValue(F, SECRET)));
    assertEquals("closed", Bytes.toString(rs[1].getValue(F, STATUS)));
    assertTrue(rs[2].isEmpty());
    assertArrayEquals(new boolean[] {true, true, false},
        table.exists(List.of(new Get(toBytes("a")), new Get(toBytes("b")), new Get(toBytes("c")))));
    List<Delete> deletes = new ArrayList<>(List.of(new Delete(toBytes("a")), new Delete(toBytes("b"))));
    table.delete(deletes);
    assertTrue(deletes.isEmpty());
    assertTrue(table.get(new Get(toBytes("a"))).isEmpty());
  }

  @Test
  void checkAndMutateOnDetAndPlainColumns() throws IOException {
    putRow("k", "open", "v1");
    CheckAndMutateResult fail = table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k"))
        .ifEquals(F, STATUS, toBytes("closed")).build(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("no"))));
    assertFalse(fail.isSuccess());
    CheckAndMutateResult ok = table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k"))
        .ifEquals(F, STATUS, toBytes("open")).build(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("v2"))));
    assertTrue(ok.isSuccess());
    assertEquals("v2", Bytes.toString(table.get(new Get(toBytes("k"))).getValue(F, SECRET)));

    assertTrue(table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k"))
        .ifMatches(F, STATUS, CompareOperator.NOT_EQUAL, toBytes("closed"))
        .build(new Delete(toBytes("k")).addColumns(F, SECRET))).isSuccess());
    assertNull(table.get(new Get(toBytes("k"))).getValue(F, SECRET));

    // PLAIN column: any comparison, with HBase's operand order ("3 LESS stored 5" holds).
    table.put(new Put(toBytes("k")).addColumn(F, toBytes("counter"), toBytes(5L)));
    assertTrue(table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k"))
        .ifMatches(F, toBytes("counter"), CompareOperator.LESS, toBytes(3L))
        .build(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("v3")))).isSuccess());
    assertFalse(table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k"))
        .ifMatches(F, toBytes("counter"), CompareOperator.GREATER, toBytes(3L))
        .build(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("never")))).isSuccess());

    // Existence checks work on any box, including STD.
    assertTrue(table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("new"))
        .ifNotExists(F, SECRET).build(new Put(toBytes("new")).addColumn(F, SECRET, toBytes("first")))).isSuccess());
    assertFalse(table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("new"))
        .ifNotExists(F, SECRET).build(new Put(toBytes("new")).addColumn(F, SECRET, toBytes("second")))).isSuccess());
    assertEquals("first", Bytes.toString(table.get(new Get(toBytes("new"))).getValue(F, SECRET)));

    // Filter condition on a DET column.
    assertTrue(table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k"))
        .ifMatches(new SingleColumnValueFilter(F, STATUS, CompareOperator.EQUAL, new BinaryComparator(toBytes("open"))))
        .build(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("v4")))).isSuccess());

    // The deprecated fluent form goes through the same encoding.
    @SuppressWarnings("deprecation")
    boolean fluent = table.checkAndMutate(toBytes("k"), F).qualifier(STATUS).ifEquals(toBytes("open"))
        .thenPut(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("v5")));
    assertTrue(fluent);
    assertEquals("v5", Bytes.toString(table.get(new Get(toBytes("k"))).getValue(F, SECRET)));
  }

  @Test
  void conditionsThatCannotRunOnCiphertextAreRefused() throws IOException {
    putRow("k", "open", "v1");
    UnsupportedSecureOperationException std = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k")).ifEquals(F, SECRET, toBytes("v1"))
            .build(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("x")))));
    assertTrue(std.column().contains("f:secret (STD)"), std.column());
    UnsupportedSecureOperationException order = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.checkAndMutate(CheckAndMutate.newBuilder(toBytes("k"))
            .ifMatches(F, STATUS, CompareOperator.LESS, toBytes("z"))
            .build(new Put(toBytes("k")).addColumn(F, SECRET, toBytes("x")))));
    assertTrue(order.reason().contains("LESS"), order.reason());
    assertEquals("v1", Bytes.toString(table.get(new Get(toBytes("k"))).getValue(F, SECRET)));
  }

  @Test
  void incrementsOnlyOnPlainColumns() throws IOException {
    assertEquals(3L, table.incrementColumnValue(toBytes("c"), F, toBytes("counter"), 3));
    Result r = table.increment(new Increment(toBytes("c")).addColumn(F, toBytes("counter"), 4));
    assertEquals(7L, Bytes.toLong(r.getValue(F, toBytes("counter"))));
    assertArrayEquals(toBytes("c"), r.getRow());
    UnsupportedSecureOperationException inc = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.increment(new Increment(toBytes("c")).addColumn(F, toBytes("age"), 1)));
    assertTrue(inc.column().contains("f:age (STD)") && inc.reason().startsWith("Increment"), inc.getMessage());
    assertThrows(UnsupportedSecureOperationException.class,
        () -> table.append(new Append(toBytes("c")).addColumn(F, SECRET, toBytes("more"))));
    table.append(new Append(toBytes("c")).addColumn(F, toBytes("note"), toBytes("ab")));
    table.append(new Append(toBytes("c")).addColumn(F, toBytes("note"), toBytes("cd")));
    assertEquals("abcd", Bytes.toString(table.get(new Get(toBytes("c"))).getValue(F, toBytes("note"))));
  }

  @Test
  void mutateRowIsAtomicAndEncoded() throws IOException {
    putRow("m", "open", "before");
    RowMutations rm = new RowMutations(toBytes("m"));
    rm.add(List.<Mutation>of(new Put(toBytes("m")).addColumn(F, SECRET, toBytes("after")),
        new Delete(toBytes("m")).addColumns(F, STATUS)));
    table.mutateRow(rm);
    Result r = table.get(new Get(toBytes("m")));
    assertEquals("after", Bytes.toString(r.getValue(F, SECRET)));
    assertNull(r.getValue(F, STATUS));
  }

  @Test
  void scanOptionsOnPlainRowKeys(Connection hbase) throws IOException {
    Table plainKeys = table(hbase, "PLAIN");
    for (int i = 0; i < 20; i++) {
      plainKeys.put(new Put(toBytes(String.format("k%02d", i))).addColumn(F, SECRET, toBytes("s" + i)));
    }
    List<Result> range = SecureFixture.scanAll(plainKeys,
        new Scan().withStartRow(toBytes("k05")).withStopRow(toBytes("k10")).setCaching(2));
    assertEquals(5, range.size());
    assertEquals("s5", Bytes.toString(range.get(0).getValue(F, SECRET)));
    List<Result> reversed = SecureFixture.scanAll(plainKeys, new Scan().setReversed(true).setLimit(3));
    assertEquals(List.of("k19", "k18", "k17"), reversed.stream().map(r -> Bytes.toString(r.getRow())).toList());
    List<Result> reversedRange = SecureFixture.scanAll(plainKeys,
        new Scan().withStartRow(toBytes("k12"), true).withStopRow(toBytes("k10"), false).setReversed(true));
    assertEquals(List.of("k12", "k11"), reversedRange.stream().map(r -> Bytes.toString(r.getRow())).toList());
    assertEquals(20, SecureFixture.scanAll(plainKeys, new Scan().addColumn(F, SECRET)).size());
    assertEquals(20, SecureFixture.scanAll(plainKeys, new Scan().addFamily(F)).size());
  }

  @Test
  void reversedClientSideRangeOnDetKeys() throws IOException {
    for (int i = 0; i < 20; i++) {
      putRow(String.format("k%02d", i), "open", "s" + i);
    }
    List<Result> got = SecureFixture.scanAll(table, SecureScans.allowClientSideEvaluation(
        new Scan().withStartRow(toBytes("k12"), true).withStopRow(toBytes("k10"), false).setReversed(true)));
    assertEquals(List.of("k11", "k12"), got.stream().map(r -> Bytes.toString(r.getRow())).sorted().toList());
  }

  @Test
  void badInputIsRefusedPrecisely() {
    UnsupportedSecureOperationException family = assertThrows(UnsupportedSecureOperationException.class,
        () -> table.put(new Put(toBytes("x")).addColumn(toBytes("nofamily"), SECRET, toBytes("v"))));
    assertTrue(family.getMessage().contains("family nofamily") && family.reason().contains("not in the table's schema"),
        family.getMessage());
    IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
        () -> table.put(new Put(toBytes("x")).addColumn(F, toBytes("age"), toBytes("forty"))));
    assertTrue(type.getMessage().contains("f:age (STD)") && type.getMessage().contains("an int must be 4 bytes"),
        type.getMessage());
    UnsupportedOperationException cp = assertThrows(UnsupportedOperationException.class,
        () -> table.coprocessorService(toBytes("x")));
    assertTrue(cp.getMessage().contains("bypass"), cp.getMessage());
  }
}
