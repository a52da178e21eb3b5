package dev.cryptoworker.synthetic;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One synthetic appointment as the cells of the Appointments table.
 *
 * @param id the row key (8 bytes, {@code A} and 7 digits)
 * @param cells family, then qualifier, then value
 */
public record Appointment(String id, Map<String, Map<String, String>> cells) {

  public Appointment {
    cells = Cells.copyOf(cells);
  }

  public byte[] rowKey() {
    return id.getBytes(StandardCharsets.UTF_8);
  }

  public String value(String family, String qualifier) {
    return Cells.value(cells, family, qualifier);
  }

  /** The physician, 16 bytes. */
  public String physicianId() {
    return value("physician", "physicianId");
  }

  /** The date, ISO-8601 basic date-time (14 bytes), 2015-2020. */
  public String date() {
    return value("appointment", "date");
  }
}
