package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sixteen threads share one SecureConnection with mixed puts, gets, scans and conditional
 * updates: no corrupted value, no cross-talk between cells, no lost conditional update.
 */
@ExtendWith(SharedHBaseCluster.class)
class ConcurrencyTest {
  private static final String SCHEMA =
      "table: TABLE\n"
          + "rowKey: { box: DET }\n"
          + "families:\n"
          + "  f:\n"
          + "    default: { box: STD, type: string }\n"
          + "    columns:\n"
          + "      owner:   { box: DET, type: string }\n"
          + "      version: { box: DET, type: string }\n"
          + "      seq:     { box: OPE, type: long }\n";
  private static final byte[] F = toBytes("f");
  private static final int THREADS = 16;
  private static final int OPERATIONS = 100;

  @Test
  void sixteenThreadsOneConnection(Connection hbase) throws Exception {
    TableSchema schema = SecureFixture.schema("concurrency", SCHEMA);
    SecureConnection secure = SecureFixture.createSecure(hbase, SecureFixture.randomKeys(), schema);
    byte[] counterRow = toBytes("shared-counter");
    try (Table t = secure.getTable(SecureFixture.name(schema))) {
      t.put(new Put(counterRow).addColumn(F, toBytes("version"), toBytes("0")));
    }
    AtomicLong casSuccesses = new AtomicLong();
    AtomicLong checks = new AtomicLong();
    Set<String> written = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < THREADS; w++) {
      int thread = w;
      futures.add(pool.submit(() -> {
        Random r = new Random(thread);
        try (Table t = secure.getTable(SecureFixture.name(schema))) {
          for (int i = 0; i < OPERATIONS; i++) {
            String row = "t" + thread + "-r" + (i % 20);
            String payload = "thread " + thread + " row " + row + " op " + i;
            switch (r.nextInt(4)) {
              case 0, 1 -> {
                t.put(new Put(toBytes(row)).addColumn(F, toBytes("owner"), toBytes("t" + thread))
                    .addColumn(F, toBytes("payload"), toBytes(payload)).addColumn(F, toBytes("seq"), toBytes((long) i)));
                written.add(row);
                Result back = t.get(new Get(toBytes(row)));
                assertEquals(payload, Bytes.toString(back.getValue(F, toBytes("payload"))));
                checks.incrementAndGet();
              }
              case 2 -> {
                // Scan my own rows by a server-side DET filter: only mine, each consistent.
                SingleColumnValueFilter mine = new SingleColumnValueFilter(F, toBytes("owner"), CompareOperator.EQUAL,
                    new BinaryComparator(toBytes("t" + thread)));
                mine.setFilterIfMissing(true); // the shared counter row has no owner
                for (Result res : SecureFixture.scanAll(t, new Scan().setFilter(mine))) {
                  String p = Bytes.toString(res.getValue(F, toBytes("payload")));
                  assertTrue(p.startsWith("thread " + thread + " row " + Bytes.toString(res.getRow()) + " "), p);
                  checks.incrementAndGet();
                }
              }
              default -> {
                // Compare-and-set increment of a shared DET counter: retried until it wins.
                while (true) {
                  String current = Bytes.toString(t.get(new Get(counterRow)).getValue(F, toBytes("version")));
                  String next = Long.toString(Long.parseLong(current) + 1);
                  boolean won = t.checkAndMutate(CheckAndMutate.newBuilder(counterRow)
                      .ifEquals(F, toBytes("version"), toBytes(current))
                      .build(new Put(counterRow).addColumn(F, toBytes("version"), toBytes(next)))).isSuccess();
                  if (won) {
                    casSuccesses.incrementAndGet();
                    break;
                  }
                }
              }
            }
          }
        }
        return null;
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    try (Table t = secure.getTable(SecureFixture.name(schema))) {
      assertEquals(Long.toString(casSuccesses.get()),
          Bytes.toString(t.get(new Get(counterRow)).getValue(F, toBytes("version"))), "no lost conditional update");
      assertEquals(written.size() + 1, SecureFixture.scanAll(t, new Scan()).size());
    }
    assertTrue(casSuccesses.get() > 100 && checks.get() > 1000, casSuccesses + " increments, " + checks + " checks");
  }
}
