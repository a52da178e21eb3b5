package dev.cryptoworker.searchindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptoworker.cryptobox.search.PrfOutput;
import org.junit.jupiter.api.Test;

class SeenCountsTest {
  private static PrfOutput counter(int i) {
    return PrfOutput.copyOf(new byte[] {(byte) i, 1, 2, 3});
  }

  @Test
  void aCounterInUseStaysRememberedWhileOthersComeAndGo() {
    SeenCounts seen = new SeenCounts(3);
    seen.saw(counter(0), 10);
    for (int i = 1; i <= 20; i++) {
      seen.saw(counter(i), i);
      assertEquals(10, seen.highest(counter(0)), "the counter used between others after " + i + " others");
    }
    assertEquals(3, seen.size());
    assertEquals(SeenCounts.UNSEEN, seen.highest(counter(18)), "the least recently used goes first");
    assertEquals(20, seen.highest(counter(20)));
  }

  @Test
  void keepsTheHighestCountSeen() {
    SeenCounts seen = new SeenCounts(2);
    seen.saw(counter(0), 7);
    seen.saw(counter(0), 5);
    assertEquals(7, seen.highest(counter(0)));
    assertEquals(SeenCounts.UNSEEN, seen.highest(counter(1)));
  }

  @Test
  void anEmptyCapacityIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new SeenCounts(0));
  }
}
