package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
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
}
