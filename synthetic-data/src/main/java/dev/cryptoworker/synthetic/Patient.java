package dev.cryptoworker.synthetic;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One synthetic patient as the cells of the Patients table: family to qualifier to value.
 *
 * @param id the row key (8 bytes, {@code P} and 7 digits)
 * @param cells family, then qualifier, then value; appointment qualifiers are appointment ids
 */
public record Patient(String id, Map<String, Map<String, String>> cells) {

  public Patient {
    Map<String, Map<String, String>> copy = new LinkedHashMap<>();
    cells.forEach((f, qs) -> copy.put(f, Collections.unmodifiableMap(new LinkedHashMap<>(qs))));
    cells = Collections.unmodifiableMap(copy);
  }

  /** The row key bytes. */
  public byte[] rowKey() {
    return id.getBytes(StandardCharsets.UTF_8);
  }

  /** The value of {@code family:qualifier}. */
  public String value(String family, String qualifier) {
    Map<String, String> f = cells.get(family);
    return f == null ? null : f.get(qualifier);
  }

  /** The DET lookup key: first name, last name and birth date, padded to 64 bytes. */
  public String mainId() {
    return value("identification", "mainId");
  }
}
