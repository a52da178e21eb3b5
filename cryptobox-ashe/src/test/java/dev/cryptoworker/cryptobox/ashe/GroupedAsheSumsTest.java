package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GroupedAsheSumsTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 8, 300})
  void groupsSumExactlyAsValuesAddedOneByOne(int groupCount) {
    SplittableRandom r = new SplittableRandom(7);
    GroupedAsheSums grouped = new GroupedAsheSums();
    Map<Integer, Integer> opened = new HashMap<>(); // groups open as a scan meets them: 300 pass from direct adds to held ones
    List<AsheSum> oracle = new ArrayList<>();
    long id = 0;
    for (int i = 0; i < 100_000; i++) { // three times the values held at once: sorted in several times
      int g = opened.computeIfAbsent(r.nextInt(groupCount), k -> {
        oracle.add(new AsheSum(3));
        return grouped.newGroup(3);
      });
      // mostly increasing identifiers, some far back (a scan order unrelated to identifiers)
      long cellId = r.nextInt(20) == 0 ? 1_000_000_000L - i : ++id;
      AsheCell cell = new AsheCell(3, r.nextLong(), i % 3 == 0 ? 9 : 11, cellId);
      grouped.add(g, cell);
      oracle.get(g).add(cell);
    }
    assertEquals(groupCount, oracle.size());
    for (int g = 0; g < groupCount; g++) {
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
    // Few groups: a value goes straight to its sum, and a repeat is refused as it is added.
    GroupedAsheSums few = new GroupedAsheSums();
    int g = few.newGroup(1);
    few.add(g, new AsheCell(1, 10, 5, 7));
    IllegalArgumentException atOnce = assertThrows(IllegalArgumentException.class,
        () -> few.add(g, new AsheCell(1, 10, 5, 7)));
    assertTrue(atOnce.getMessage().contains("identifier 7"), atOnce.getMessage());
    IllegalArgumentException otherKey = assertThrows(IllegalArgumentException.class,
        () -> few.add(g, new AsheCell(2, 10, 5, 8)));
    assertTrue(otherKey.getMessage().contains("key 2"), otherKey.getMessage());

    // Many groups: values are held, and a repeat is refused when the sums are read.
    GroupedAsheSums many = new GroupedAsheSums();
    for (int i = 0; i < 100; i++) {
      many.newGroup(1);
    }
    many.add(40, new AsheCell(1, 10, 5, 7));
    many.add(40, new AsheCell(1, 10, 5, 7));
    IllegalArgumentException whenRead = assertThrows(IllegalArgumentException.class, () -> many.sum(40));
    assertTrue(whenRead.getMessage().contains("identifier 7"), whenRead.getMessage());
  }
}
