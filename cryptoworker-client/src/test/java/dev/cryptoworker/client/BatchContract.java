package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The one batch contract every layout keeps (HBase's own): each action's result or exception in its
 * slot, the others carried out, the callback on each success, and {@link
 * RetriesExhaustedWithDetailsException} naming the failed action. Each layout's tests run it on a
 * table of theirs.
 */
public final class BatchContract {
  private BatchContract() {}

  /**
   * Checks the contract on {@code table}, whose schema has family {@code family} with STD values and
   * no family {@code nope}; writes rows whose keys start with {@code prefix}.
   */
  public static void check(Table table, byte[] family, String prefix) throws Exception {
    byte[] q = toBytes("q");
    byte[] kept = toBytes(prefix + "1");
    byte[] deleted = toBytes(prefix + "2");
    byte[] added = toBytes(prefix + "3");
    byte[] refused = toBytes(prefix + "4");
    table.put(new Put(kept).addColumn(family, q, toBytes("kept")));
    table.put(new Put(deleted).addColumn(family, q, toBytes("deleted")));
    List<Row> actions = List.of(
        new Put(added).addColumn(family, q, toBytes("added")),
        new Put(refused).addColumn(toBytes("nope"), q, toBytes("refused")),
        new Delete(deleted),
        new Get(kept));
    Object[] results = new Object[actions.size()];
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    RetriesExhaustedWithDetailsException e = assertThrows(RetriesExhaustedWithDetailsException.class,
        () -> table.batchCallback(actions, results, (region, row, result) -> seen.add(Bytes.toString(row))));

    assertEquals(1, e.getNumExceptions(), e.getMessage());
    assertSame(actions.get(1), e.getRow(0));
    assertInstanceOf(IOException.class, e.getCause(0));
    assertTrue(e.getCause(0).getMessage().contains("nope"), e.getCause(0).getMessage());
    assertSame(e.getCause(0), results[1]);
    assertInstanceOf(Result.class, results[0]);
    assertInstanceOf(Result.class, results[2]);
    assertEquals("kept", Bytes.toString(((Result) results[3]).getValue(family, q)));
    assertEquals(List.of(prefix + "1", prefix + "2", prefix + "3"), seen.stream().sorted().toList(),
        "the callback sees each success, by the caller's row");

    assertEquals("added", Bytes.toString(table.get(new Get(added)).getValue(family, q)));
    assertFalse(table.exists(new Get(deleted)));
    assertFalse(table.exists(new Get(refused)));
  }

  /**
   * The same contract through {@link SecureConnection#getBufferedMutator}: the mutations of one
   * buffer are written as one batch, the refused put reaches the exception listener named, and the
   * others land ({@code name}'s schema as for {@link #check}).
   */
  public static void checkBufferedMutator(SecureConnection secure, TableName name, byte[] family, String prefix)
      throws Exception {
    byte[] q = toBytes("q");
    byte[] kept = toBytes(prefix + "m1");
    byte[] deleted = toBytes(prefix + "m2");
    byte[] added = toBytes(prefix + "m3");
    Put refused = new Put(toBytes(prefix + "m4")).addColumn(toBytes("nope"), q, toBytes("refused"));
    try (Table table = secure.getTable(name)) {
      table.put(new Put(deleted).addColumn(family, q, toBytes("deleted")));
    }
    List<RetriesExhaustedWithDetailsException> heard = new CopyOnWriteArrayList<>();
    try (BufferedMutator mutator = secure.getBufferedMutator(new BufferedMutatorParams(name)
        .listener((e, m) -> heard.add(e)))) {
      mutator.mutate(List.of(new Put(kept).addColumn(family, q, toBytes("kept")), refused, new Delete(deleted),
          new Put(added).addColumn(family, q, toBytes("added"))));
    }
    assertEquals(1, heard.size(), "the failures of the buffer, reported once at close");
    RetriesExhaustedWithDetailsException e = heard.get(0);
    assertEquals(1, e.getNumExceptions(), e.getMessage());
    assertSame(refused, e.getRow(0));
    assertTrue(e.getCause(0).getMessage().contains("nope"), e.getCause(0).getMessage());
    try (Table table = secure.getTable(name)) {
      assertEquals("kept", Bytes.toString(table.get(new Get(kept)).getValue(family, q)));
      assertEquals("added", Bytes.toString(table.get(new Get(added)).getValue(family, q)));
      assertFalse(table.exists(new Get(deleted)));
      assertFalse(table.exists(new Get(refused.getRow())));
    }
  }
}
