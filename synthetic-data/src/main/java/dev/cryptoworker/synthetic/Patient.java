package dev.cryptoworker.synthetic;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One synthetic patient as the cells of the Patients table: family to qualifier to value.
 *
 * @param id the row key (8 bytes, {@code P} and 7 digits)
 * @param cells family, then qualifier, then value; appointment qualifiers are appointment ids
 */
public record Patient(String id, Map<String, Map<String, String>> cells) {

  public Patient {
    cells = Cells.copyOf(cells);
  }

  /** The row key bytes. */
  public byte[] rowKey() {
    return id.getBytes(StandardCharsets.UTF_8);
  }

  /** The value of {@code family:qualifier}. */
  public String value(String family, String qualifier) {
    return Cells.value(cells, family, qualifier);
  }

  /** The DET lookup key: first name, last name and birth date, padded to 64 bytes. */
  public String mainId() {
    return value("identification", "mainId");
  }
}
