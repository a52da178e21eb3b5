package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class IdSetTest {
  /** Against identifiers added one by one: merged sets of interleaved, adjacent and appended runs. */
  @Test
  void addAllEqualsAddingEachIdentifier() {
    Random random = new Random(3);
    for (int trial = 0; trial < 300; trial++) {
      List<Long> ids = new ArrayList<>();
      for (long id = 1; id <= 400; id++) {
        ids.add(id);
      }
      Collections.shuffle(ids, random);
      int cut = random.nextInt(ids.size());
      // Half the trials: other holds only identifiers above this set's (the appending path).
      if (trial % 2 == 0) {
        Collections.sort(ids);
      }
      IdSet mine = new IdSet();
      IdSet other = new IdSet();
      IdSet oracle = new IdSet();
      for (int i = 0; i < ids.size(); i++) {
        if (random.nextInt(3) > 0) {
          (i < cut ? mine : other).add(ids.get(i));
          oracle.add(ids.get(i));
        }
      }
      mine.addAll(other);
      assertEquals(oracle, mine, "trial " + trial);
      assertEquals(oracle.size(), mine.size(), "trial " + trial);
      assertEquals(oracle.runCount(), mine.runCount(), "trial " + trial + ": adjacent runs joined");
    }
  }

  @Test
  void addAllRefusesAnIdentifierInBothAndLeavesTheSetAsItWas() {
    IdSet mine = new IdSet().addRun(1, 10).addRun(20, 30);
    IdSet before = new IdSet().addRun(1, 10).addRun(20, 30);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> mine.addAll(new IdSet().addRun(12, 14).addRun(30, 31)));
    assertEquals("identifier 30 is already in the set (used twice)", e.getMessage());
    assertEquals(before, mine);
    assertThrows(IllegalArgumentException.class, () -> mine.addAll(new IdSet().addRun(5, 5)));
    assertEquals(before, mine);
  }

  /**
   * Identifiers added in any order, with reads between some adds, form the runs the test builds
   * from the same identifiers sorted (its own walk, not IdSet's).
   */
  @Test
  void identifiersAddedInAnyOrderFormTheRunsOfTheSortedIdentifiers() {
    Random random = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      List<Long> ids = new ArrayList<>();
      for (long id = 1; id <= 500; id++) {
        if (random.nextInt(4) > 0) {
          ids.add(id);
        }
      }
      Collections.shuffle(ids, random);
      IdSet set = new IdSet();
      for (long id : ids) {
        set.add(id);
        if (random.nextInt(50) == 0) {
          set.runCount(); // a read settles what was held apart; adds go on after it
        }
      }
      List<long[]> expected = new ArrayList<>();
      for (long id : new TreeSet<>(ids)) {
        long[] last = expected.isEmpty() ? null : expected.get(expected.size() - 1);
        if (last != null && last[1] + 1 == id) {
          last[1] = id;
        } else {
          expected.add(new long[] {id, id});
        }
      }
      assertEquals(expected.size(), set.runCount(), "trial " + trial);
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(expected.get(i)[0], set.runStart(i), "trial " + trial + ", run " + i);
        assertEquals(expected.get(i)[1], set.runEnd(i), "trial " + trial + ", run " + i);
      }
      assertEquals(ids.size(), set.size(), "trial " + trial);
    }
  }

  /** A repeat of an identifier in a run is refused at once; one of an identifier held apart, at the next read. */
  @Test
  void repeatedIdentifiersAreRefusedInWhateverOrderTheyCome() {
    IdSet inRun = new IdSet().add(10).add(20);
    IllegalArgumentException atOnce = assertThrows(IllegalArgumentException.class, () -> inRun.add(10));
    assertEquals("identifier 10 is already in the set (used twice)", atOnce.getMessage());

    IdSet heldApart = new IdSet().add(10).add(20).add(15).add(15);
    IllegalArgumentException atRead = assertThrows(IllegalArgumentException.class, heldApart::runCount);
    assertEquals("identifier 15 is already in the set (used twice)", atRead.getMessage());

    IdSet merged = new IdSet().add(30).add(12);
    assertThrows(IllegalArgumentException.class, () -> merged.addAll(new IdSet().add(12)));
  }
}
