package dev.cryptoworker.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AppointmentGeneratorTest {
  @Test
  void sizesDatesAndDeterminism() {
    AppointmentGenerator g = new AppointmentGenerator(1, 50);
    assertEquals(g.appointment(3), new AppointmentGenerator(1, 50).appointment(3));
    Set<String> physicians = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      Appointment a = g.appointment(i);
      assertEquals(8, a.rowKey().length);
      assertEquals(AppointmentGenerator.PHYSICIAN, bytes(a.physicianId()));
      assertEquals(AppointmentGenerator.PATIENT, bytes(a.value("patient", "patientId")));
      assertEquals(14, bytes(a.date()));
      assertEquals(AppointmentGenerator.TYPE, bytes(a.value("appointment", "type")));
      assertEquals(AppointmentGenerator.OBS, bytes(a.value("appointment", "obs")));
      assertEquals(AppointmentGenerator.INSTITUTION_NAME, bytes(a.value("institution", "name")));
      assertEquals(AppointmentGenerator.ADDRESS, bytes(a.value("institution", "address")));
      LocalDateTime when = LocalDateTime.parse(a.date(), AppointmentGenerator.DATE);
      assertTrue(!when.isBefore(AppointmentGenerator.FIRST) && when.isBefore(AppointmentGenerator.END));
      physicians.add(a.physicianId());
    }
    assertTrue(physicians.size() > 40, "spread over physicians: " + physicians.size());
  }

  private static int bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
