package dev.cryptoworker.layout.shared;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.testing.Await;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A failed cluster stays skipped, for every handle, until its probe answers; then it is used again. */
class ClusterHealthTest {
  private static final int MAX_POLLS = 1_000; // 20 s of Await's polls: a bound on a stuck prober

  @Test
  void aFailedClusterIsSkippedUntilItsProbeAnswers() throws Exception {
    try (ClusterHealth health = new ClusterHealth()) {
      AtomicBoolean back = new AtomicBoolean();
      AtomicInteger probes = new AtomicInteger();
      ClusterHealth.Probe probe = () -> {
        probes.incrementAndGet();
        if (!back.get()) {
          throw new IOException("connection refused");
        }
      };
      assertNull(health.skipReason("south"));
      health.failed("south", "connection refused", probe);
      health.failed("south", "connection refused", probe); // a second failure while down starts no second prober
      assertTrue(health.skipReason("south").contains("skipped until it answers a probe"), health.skipReason("south"));
      assertNull(health.skipReason("north"), "only the failed cluster is skipped");

      Await.until(() -> probes.get() >= 2, List.of(), MAX_POLLS, () -> probes.get() + " probes");
      assertNotNull(health.skipReason("south"), "a failed probe keeps the cluster skipped");
      back.set(true);
      Await.until(() -> health.skipReason("south") == null, List.of(), MAX_POLLS, () -> probes.get() + " probes");
    }
  }

  @Test
  void aCallThatAnswersEndsTheSkipAtOnce() {
    try (ClusterHealth health = new ClusterHealth()) {
      health.failed("east", "refused", () -> {
        throw new IOException("still down");
      });
      assertNotNull(health.skipReason("east"));
      health.answered("east");
      assertNull(health.skipReason("east"));
    }
  }
}
