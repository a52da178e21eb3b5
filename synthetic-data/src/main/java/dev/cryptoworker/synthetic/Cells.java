package dev.cryptoworker.synthetic;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Immutable family -> qualifier -> value maps, shared by the record types. */
final class Cells {
  private Cells() {}

  static Map<String, Map<String, String>> copyOf(Map<String, Map<String, String>> cells) {
    Map<String, Map<String, String>> copy = new LinkedHashMap<>();
    cells.forEach((f, qs) -> copy.put(f, Collections.unmodifiableMap(new LinkedHashMap<>(qs))));
    return Collections.unmodifiableMap(copy);
  }

  static String value(Map<String, Map<String, String>> cells, String family, String qualifier) {
    Map<String, String> f = cells.get(family);
    return f == null ? null : f.get(qualifier);
  }
}
