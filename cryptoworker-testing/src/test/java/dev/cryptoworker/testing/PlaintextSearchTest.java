package dev.cryptoworker.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PlaintextSearchTest {
  /**
   * On random bytes over a small alphabet (so that plaintexts do occur, overlap and share their
   * first chars), it finds exactly what {@code String.contains} finds, in order of first occurrence.
   */
  @Test
  void findsWhatContainsFindsInOrderOfFirstOccurrence() {
    Random random = new Random(3);
    int found = 0;
    for (int round = 0; round < 200; round++) {
      byte[] stored = new byte[random.nextInt(300)];
      for (int i = 0; i < stored.length; i++) {
        stored[i] = (byte) (random.nextBoolean() ? 'a' + random.nextInt(3) : random.nextInt(256));
      }
      String text = new String(stored, StandardCharsets.ISO_8859_1);
      List<String> plaintexts = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        StringBuilder p = new StringBuilder();
        for (int n = 2 + random.nextInt(4); n > 0; n--) {
          p.append((char) ('a' + random.nextInt(3)));
        }
        plaintexts.add(p.toString());
      }
      List<String> expected = new ArrayList<>(new LinkedHashSet<>(plaintexts.stream().filter(text::contains).toList()));
      expected.sort(Comparator.comparingInt(text::indexOf));
      List<String> got = new PlaintextSearch(plaintexts).foundIn(stored);
      assertEquals(expected.stream().map(text::indexOf).toList(), got.stream().map(text::indexOf).toList());
      assertEquals(new LinkedHashSet<>(expected), new LinkedHashSet<>(got));
      found += got.size();
    }
    assertTrue(found > 200, "the rounds found " + found + " plaintexts: too few to compare");
  }

  @Test
  void refusesNothingToSearchForAndTheEmptyPlaintext() {
    assertEquals("no plaintext to search for",
        assertThrows(IllegalArgumentException.class, () -> new PlaintextSearch(List.of())).getMessage());
    assertEquals("an empty plaintext is in everything",
        assertThrows(IllegalArgumentException.class, () -> new PlaintextSearch(List.of("abc", ""))).getMessage());
  }
}
