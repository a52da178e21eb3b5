package dev.cryptoworker.layout.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster that refuses a request (an oversized cell, a missing table) is not marked down; one
 * that cannot be reached is; writes missed are reported once per outage.
 */
class ClusterCallsTest {
  private static final List<String> NAMES = List.of("east", "west");
  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  private static ClusterCalls calls(ClusterHealth health) {
    return new ClusterCalls(POOL, TimeUnit.SECONDS.toNanos(30), NAMES, health, i -> () -> {
      throw new IOException("still down");
    });
  }

  private static RetriesExhaustedWithDetailsException batchOf(Throwable cause) {
    return new RetriesExhaustedWithDetailsException(List.of(cause), List.<Row>of(new org.apache.hadoop.hbase.client.Put(
        new byte[] {1})), List.of("localhost:16020"));
  }

  @Test
  void aRefusedRequestMarksNoClusterDown() throws Exception {
    List<Throwable> refusals = List.of(new DoNotRetryIOException("Cell with size 2097167 exceeds limit of 1048576"),
        new IllegalArgumentException("KeyValue size too large"), new TableNotFoundException("t"),
        batchOf(new DoNotRetryIOException("Cell with size 2097167 exceeds limit")));
    for (Throwable refusal : refusals) {
      try (ClusterHealth health = new ClusterHealth()) {
        ClusterCalls.Outcomes<Void> out = calls(health).onEvery(i -> {
          if (refusal instanceof IOException io) {
            throw io;
          }
          throw (RuntimeException) refusal;
        });
        assertEquals(0, out.answered());
        assertTrue(out.describeFailures(NAMES).contains(refusal.getClass().getSimpleName()), out.describeFailures(NAMES));
        for (String name : NAMES) {
          assertNull(health.skipReason(name), refusal + " marked " + name + " down");
        }
      }
    }
  }

  @Test
  void anUnreachableClusterIsMarkedDown() throws Exception {
    for (IOException outage : List.of(new ConnectException("Connection refused"), batchOf(new ConnectException("refused")),
        new IOException("Call to localhost:16020 failed on local exception"))) {
      try (ClusterHealth health = new ClusterHealth()) {
        calls(health).onEvery(i -> {
          if (i == 1) {
            throw outage;
          }
          return null;
        });
        assertNull(health.skipReason("east"));
        assertNotNull(health.skipReason("west"), outage + " did not mark west down");
      }
    }
  }

  @Test
  void aMissedWriteIsReportedOncePerOutage() throws Exception {
    try (ClusterHealth health = new ClusterHealth()) {
      ClusterCalls calls = calls(health);
      ClusterCalls.Outcomes<Void> westRefuses = calls.onEvery(i -> {
        if (i == 1) {
          throw new TableNotFoundException("t");
        }
        return null;
      });
      assertEquals(List.of("west"), calls.newlyMissed("t", westRefuses), "the first write west misses");
      assertEquals(List.of(), calls.newlyMissed("t", westRefuses), "the second: the same outage");
      assertEquals(List.of("west"), calls.newlyMissed("u", westRefuses), "another table needs its own repair");
      assertEquals(List.of(), calls.newlyMissed("t", calls.onEvery(i -> null)), "every cluster took it");
      assertEquals(List.of("west"), calls.newlyMissed("t", westRefuses), "a new outage once west took a write");
      assertFalse(health.missedWrite("t", "west"));
    }
  }
}
