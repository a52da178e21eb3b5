package dev.cryptoworker.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which of many plaintexts occur in stored bytes, read as ISO-8859-1 text (each byte one char), as
 * {@code new String(stored, ISO_8859_1).contains(plaintext)} tells for each plaintext. Raw-storage
 * audits look for thousands of plaintexts in every stored row key, qualifier and value: asking
 * {@code contains} of each one was quadratic, over a minute of CPU for 1,500 rows. The plaintexts are
 * indexed by their first {@code n} chars ({@code n} the shortest length), so a search costs one
 * lookup per stored byte and one comparison per plaintext that starts with the chars found there.
 */
public final class PlaintextSearch {
  private final int prefix;
  private final Map<String, List<String>> byPrefix = new HashMap<>();

  /**
   * @throws IllegalArgumentException if there is no plaintext, or an empty one (it would be in
   *     everything)
   */
  public PlaintextSearch(Collection<String> plaintexts) {
    if (plaintexts.isEmpty()) {
      throw new IllegalArgumentException("no plaintext to search for");
    }
    int shortest = Integer.MAX_VALUE;
    for (String p : plaintexts) {
      shortest = Math.min(shortest, p.length());
    }
    if (shortest == 0) {
      throw new IllegalArgumentException("an empty plaintext is in everything");
    }
    prefix = shortest;
    for (String p : new LinkedHashSet<>(plaintexts)) {
      byPrefix.computeIfAbsent(p.substring(0, prefix), k -> new ArrayList<>()).add(p);
    }
  }

  /** The plaintexts {@code stored} holds, each once, in the order their first occurrence starts. */
  public List<String> foundIn(byte[] stored) {
    String text = new String(stored, StandardCharsets.ISO_8859_1);
    Set<String> found = new LinkedHashSet<>();
    for (int at = 0; at + prefix <= text.length(); at++) {
      for (String p : byPrefix.getOrDefault(text.substring(at, at + prefix), List.of())) {
        if (text.startsWith(p, at)) {
          found.add(p);
        }
      }
    }
    return new ArrayList<>(found);
  }
}
