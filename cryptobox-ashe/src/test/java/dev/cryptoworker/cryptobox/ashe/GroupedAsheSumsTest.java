package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GroupedAsheSumsTest {
  @Test
  void groupsSumExactlyAsValuesAddedOneByOne() {
    SplittableRandom r = new SplittableRandom(7);
    GroupedAsheSums grouped = new GroupedAsheSums();
    List<AsheSum> oracle = new ArrayList<>();
    for (int g = 0; g < 300; g++) {
      assertEquals(g, grouped.newGroup(3));
      oracle.add(new AsheSum(3));
    }
    long id = 0;
    for (int i = 0; i < 100_000; i++) { // three times the values held at once: sorted in several times
      int g = r.nextInt(300);
      // mostly increasing identifiers, some far back (a scan order unrelated to identifiers)
      long cellId = r.nextInt(20) == 0 ? 1_000_000_000L - i : ++id;
      AsheCell cell = new AsheCell(3, r.nextLong(), i % 3 == 0 ? 9 : 11, cellId);
      grouped.add(g, cell);
      oracle.get(g).add(cell);
    }
    for (int g = 0; g < 300; g++) {
      assertArrayEquals(oracle.get(g).toBytes(), grouped.sum(g).toBytes(), "group " + g);
    }
  }

  @Test
  void valuesAddedAfterASumWasReadCountToo() {
    GroupedAsheSums grouped = new GroupedAsheSums();
    int g = grouped.newGroup(1);
    grouped.add(g, new AsheCell(1, 10, 5, 1));
    assertEquals(1, grouped.sum(g).count());
    grouped.add(g, new AsheCell(1, 32, 5, 2));
    assertEquals(2, grouped.sum(g).count());
    assertEquals(42, grouped.sum(g).ciphertext());
    assertEquals(1, grouped.sum(g).ids().byNonce().get(5L).runCount());
  }

  @Test
  void aRepeatedIdentifierOrAnotherKeyIsRefused() {
    GroupedAsheSums grouped = new GroupedAsheSums();
    int g = grouped.newGroup(1);
    grouped.add(g, new AsheCell(1, 10, 5, 7));
    grouped.add(g, new AsheCell(1, 10, 5, 7));
    IllegalArgumentException repeated = assertThrows(IllegalArgumentException.class, () -> grouped.sum(g));
    assertTrue(repeated.getMessage().contains("identifier 7"), repeated.getMessage());
    IllegalArgumentException otherKey = assertThrows(IllegalArgumentException.class,
        () -> grouped.add(g, new AsheCell(2, 10, 5, 8)));
    assertTrue(otherKey.getMessage().contains("key 2"), otherKey.getMessage());
  }
}
