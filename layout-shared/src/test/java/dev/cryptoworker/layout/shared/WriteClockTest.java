package dev.cryptoworker.layout.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Each write's timestamp comes after every one issued or read, whatever the physical clock does. */
class WriteClockTest {
  @Test
  void writesFollowTheClockAndComeAfterEveryTimestampIssuedOrRead() {
    AtomicLong now = new AtomicLong(1_000);
    try (WriteClock clock = new WriteClock(now::get)) {
      assertEquals(1_000, clock.next());
      assertEquals(1_001, clock.next(), "two writes in one millisecond");
      now.set(2_000);
      assertEquals(2_000, clock.next());
      clock.observe(9_000); // read a version another writer, an hour ahead, wrote
      assertEquals(9_001, clock.next());
      now.set(1_500); // the physical clock steps back
      assertEquals(9_002, clock.next());
      clock.observe(5_000);
      assertEquals(9_003, clock.next(), "an older version read moves nothing");
      now.set(20_000);
      assertEquals(20_000, clock.next());
    }
  }

  /** HBase reads Long.MAX_VALUE as "stamp it yourself": the clock never hands it out, nor wraps past it. */
  @Test
  void aVersionReadAtTheEndOfTimeStopsWritesInsteadOfWrappingThem() {
    try (WriteClock clock = new WriteClock(() -> 1_000)) {
      clock.observe(Long.MAX_VALUE - 2);
      assertEquals(Long.MAX_VALUE - 1, clock.next());
      IllegalStateException e = assertThrows(IllegalStateException.class, clock::next);
      assertTrue(e.getMessage().contains("the end of HBase's time"), e.getMessage());
      clock.observe(Long.MAX_VALUE);
      assertThrows(IllegalStateException.class, clock::next);
    }
  }
}
